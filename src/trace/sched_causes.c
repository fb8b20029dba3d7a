// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "trace/sched_causes.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* a name, or a prefix when it ends with '*' */
struct cause_frame {
	const char *pattern;
	enum sched_cause cause;
	/* NULL, or: it names the cause only under one of these frames */
	const char *const *under;
};

/* frames of a buffered or mmap read: a page wait below them is a read */
static const char *const read_path[] = {
	"filemap_read",
	"filemap_fault",
	"filemap_splice_read",
	"filemap_get_pages",
	"do_read_cache_folio",
	"do_read_cache_page",
	NULL,
};

/* specific causes: the innermost frame that matches one wins */
static const struct cause_frame specific[] = {
	{ "jbd2_log_wait_commit", SCHED_CAUSE_JOURNAL_COMMIT, NULL },
	{ "jbd2_complete_transaction", SCHED_CAUSE_JOURNAL_COMMIT, NULL },
	/* a fast commit: the fsync writes its fc blocks and waits for them */
	{ "jbd2_fc_wait_bufs", SCHED_CAUSE_JOURNAL_COMMIT, NULL },
	{ "ext4_fc_commit", SCHED_CAUSE_JOURNAL_COMMIT, NULL },
	{ "wait_transaction_locked", SCHED_CAUSE_JOURNAL_LOCKED, NULL },
	{ "wait_transaction_switching", SCHED_CAUSE_JOURNAL_LOCKED, NULL },
	{ "add_transaction_credits", SCHED_CAUSE_JOURNAL_SPACE, NULL },
	{ "__jbd2_log_wait_for_space", SCHED_CAUSE_JOURNAL_SPACE, NULL },
	{ "xlog_wait_on_iclog", SCHED_CAUSE_XFS_LOG_FORCE, NULL },
	{ "xfs_log_force*", SCHED_CAUSE_XFS_LOG_FORCE, NULL },
	{ "__xfs_iunpin_wait", SCHED_CAUSE_XFS_LOG_FORCE, NULL },
	{ "xfs_iunpin_wait", SCHED_CAUSE_XFS_LOG_FORCE, NULL },
	{ "xlog_grant_head_wait", SCHED_CAUSE_XFS_LOG_SPACE, NULL },
	/*
	 * btrfs's fsync: the tree log written and its superblocks (a cache
	 * flush and FUA writes) waited for, inside btrfs_sync_log; or a full
	 * transaction commit when the log cannot serve it
	 */
	{ "btrfs_sync_log", SCHED_CAUSE_BTRFS_LOG_SYNC, NULL },
	{ "btrfs_commit_transaction", SCHED_CAUSE_BTRFS_COMMIT, NULL },
	{ "wait_current_trans", SCHED_CAUSE_BTRFS_COMMIT, NULL },
	{ "btrfs_wait_for_commit", SCHED_CAUSE_BTRFS_COMMIT, NULL },
	{ "xfs_buf_lock", SCHED_CAUSE_XFS_BUF_LOCK, NULL },
	{ "xfs_ilock*", SCHED_CAUSE_XFS_INODE_LOCK, NULL },
	{ "balance_dirty_pages", SCHED_CAUSE_DIRTY_THROTTLE, NULL },
	{ "folio_wait_writeback", SCHED_CAUSE_WRITEBACK_WAIT, NULL },
	{ "wait_on_page_writeback", SCHED_CAUSE_WRITEBACK_WAIT, NULL },
	{ "filemap_fdatawait*", SCHED_CAUSE_WRITEBACK_WAIT, NULL },
	{ "__filemap_fdatawait_range", SCHED_CAUSE_WRITEBACK_WAIT, NULL },
	{ "sync_inodes_sb", SCHED_CAUSE_WRITEBACK_WAIT, NULL },
	{ "wb_wait_for_completion", SCHED_CAUSE_WRITEBACK_WAIT, NULL },
	{ "blkdev_issue_flush", SCHED_CAUSE_DEVICE_FLUSH, NULL },
	{ "folio_wait_bit*", SCHED_CAUSE_READ_IO, read_path },
	{ "__folio_lock*", SCHED_CAUSE_READ_IO, read_path },
	{ "filemap_read", SCHED_CAUSE_READ_IO, NULL },
	{ "filemap_fault", SCHED_CAUSE_READ_IO, NULL },
	{ "__bread*", SCHED_CAUSE_READ_IO, NULL },
	{ "__bh_read*", SCHED_CAUSE_READ_IO, NULL },
	{ "ext4_read_bh*", SCHED_CAUSE_READ_IO, NULL },
	{ "ext4_bread*", SCHED_CAUSE_READ_IO, NULL },
	{ "__ext4_find_entry", SCHED_CAUSE_READ_IO, NULL },
	{ "__ext4_get_inode_loc", SCHED_CAUSE_READ_IO, NULL },
	{ "xfs_buf_read_map", SCHED_CAUSE_READ_IO, NULL },
	{ "do_read_cache_folio", SCHED_CAUSE_READ_IO, NULL },
	{ "iomap_dio_rw", SCHED_CAUSE_DIRECT_IO, NULL },
	{ "__iomap_dio_rw", SCHED_CAUSE_DIRECT_IO, NULL },
	{ "blk_mq_get_tag", SCHED_CAUSE_BLK_QUEUE, NULL },
	{ "rq_qos_wait", SCHED_CAUSE_BLK_QUEUE, NULL },
	{ "do_nanosleep", SCHED_CAUSE_SLEEP, NULL },
	{ "do_wait", SCHED_CAUSE_WAIT_CHILD, NULL },
};

