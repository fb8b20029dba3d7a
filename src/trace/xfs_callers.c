// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <string.h>

#include "trace/xfs_callers.h"

struct force_caller {
	const char *function;
	enum xfs_force_class class;
};

/*
 * Callers by name across kernels. A caller that tail-calls into the force
 * leaves its own caller's address (xfs_dir_fsync -> do_fsync), so the VFS
 * entry points are listed too.
 */
static const struct force_caller force_callers[] = {
	{ "xfs_file_fsync", XFS_FORCE_FSYNC },
	{ "xfs_dir_fsync", XFS_FORCE_FSYNC },
	{ "xfs_fsync_flush_log", XFS_FORCE_FSYNC },
	{ "xfs_log_force_inode", XFS_FORCE_FSYNC },
	{ "do_fsync", XFS_FORCE_FSYNC },
	{ "vfs_fsync_range", XFS_FORCE_FSYNC },
	{ "vfs_fsync", XFS_FORCE_FSYNC },
	{ "xfs_fs_sync_fs", XFS_FORCE_SYNC_FS },
	{ "xfs_log_quiesce", XFS_FORCE_SYNC_FS },
	{ "xfs_quiesce_attr", XFS_FORCE_SYNC_FS },
	{ "xfs_log_unmount_write", XFS_FORCE_SYNC_FS },
	{ "sync_filesystem", XFS_FORCE_SYNC_FS },
	{ "xfs_log_worker", XFS_FORCE_LOG_WORKER },
	{ "xfs_sync_worker", XFS_FORCE_LOG_WORKER }, /* before 3.11 */
	{ "xfsaild", XFS_FORCE_AIL },
	{ "xfsaild_push", XFS_FORCE_AIL },
	{ "xfs_extent_busy_flush", XFS_FORCE_BUSY },
	{ "__xfs_trans_commit", XFS_FORCE_SYNC_TRANS },
	{ "xfs_trans_commit", XFS_FORCE_SYNC_TRANS },
	{ "xfs_log_force", XFS_FORCE_CIL },
	{ "xfs_log_force_seq", XFS_FORCE_CIL },
	{ "xfs_log_force_lsn", XFS_FORCE_CIL }, /* before 5.14 */
};

static const char *const class_names[XFS_FORCE_CLASS_NR] = {
	[XFS_FORCE_FSYNC] = "fsync",
	[XFS_FORCE_SYNC_FS] = "sync_fs",
	[XFS_FORCE_LOG_WORKER] = "log_worker",
	[XFS_FORCE_AIL] = "ail",
	[XFS_FORCE_BUSY] = "busy",
	[XFS_FORCE_OTHER] = "other",
	[XFS_FORCE_CIL] = "cil",
	[XFS_FORCE_SYNC_TRANS] = "sync_trans",
};

enum xfs_force_class xfs_force_class_of(const char *function)
{
	size_t i;

	for (i = 0; i < sizeof(force_callers) / sizeof(force_callers[0]); i++)
		if (!strcmp(function, force_callers[i].function))
			return force_callers[i].class;
	return XFS_FORCE_OTHER;
}

const char *xfs_force_class_name(enum xfs_force_class c)
{
	return c < XFS_FORCE_CLASS_NR ? class_names[c] : "other";
}
