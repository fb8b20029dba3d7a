/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a task slept, read from the kernel stack it went to sleep with: a
 * table of kernel functions that name a cause, matched frame by frame from
 * the innermost (the one that called schedule) outward. The first frame
 * that names a specific cause wins; the generic ones (a mutex, an rwsem, a
 * synchronous bio) name the wait only when no frame names anything more
 * specific (xfs_ilock takes an rwsem: that wait is xfs_inode_lock). A frame
 * this kernel does not have is simply never seen. docs/metrics.md lists
 * every cause with its functions.
 */
#ifndef FSPROF_SCHED_CAUSES_H
#define FSPROF_SCHED_CAUSES_H

#include <stdbool.h>

enum sched_cause {
	SCHED_CAUSE_JOURNAL_COMMIT,
	SCHED_CAUSE_JOURNAL_LOCKED,
	SCHED_CAUSE_JOURNAL_SPACE,
	SCHED_CAUSE_XFS_LOG_FORCE,
	SCHED_CAUSE_XFS_LOG_SPACE,
	SCHED_CAUSE_XFS_BUF_LOCK,
	SCHED_CAUSE_XFS_INODE_LOCK,
	SCHED_CAUSE_BTRFS_LOG_SYNC,
	SCHED_CAUSE_BTRFS_COMMIT,
	SCHED_CAUSE_DIRTY_THROTTLE,
	SCHED_CAUSE_WRITEBACK_WAIT,
	SCHED_CAUSE_DEVICE_FLUSH,
	SCHED_CAUSE_READ_IO,
	SCHED_CAUSE_DIRECT_IO,
	SCHED_CAUSE_BLK_QUEUE,
	SCHED_CAUSE_MUTEX,
	SCHED_CAUSE_RWSEM,
	SCHED_CAUSE_SLEEP,
	SCHED_CAUSE_WAIT_CHILD,
	SCHED_CAUSE_OTHER, /* a stack no frame of the table names */
	SCHED_CAUSE_RUNQUEUE, /* preempted: runnable, waiting for a CPU */
	SCHED_CAUSE_NO_STACK, /* asleep, but the stack was not recorded */
	SCHED_CAUSE_NR,
};

/* "journal_commit": the metric is sched.offcpu_ns.<name> */
const char *sched_cause_name(enum sched_cause c);

/*
 * The cause of a sleep whose stack is frames[0..n), frames[0] innermost,
 * each a function name as /proc/kallsyms spells it (an optional "+0x1f"
 * offset and a compiler suffix such as ".constprop.0" are ignored); NULL
 * for a frame that could not be named. Never RUNQUEUE or NO_STACK: those
 * have no stack.
 */
enum sched_cause sched_cause_classify(const char *const *frames,
				      unsigned int n);

/*
 * The table itself, for the check that docs/metrics.md lists it as it is:
 * the i-th frame pattern ("xfs_log_force*"), its cause, and whether it is
 * a generic wait (a lock or a bio, named only when nothing specific is);
 * NULL past the end.
 */
const char *sched_cause_pattern(unsigned int i, enum sched_cause *cause,
				bool *generic_wait);

/*
 * Who asked for a wait on a commit, a log force or a cache flush, by the
 * system call on its stack (issue 32): a write (O_SYNC/O_DSYNC, a sync
 * mount, chattr +S), fsync/fdatasync, sync/syncfs, a namespace operation
 * (create, unlink, rename, setattr: dirsync, wsync, sync mounts), or none
 * of those (a kernel thread, a path the table does not know). The metrics
 * are sched.sync_path_ns.<name> and sched.sync_path_count.<name>.
 */
enum sched_path {
	SCHED_PATH_WRITE,
	SCHED_PATH_FSYNC,
	SCHED_PATH_SYNCFS,
	SCHED_PATH_NAMESPACE,
	SCHED_PATH_OTHER,
	SCHED_PATH_NR,
};

const char *sched_path_name(enum sched_path p);
enum sched_path sched_path_classify(const char *const *frames, unsigned int n);

/*
 * A read_io wait under a metadata path: an unlink or rmdir, an inode's
 * eviction or truncation, a lookup or inode read, a directory read - the
 * reads metadata-read-bound judges (sched.meta_read_ns, over every stack,
 * not only the heaviest). Frames match by a part of their function name.
 */
bool sched_read_is_metadata(const char *const *frames, unsigned int n);

/*
 * journal_commit, xfs_log_force, btrfs_log_sync, btrfs_commit and
 * device_flush: the waits a path is kept for
 */
bool sched_cause_is_durability(enum sched_cause c);

#endif
