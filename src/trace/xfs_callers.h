/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who forced the XFS log: the function a xfs_log_force event's caller_ip
 * lies in, sorted into a few classes a person can act on.
 *
 * Every log force fires xfs_log_force twice: once where xfs_log_force() or
 * xfs_log_force_seq() is entered (caller_ip = the function that asked for
 * the force) and once more in the CIL force they call, xlog_cil_force_seq()
 * (caller_ip = inside xfs_log_force or xfs_log_force_seq). That second half
 * (XFS_FORCE_CIL) fires once per force, so it counts the forces. xfsaild's
 * CIL flush (xlog_cil_flush) fires only the first kind, from xfsaild.
 */
#ifndef FSPROF_XFS_CALLERS_H
#define FSPROF_XFS_CALLERS_H

enum xfs_force_class {
	XFS_FORCE_FSYNC, /* fsync/fdatasync of a file or directory */
	XFS_FORCE_SYNC_FS, /* sync(2), syncfs(2), freeze, unmount */
	XFS_FORCE_LOG_WORKER, /* the periodic log worker (30 s) */
	XFS_FORCE_AIL, /* xfsaild found pinned items (forces + CIL flushes) */
	XFS_FORCE_BUSY, /* reusing freshly freed (busy) extents */
	XFS_FORCE_OTHER,
	XFS_FORCE_CIL, /* the second event of every force: one per force */
	/* a synchronous transaction's commit: wsync, dirsync, sync mounts */
	XFS_FORCE_SYNC_TRANS,
	XFS_FORCE_CLASS_NR,
};

/* the class of a force whose caller_ip lies in function */
enum xfs_force_class xfs_force_class_of(const char *function);

/* "fsync", "sync_fs", ...: the metric is xfs.log_force_<name> */
const char *xfs_force_class_name(enum xfs_force_class c);

#endif