/* generic waits: they name a stack no specific frame names */
static const struct cause_frame generic[] = {
	{ "submit_bio_wait", SCHED_CAUSE_READ_IO, NULL },
	{ "__mutex_lock*", SCHED_CAUSE_MUTEX, NULL },
	{ "mutex_lock*", SCHED_CAUSE_MUTEX, NULL },
	{ "rwsem_down_*", SCHED_CAUSE_RWSEM, NULL },
	{ "down_read*", SCHED_CAUSE_RWSEM, NULL },
	{ "down_write*", SCHED_CAUSE_RWSEM, NULL },
};

static const char *const cause_names[SCHED_CAUSE_NR] = {
	[SCHED_CAUSE_JOURNAL_COMMIT] = "journal_commit",
	[SCHED_CAUSE_JOURNAL_LOCKED] = "journal_locked",
	[SCHED_CAUSE_JOURNAL_SPACE] = "journal_space",
	[SCHED_CAUSE_XFS_LOG_FORCE] = "xfs_log_force",
	[SCHED_CAUSE_XFS_LOG_SPACE] = "xfs_log_space",
	[SCHED_CAUSE_XFS_BUF_LOCK] = "xfs_buf_lock",
	[SCHED_CAUSE_XFS_INODE_LOCK] = "xfs_inode_lock",
	[SCHED_CAUSE_BTRFS_LOG_SYNC] = "btrfs_log_sync",
	[SCHED_CAUSE_BTRFS_COMMIT] = "btrfs_commit",
	[SCHED_CAUSE_DIRTY_THROTTLE] = "dirty_throttle",
	[SCHED_CAUSE_WRITEBACK_WAIT] = "writeback_wait",
	[SCHED_CAUSE_DEVICE_FLUSH] = "device_flush",
	[SCHED_CAUSE_READ_IO] = "read_io",
	[SCHED_CAUSE_DIRECT_IO] = "direct_io",
	[SCHED_CAUSE_BLK_QUEUE] = "blk_queue",
	[SCHED_CAUSE_MUTEX] = "mutex",
	[SCHED_CAUSE_RWSEM] = "rwsem",
	[SCHED_CAUSE_SLEEP] = "sleep",
	[SCHED_CAUSE_WAIT_CHILD] = "wait_child",
	[SCHED_CAUSE_OTHER] = "other",
	[SCHED_CAUSE_RUNQUEUE] = "runqueue",
	[SCHED_CAUSE_NO_STACK] = "no_stack",
};

const char *sched_cause_name(enum sched_cause c)
{
	return c < SCHED_CAUSE_NR ? cause_names[c] : "other";
}

const char *sched_cause_pattern(unsigned int i, enum sched_cause *cause,
				bool *generic_wait)
{
	const struct cause_frame *f;

	if (i < ARRAY_SIZE(specific))
		f = &specific[i];
	else if (i - ARRAY_SIZE(specific) < ARRAY_SIZE(generic))
		f = &generic[i - ARRAY_SIZE(specific)];
	else
		return NULL;
	*cause = f->cause;
	*generic_wait = i >= ARRAY_SIZE(specific);
	return f->pattern;
}

/* the function's own name: up to an offset ("+0x1f") or a ".constprop.0" */
static size_t function_len(const char *frame)
{
	return strcspn(frame, "+. \t");
}

static bool pattern_matches(const char *pattern, const char *frame)
{
	size_t n = function_len(frame), p = strlen(pattern);

	if (p && pattern[p - 1] == '*')
		return n >= p - 1 && !strncmp(frame, pattern, p - 1);
	return n == p && !strncmp(frame, pattern, n);
}

/* does a frame outward of frames[i] match one of names? */
static bool under_one_of(const char *const *names, const char *const *frames,
			 unsigned int i, unsigned int n)
{
	const char *const *name;

	for (i++; i < n; i++)
		for (name = names; frames[i] && *name; name++)
			if (pattern_matches(*name, frames[i]))
				return true;
	return false;
}

