// SPDX-License-Identifier: GPL-2.0
/*
 * The rule table: every rule fsprof knows, its domain, the mechanism it
 * stands for and its check. docs/rules.md is the catalogue with the
 * thresholds (analyze/thresholds.h) and a source for each mechanism.
 */
#include "analyze/analyze.h"
#include "analyze/rules.h"

const struct rule analyze_rules[] = {
	{
		.id = "xfs-log-io-bound",
		.domain = "xfs",
		.mechanism =
			"XFS writes its log through in-core log buffers (iclogs) of logbsize bytes: a CIL checkpoint fills them and each full buffer becomes one log write, so a metadata-heavy phase issues one device request per logbsize bytes of log. Where each request costs a fixed time (a seeking disk, the hdd model's IOPS limit) the log moves logbsize x IOPS bytes per second, and transactions wait for free iclogs (and syncfs for the last of them): the phase runs at the log's speed.",
		.check = rule_xfs_log_io_bound,
	},
	{
		.id = "xfs-log-force-bound",
		.domain = "xfs",
		.mechanism =
			"An fsync of a file with changed metadata forces the CIL into the log and waits for the iclog write and, on a device with a volatile cache, its flush (REQ_PREFLUSH|REQ_FUA). An O_SYNC/O_DSYNC write (or any write on a sync mount) runs the same fsync inside write(2), and a wsync, dirsync or sync mount makes every create, unlink and rename force the log at its transaction's commit. With one force per operation each log write is as small as the changes since the last one, and each costs a full device round trip: the phase runs at the device's latency per operation, whatever the log buffer size.",
		.check = rule_xfs_log_force_bound,
	},
	{
		.id = "xfs-log-space",
		.domain = "xfs",
		.mechanism =
			"A transaction reserves log space before it runs (the grant heads). When the log is full it sleeps in xlog_grant_head_wait until xfsaild has written metadata back from the log's tail (AIL push) and the tail moves: a log that is small for the rate of metadata change, or metadata writeback that cannot keep up, turns into transactions waiting.",
		.check = rule_xfs_log_space,
	},
	{
		.id = "jbd2-commit-bound",
		.domain = "jbd2",
		.mechanism =
			"ext3/ext4 journal metadata changes in jbd2 transactions. An fsync of a file with changed metadata waits until the running transaction commits: jbd2 writes its blocks and a commit block and flushes the device cache (with data=ordered it first writes the transaction's file data; with data=journal the data itself is in the commit). An O_SYNC/O_DSYNC write (or any write on a sync mount) runs that fsync inside write(2); a sync or dirsync mount, or a chattr +D/+S directory, makes each create, unlink and rename a synchronous handle whose stop commits. With one commit per operation every commit carries a few blocks and the phase runs at the device's latency per commit.",
		.check = rule_jbd2_commit_bound,
	},
	{
		.id = "btrfs-log-sync-bound",
		.domain = "btrfs",
		.mechanism =
			"A btrfs fsync copies the inode's changed items into a per-subvolume tree log and syncs it (btrfs_sync_log): it writes the log's blocks, waits for them, then writes every device's superblock after a cache flush (REQ_PREFLUSH, REQ_FUA). An O_SYNC/O_DSYNC write (or a write on a sync mount) runs the same fsync inside write(2). When the log cannot serve an fsync (an inode renamed or unlinked in the running transaction, a log that would need a full commit) the fsync commits the whole transaction instead: every dirty tree is written and the superblocks too. With one sync per operation each costs at least two device round trips and a flush, and the phase runs at the device's latency per operation.",
		.check = rule_btrfs_log_sync_bound,
	},
	{
		.id = "jbd2-journal-full",
		.domain = "jbd2",
		.mechanism =
			"jbd2 reuses journal space only once a committed transaction's blocks are written to their home locations (checkpoint). When the journal is full, new handles wait in __jbd2_log_wait_for_space while the checkpoint writes them: a journal that is small for the metadata rate turns bursts into synchronous metadata writeback.",
		.check = rule_jbd2_journal_full,
	},
	{
		.id = "ext4-delalloc-off",
		.domain = "ext4",
		.mechanism =
			"With delayed allocation ext4 only reserves space at write(2) and allocates real blocks when writeback flushes the file, in extents as large as the dirty range. With nodelalloc every write(2) allocates its blocks at once, through mballoc and a journalled extent-tree update per call: 4 KiB writes cost one allocation each, and files written side by side interleave on disk.",
		.check = rule_ext4_delalloc_off,
	},
	{
		.id = "ext4-delalloc-defeated",
		.domain = "ext4",
		.mechanism =
			"Delayed allocation helps only when a file's dirty range is large when writeback comes. An fsync (or sync, or memory pressure) after every small append makes each flush allocate a small extent: the file ends up in many pieces and every flush pays an allocation.",
		.check = rule_ext4_delalloc_defeated,
	},
	{
		.id = "ext4-mballoc-scanning",
		.domain = "ext4",
		.mechanism =
			"mballoc looks for a free extent of the goal length in criteria passes, from the cheapest (an aligned power-of-two buddy) to any free extent, scanning block groups in each. Many groups per allocation, or allocations that end in the late passes, mean free space is fragmented or nearly gone: each allocation costs CPU and bitmap reads, and files end up scattered.",
		.check = rule_ext4_mballoc_scanning,
	},
	{
		.id = "metadata-read-bound",
		.domain = "block",
		.mechanism =
			"An unlink or a lookup needs metadata the filesystem does not hold in memory - inodes, directory blocks, the blocks that map a file - and waits for each read. Freeing an indirect-mapped file (ext2, ext3, ext4 without extents) reads its indirect blocks to find its data blocks; an extent-mapped file keeps its map in the inode (or a few extent blocks) and reads almost nothing. After streaming data has pushed them out of the cache, each such read is a random read: on a seeking disk thousands of them take seconds.",
		.check = rule_metadata_read_bound,
	},
	{
		.id = "dirty-throttled",
		.domain = "writeback",
		.mechanism =
			"balance_dirty_pages() does no IO itself (since 3.2): a task that dirties pages faster than the device's measured writeback bandwidth is put to sleep, in proportion, once the dirty pages pass the midpoint between the background and the hard limit (vm.dirty_background_*, vm.dirty_*), so that it dirties at the speed the device writes.",
		.check = rule_dirty_throttled,
	},
	{
		.id = "fs-free-space-flush",
		.domain = "writeback",
		.mechanism =
			"A filesystem that runs short of free space stops trusting its reservations for not yet allocated (delayed) data and writes dirty data out early to find out what is really free.",
		.check = rule_free_space_flush,
	},
	{
		.id = "lock-contention",
		.domain = "sched",
		.mechanism =
			"The workload's threads slept on kernel locks (mutexes and rwsems such as a directory's i_rwsem, XFS inode and buffer locks, jbd2 buffer locks held across IO): the phase's work was serialised, not limited by the device or the CPU.",
		.check = rule_lock_contention,
	},
	{
		.id = "device-bound",
		.domain = "block",
		.mechanism =
			"The device had requests in flight for most of the phase: it set the pace, not the CPU or the filesystem's own waits. At queue depth near 1 with small requests its per-request latency did; with deep queues its throughput.",
		.check = rule_device_bound,
	},
	{
		.id = "cpu-bound",
		.domain = "cpu",
		.mechanism =
			"The workload's own threads were on the CPU for most of the phase while the device idled: system calls, page-cache copies and filesystem code bound it. A faster disk would not help; fewer or larger calls might.",
		.check = rule_cpu_bound,
	},
	{
		.id = "cache-bound",
		.domain = "cache",
		.mechanism =
			"The page cache served the phase's reads or held its writes and the device stayed nearly idle: the phase measured memory and CPU, not the filesystem's IO path. Drop caches before the phase (fsprof does for read phases) or use more data than RAM to measure the device.",
		.check = rule_cache_bound,
	},
	{
		.id = "spill-over",
		.domain = "block",
		.mechanism =
			"fsprof charges device time to the phase in which it elapsed; what elapsed between phases (in untimed prepare steps or after a phase's timing ended) belongs to no phase. A lot of it means some phase's wall time excludes work it caused, or a phase started from a cache state something else changed.",
		.check = rule_spill_over,
	},
	{
		.id = "throttle-not-held",
		.domain = "block",
		.mechanism =
			"A rate model's engine answers each request at its pace, one at a time (reads and writes apart): a phase whose traced device saw more requests (or bytes) per second than the model allows did not run entirely at the model's speed - IO reached the device without the model's charge. The slice allowance (MODEL_SLICE_S) is the older engine's, the blkio throttle's, kept for the files it wrote.",
		.check = rule_throttle_not_held,
	},
	{
		.id = "short-phase",
		.domain = "phase",
		.mechanism =
			"A phase under half a second is too short to trust: one scheduling delay, one slow request or the tracer's own switch move it by a large fraction (bonnie++ prints +++++ for such tests).",
		.check = rule_short_phase,
	},
	{
		.id = "size-lt-2x-ram",
		.domain = "cache",
		.mechanism =
			"The data fits in memory twice over: a phase that neither drops caches nor syncs reads from and writes to the page cache, and its rates are memory's.",
		.check = rule_fits_in_ram,
	},
	{
		.id = "inflight-at-end",
		.domain = "block",
		.mechanism =
			"fsprof waits up to 2 s after a phase for its requests to complete; requests still in flight then are counted but their latency is missing from the phase, and their device time is counted only up to the phase's end.",
		.check = rule_inflight_at_end,
	},
	{
		.id = "cpu-stolen",
		.domain = "sched",
		.mechanism =
			"On a virtual machine the hypervisor runs other guests on the physical CPUs: while it does, a vCPU that was running the workload makes no progress, and the guest's scheduler counts that time as steal rather than as the task's CPU. The phase took longer by that time for reasons outside this machine, and by as much as the host happened to be loaded.",
		.check = rule_cpu_stolen,
	},
	{
		.id = "target-difference",
		.domain = "compare",
		.mechanism =
			"The targets ran the same workload with the same parameters; the resource whose time grew most from the fastest to the slowest target - device time per IO class, CPU, dirty throttling, or a cause of the sched time budget - is where the difference went, when it grew by at least half of the difference.",
		.compare = rule_target_difference,
	},
};

const unsigned int analyze_n_rules =
	sizeof(analyze_rules) / sizeof(analyze_rules[0]);

unsigned int analyze_rule_count(void)
{
	return analyze_n_rules;
}

const char *analyze_rule_id(unsigned int i)
{
	return i < analyze_n_rules ? analyze_rules[i].id : NULL;
}
