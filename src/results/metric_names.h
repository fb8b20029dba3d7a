/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metric names the analyze stage reads, by id: MN(JBD2_COMMITS) is
 * "jbd2.commits". A rule that reads a metric by a string it spelt itself
 * reads 0 when the string is wrong, without a word; an id that is not in
 * this list does not compile, and test_metric_names checks that each name
 * here is one the trace side (src/trace/, the X-macro counter lists in
 * include/fsprof/, the workload's op.* histograms) writes. Per-op metrics
 * (src/results/per_op.c) are checked by the same test.
 */
#ifndef FSPROF_RESULTS_METRIC_NAMES_H
#define FSPROF_RESULTS_METRIC_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#define METRIC_READS(X)                                                       \
	X(BTRFS_FSYNCS, "btrfs.fsyncs")                                       \
	X(BTRFS_COMMITS, "btrfs.transaction_commits")                         \
	X(BTRFS_COMMITS_USER, "btrfs.transaction_commits_user")               \
	X(EXT4_ALLOC_EXTENT_BLOCKS, "ext4.alloc_extent_blocks")               \
	X(EXT4_ALLOC_GOAL_HITS, "ext4.alloc_goal_hits")                       \
	X(EXT4_ALLOC_GOAL_MISSES, "ext4.alloc_goal_misses")                   \
	X(EXT4_ALLOC_REQUESTED_BLOCKS, "ext4.alloc_requested_blocks")         \
	X(EXT4_ALLOC_REQUESTS, "ext4.alloc_requests")                         \
	X(EXT4_DA_FLUSH_EXTENT_BLOCKS, "ext4.da_flush_extent_blocks")         \
	X(EXT4_DA_FLUSH_EXTENTS, "ext4.da_flush_extents")                     \
	X(EXT4_DA_RESERVES, "ext4.da_reserves")                               \
	X(EXT4_FC_COMMITS, "ext4.fc_commits")                                 \
	X(EXT4_FC_FALLBACKS, "ext4.fc_fallbacks")                             \
	X(EXT4_FC_FAILED, "ext4.fc_failed")                                   \
	X(EXT4_FC_INELIGIBLE, "ext4.fc_ineligible")                           \
	X(EXT4_MBALLOC_CR_ANY_FREE, "ext4.mballoc_cr_any_free")               \
	X(EXT4_MBALLOC_CR_GOAL_LEN_SLOW, "ext4.mballoc_cr_goal_len_slow")     \
	X(EXT4_MBALLOC_EXTENTS_SCANNED, "ext4.mballoc_extents_scanned")       \
	X(EXT4_MBALLOC_GROUPS_SCANNED, "ext4.mballoc_groups_scanned")         \
	X(EXT4_MBALLOC_REGULAR, "ext4.mballoc_regular")                       \
	X(JBD2_BLOCKS_LOGGED, "jbd2.blocks_logged")                           \
	X(JBD2_CHECKPOINT_WRITTEN_BLOCKS, "jbd2.checkpoint_written_blocks")   \
	X(JBD2_COMMIT_NS, "jbd2.commit_ns")                                   \
	X(JBD2_COMMITS, "jbd2.commits")                                       \
	X(JBD2_COMMITS_SYNC, "jbd2.commits_sync")                             \
	X(JBD2_COMMITS_TIMER, "jbd2.commits_timer")                           \
	X(JBD2_FLUSHING_NS, "jbd2.flushing_ns")                               \
	X(JBD2_LOCK_BUFFER_STALL_NS, "jbd2.lock_buffer_stall_ns")             \
	X(JBD2_LOCK_BUFFER_STALLS, "jbd2.lock_buffer_stalls")                 \
	X(OP_CREATE_NS, "op.create_ns")                                       \
	X(OP_FSYNC_NS, "op.fsync_ns")                                         \
	X(OP_MKDIR_NS, "op.mkdir_ns")                                         \
	X(OP_RENAME_NS, "op.rename_ns")                                       \
	X(OP_RMDIR_NS, "op.rmdir_ns")                                         \
	X(OP_SYNC_NS, "op.sync_ns")                                           \
	X(OP_UNLINK_NS, "op.unlink_ns")                                       \
	X(OP_WRITE_NS, "op.write_ns")                                         \
	X(SCHED_META_READ_COUNT, "sched.meta_read_count")                     \
	X(SCHED_META_READ_NS, "sched.meta_read_ns")                           \
	X(SCHED_OFFCPU_COUNT_JOURNAL_COMMIT,                                  \
	  "sched.offcpu_count.journal_commit")                                \
	X(SCHED_OFFCPU_COUNT_XFS_LOG_FORCE,                                   \
	  "sched.offcpu_count.xfs_log_force")                                 \
	X(SCHED_OFFCPU_COUNT_BTRFS_LOG_SYNC,                                  \
	  "sched.offcpu_count.btrfs_log_sync")                                \
	X(SCHED_OFFCPU_COUNT_BTRFS_COMMIT, "sched.offcpu_count.btrfs_commit") \
	X(SCHED_ONCPU_NS, "sched.oncpu_ns")                                   \
	X(SCHED_STOLEN_NS, "sched.stolen_ns")                                 \
	X(SCHED_SYNC_DATA_NS, "sched.sync_data_ns")                           \
	X(SCHED_SYNC_PATH_NS_WRITE, "sched.sync_path_ns.write")               \
	X(SCHED_SYNC_PATH_NS_FSYNC, "sched.sync_path_ns.fsync")               \
	X(SCHED_SYNC_PATH_NS_SYNCFS, "sched.sync_path_ns.syncfs")             \
	X(SCHED_SYNC_PATH_NS_NAMESPACE, "sched.sync_path_ns.namespace")       \
	X(SCHED_SYNC_PATH_NS_OTHER, "sched.sync_path_ns.other")               \
	X(SCHED_TASKS, "sched.tasks")                                         \
	X(SCHED_UNACCOUNTED_NS, "sched.unaccounted_ns")                       \
	X(SCHED_WALL_NS, "sched.wall_ns")                                     \
	X(WRITEBACK_FS_FREE_SPACE_PAGES, "writeback.fs_free_space_pages")     \
	X(WRITEBACK_SYNC_PAGES, "writeback.sync_pages")                       \
	X(WRITEBACK_THROTTLE_COUNT, "writeback.throttle_count")               \
	X(WRITEBACK_THROTTLE_PAUSE_NS, "writeback.throttle_pause_ns")         \
	X(WRITEBACK_WORK_FS_FREE_SPACE, "writeback.work_fs_free_space")       \
	X(WRITEBACK_WORK_SYNC, "writeback.work_sync")                         \
	X(XFS_AIL_PINNED, "xfs.ail_pinned")                                   \
	X(XFS_CIL_WAITS, "xfs.cil_waits")                                     \
	X(XFS_LOG_FORCE_CIL, "xfs.log_force_cil")                             \
	X(XFS_LOG_FORCE_FSYNC, "xfs.log_force_fsync")                         \
	X(XFS_LOG_FORCE_SYNC_FS, "xfs.log_force_sync_fs")                     \
	X(XFS_LOG_FORCE_LOG_WORKER, "xfs.log_force_log_worker")               \
	X(XFS_LOG_FORCE_AIL, "xfs.log_force_ail")                             \
	X(XFS_LOG_FORCE_BUSY, "xfs.log_force_busy")                           \
	X(XFS_LOG_FORCE_OTHER, "xfs.log_force_other")                         \
	X(XFS_LOG_FORCE_SYNC_TRANS, "xfs.log_force_sync_trans")               \
	X(XFS_LOG_FORCES, "xfs.log_forces")                                   \
	X(XFS_LOG_GRANT_SLEEP_NS, "xfs.log_grant_sleep_ns")                   \
	X(XFS_LOG_GRANT_SLEEPS, "xfs.log_grant_sleeps")                       \
	X(XFS_LOG_WRITE_BYTES, "xfs.log_write_bytes")                         \
	X(XFS_LOG_WRITES, "xfs.log_writes")                                   \
	X(XFS_SYSFS_LOG_BYTES, "xfs.sysfs_log_bytes")

#define METRIC_READ_ENUM(id, name) MR_##id,

enum metric_read {
	METRIC_READS(METRIC_READ_ENUM) MR_NR,
};

extern const char *const metric_read_names[MR_NR];

/* the name of a metric the analysis reads, by its id */
#define MN(id) (metric_read_names[MR_##id])

/*
 * The trace side writes a metric of this name: a counter of the ext4,
 * jbd2 or xfs X-macro lists, one of a family whose suffix a naming
 * function gives (op.<op>_ns, sched.offcpu_ns.<cause>,
 * sched.sync_path_ns.<path>, xfs.log_force_<caller class>), or a name the
 * collectors' tables spell whole (trace_metric_literals, found by
 * test_metric_names in the sources of src/trace/).
 */
bool metric_name_is_counter(const char *name);

#endif