/* the innermost frame one of table names: its cause, or OTHER */
static enum sched_cause first_match(const struct cause_frame *table, size_t len,
				    const char *const *frames, unsigned int n)
{
	unsigned int i;
	size_t e;

	for (i = 0; i < n; i++) {
		if (!frames[i])
			continue;
		for (e = 0; e < len; e++) {
			if (!pattern_matches(table[e].pattern, frames[i]))
				continue;
			if (table[e].under &&
			    !under_one_of(table[e].under, frames, i, n))
				continue;
			return table[e].cause;
		}
	}
	return SCHED_CAUSE_OTHER;
}

enum sched_cause sched_cause_classify(const char *const *frames, unsigned int n)
{
	enum sched_cause c;

	c = first_match(specific, ARRAY_SIZE(specific), frames, n);
	if (c == SCHED_CAUSE_OTHER)
		c = first_match(generic, ARRAY_SIZE(generic), frames, n);
	return c;
}

/*
 * Who asked for a durability wait, by the system call (or kernel path) on
 * the stack: checked in this order, since an O_DSYNC write reaches the
 * filesystem's fsync (xfs_file_fsync < xfs_file_buffered_write) and must
 * count as the write that asked.
 */
static const char *const path_write[] = {
	"vfs_write",	      "vfs_writev",	    "ksys_write",
	"ksys_pwrite64",      "do_iter_write",	    "generic_write_sync",
	"__x64_sys_write",    "__x64_sys_pwrite64", "__x64_sys_writev",
	"__x64_sys_pwritev*", "io_write",	    NULL,
};
static const char *const path_fsync[] = {
	"do_fsync",
	"vfs_fsync_range",
	"vfs_fsync",
	"__x64_sys_fsync",
	"__x64_sys_fdatasync",
	"ksys_sync_file_range",
	"__x64_sys_msync",
	"io_fsync",
	NULL,
};
static const char *const path_syncfs[] = {
	"sync_filesystem", "ksys_sync",	     "__x64_sys_syncfs",
	"__x64_sys_sync",  "iterate_supers", NULL,
};
static const char *const path_namespace[] = {
	"do_unlinkat",
	"do_rmdir",
	"do_mkdirat",
	"do_renameat2",
	"do_linkat",
	"do_symlinkat",
	"do_mknodat",
	"lookup_open*",
	"open_last_lookups",
	"vfs_create",
	"notify_change",
	"vfs_fileattr_set",
	"__vfs_setxattr*",
	"vfs_fallocate",
	"path_openat",
	"do_filp_open",
	NULL,
};

static const char *const path_names[SCHED_PATH_NR] = {
	[SCHED_PATH_WRITE] = "write",	[SCHED_PATH_FSYNC] = "fsync",
	[SCHED_PATH_SYNCFS] = "syncfs", [SCHED_PATH_NAMESPACE] = "namespace",
	[SCHED_PATH_OTHER] = "other",
};

const char *sched_path_name(enum sched_path p)
{
	return p < SCHED_PATH_NR ? path_names[p] : "other";
}

static bool any_frame_in(const char *const *names, const char *const *frames,
			 unsigned int n)
{
	const char *const *name;
	unsigned int i;

	for (i = 0; i < n; i++)
		for (name = names; frames[i] && *name; name++)
			if (pattern_matches(*name, frames[i]))
				return true;
	return false;
}

enum sched_path sched_path_classify(const char *const *frames, unsigned int n)
{
	if (any_frame_in(path_write, frames, n))
		return SCHED_PATH_WRITE;
	if (any_frame_in(path_fsync, frames, n))
		return SCHED_PATH_FSYNC;
	if (any_frame_in(path_syncfs, frames, n))
		return SCHED_PATH_SYNCFS;
	if (any_frame_in(path_namespace, frames, n))
		return SCHED_PATH_NAMESPACE;
	return SCHED_PATH_OTHER;
}

static const char *const meta_read_parts[] = {
	"do_unlinkat", "do_rmdir", "evict",   "lookup",
	"_iget",       "truncate", "readdir", "iterate_dir",
};

bool sched_read_is_metadata(const char *const *frames, unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++)
		for (k = 0; frames[i] && k < ARRAY_SIZE(meta_read_parts); k++)
			if (strstr(frames[i], meta_read_parts[k]))
				return true;
	return false;
}

bool sched_cause_is_durability(enum sched_cause c)
{
	return c == SCHED_CAUSE_JOURNAL_COMMIT ||
	       c == SCHED_CAUSE_XFS_LOG_FORCE ||
	       c == SCHED_CAUSE_BTRFS_LOG_SYNC ||
	       c == SCHED_CAUSE_BTRFS_COMMIT || c == SCHED_CAUSE_DEVICE_FLUSH;
}
