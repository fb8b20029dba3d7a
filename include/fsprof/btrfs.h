/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the btrfs domain shares between bpf/btrfs.bpf.c and userspace. */
#ifndef FSPROF_BTRFS_H
#define FSPROF_BTRFS_H

#include "fsprof/phase.h"

/*
 * The counters of struct btrfs_stats: X(field, metric, prog) - the field,
 * its metric's name after "btrfs.", and the program counting it (enum
 * btrfs_prog, src/trace/btrfs.c). btrfs has no tracepoint for a tree-log
 * sync: an fsync is served by the log unless it commits the transaction
 * itself, which a commit in a process's own context (not the
 * btrfs-transaction thread) says; the time of each is in the sched
 * domain's btrfs_log_sync and btrfs_commit causes.
 */
#define BTRFS_COUNTERS(X)                                                    \
	X(fsyncs, fsyncs, BT_SYNC_FILE) /* btrfs_sync_file: fsync, O_SYNC */ \
	X(fdatasyncs, fdatasyncs, BT_SYNC_FILE) /* of which datasync */      \
	X(commits, transaction_commits, BT_COMMIT) /* every commit */        \
	X(commits_user, transaction_commits_user, BT_COMMIT) /* in a     \
								 process */   \
	X(sync_fs, sync_fs, BT_SYNC_FS) /* btrfs_sync_fs: sync, syncfs */

#define BTRFS_STATS_FIELD(field, metric, prog) unsigned long long field;

/* One per phase, in a per-CPU array indexed by the phase id. */
struct btrfs_stats {
	BTRFS_COUNTERS(BTRFS_STATS_FIELD)
};

#endif
