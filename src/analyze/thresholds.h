/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every threshold the analyze stage compares with, in one place, with the
 * reason for its value. A share is a fraction of the phase's wall time
 * (or of its thread time when the sched time budget is there) unless the
 * comment says otherwise. docs/rules.md lists them per rule.
 */
#ifndef FSPROF_ANALYZE_THRESHOLDS_H
#define FSPROF_ANALYZE_THRESHOLDS_H

/*
 * Phases shorter than this get no warning: the jbd2 run statistics work
 * in 4 ms jiffies, and a phase of a few requests has shares that swing
 * from 0 to 1 with one request (the older device-model throttle also
 * worked in 100 ms slices). The verdict is still given, marked as
 * unreliable.
 */
#define RULE_MIN_WALL_NS 100000000ULL

/* the report's "too short to trust" flag (bonnie++ prints +++++ below it) */
#define SHORT_PHASE_NS 500000000ULL

/*
 * cpu-stolen caveat: the hypervisor took at least this share of a phase's
 * wall time from the vCPUs its workload was on. That time is the host's
 * load, not the filesystem's, and it comes in bursts: two runs of the same
 * phase differ by it. 5% is the smallest run-to-run noise of a single run
 * on this class of machine (COMPARE_MIN_DIFF's 5-15%): below it a
 * comparison's noise hides it, above it a difference can be the host.
 */
#define STOLEN_SHARE 0.05

/*
 * Bound verdicts. A resource that takes more than half of the phase's time
 * is what bounds it: removing everything else could at most halve the
 * phase, removing it could more than halve it.
 */
#define BOUND_MAJORITY 0.5
/* above this, one resource bounds the phase whatever the others do */
#define BOUND_DOMINANT 0.8
/*
 * Between the two, CPU and device time overlap (readahead, writeback while
 * the writer copies): the larger one bounds the phase only when it is at
 * least this many times the other, else the verdict is "mixed".
 */
#define BOUND_LEAD 1.5

/*
 * A time budget that could not say where at least half of the workload's
 * time went (asleep with no stack or on a cause fsprof does not classify:
 * no_stack, other; or time the tracer did not see: unaccounted) cannot
 * give any cause a majority (BOUND_MAJORITY), so it cannot decide a
 * verdict and its shares are no basis for a rule: the analysis then uses
 * device busy time and CPU, as without a budget, and says why.
 */
#define BUDGET_UNATTRIBUTED_MAX BOUND_MAJORITY

/* device-bound finding: busy at least this share of the phase */
#define DEVICE_BOUND_BUSY 0.8
/*
 * ... or the workload asleep on device IO (time budget) DEVICE_BOUND_BUSY
 * of its time while this device was busy at least half the phase: the
 * budget's IO waits name no device, and a workload reading its input from
 * another disk (a tarball on the root filesystem) waits on that one while
 * the target idles.
 */
#define DEVICE_WAIT_MIN_BUSY BOUND_MAJORITY
/*
 * qd below this with requests no larger than DEVICE_SMALL_REQUEST_BYTES:
 * the device serves one small request at a time, so its busy time is
 * mostly per-request latency, not bandwidth.
 */
#define DEVICE_SERIAL_QD 1.5
#define DEVICE_SMALL_REQUEST_BYTES (64 * 1024)
/*
 * ... unless at least half of the requests were durability writes (cache
 * flushes, journal or log writes, FUA or PREFLUSH requests): each stands
 * for a commit or log force, so neither larger requests nor more in
 * flight change their number; the durability rules say what does.
 */
#define DEVICE_DURABLE_REQ_SHARE 0.5

/*
 * CPU bound: %CP of at least 80 (bonnie++'s own rule of thumb for "the
 * test measured the CPU") while the device was busy less than 20% of the
 * phase, so the device cannot be what the phase waited for.
 */
#define CPU_BOUND_SHARE 0.8
#define DEVICE_IDLE_BUSY 0.2

/*
 * Cache bound: the device moved less than a tenth of the bytes the
 * workload read or wrote and was busy less than a tenth of the phase: the
 * page cache served or absorbed the phase.
 */
#define CACHE_DEVICE_BYTES_SHARE 0.1
#define CACHE_IDLE_BUSY 0.1

/*
 * Log or journal IO bound: log writes take at least half of the phase.
 * Their share is the log class's own busy time, or - on a device that
 * costs the same per request, such as the hdd model or any seek-bound
 * disk - the device's busy time times the log's share of the requests,
 * whichever is larger.
 */
#define LOG_IO_SHARE 0.5

/*
 * An iclog written at least half full was written because it filled,
 * not because something forced it out: a bigger buffer carries more per
 * write, and each write costs one request. Below it, forces (fsync,
 * sync) decide the write size and logbsize does not matter.
 */
#define LOG_BUFFER_FULL 0.5

/* the largest XFS log buffer (logbsize=256k; Documentation/admin-guide/xfs.rst) */
#define XFS_LOGBSIZE_MAX (256 * 1024)
/* its default for a v2 log without a log stripe unit */
#define XFS_LOGBSIZE_DEFAULT (32 * 1024)

/*
 * Force bound: at least one log force per two log writes means forces, not
 * full buffers, cut the log into writes.
 */
#define LOG_FORCES_PER_WRITE 0.5

/*
 * A mechanism that needs one commit or force per durability call needs at
 * least this many of them to be a pattern rather than the phase's final
 * sync.
 */
#define DURABILITY_MIN_EVENTS 10

/*
 * Commit (or force) bound: the workload spent at least half the phase in
 * fsync/fdatasync/syncfs, at least one commit ran per two of those calls,
 * and a commit was running at least half the phase.
 */
#define COMMIT_WAIT_SHARE 0.5
#define COMMITS_PER_SYNC 0.5

/*
 * Per operation: at least one commit or log force per two of the phase's
 * operations (the workload's writes, creates, unlinks, renames, mkdirs,
 * rmdirs; under fsprof trace, the device's data write requests) is "one
 * per operation or more" in the evidence: the durability point was the
 * operation, whoever asked for it (an O_DSYNC write, a sync mount).
 */
#define COMMITS_PER_OP 0.5

/*
 * A cause under this share of the workload's time is not named in a
 * verdict or an evidence line (the verdict's cause list leaves it out):
 * below it, a share is within one run's noise (STOLEN_SHARE's 5%).
 */
#define CAUSE_MENTION_SHARE 0.05

/*
 * data=journal wrote the data twice when the journal's writes (log_write
 * class bytes) were at least half the data the workload wrote: the rest
 * of an O_DSYNC or sync-mount workload's journal is a few blocks per
 * commit, far below it (1 descriptor + 1 commit block per 4 KiB write is
 * already 50%: the threshold is met only with data in the journal or
 * commits of two blocks per data block, both the same cost).
 */
#define DATA_JOURNAL_TWICE_SHARE 0.5

/*
 * btrfs: the share of the fsyncs that committed the whole transaction in
 * their own context (btrfs.transaction_commits_user against btrfs.fsyncs)
 * from which the advice is about the full commits, not the number of
 * fsyncs: at half, most fsyncs paid a full commit (every dirty tree and
 * the superblocks) instead of a log sync.
 */
#define BTRFS_FULL_COMMIT_SHARE 0.5

/*
 * Fast commit falls back: at least half the fast commits attempted fell
 * back to a full jbd2 commit (ineligible: rename, xattr, data=journal,
 * journal full); the fsyncs then pay a full commit anyway.
 */
#define FC_FALLBACK_SHARE 0.5

/*
 * A commit carrying at most 16 journal blocks (64 KiB with 4 KiB blocks)
 * is small: its fixed cost (descriptor, commit block, cache flush) is
 * most of it.
 */
#define JOURNAL_SMALL_COMMIT_BLOCKS 16

/*
 * Ordered-data flush: when writing the ordered data takes at least half of
 * the commit time (jbd2.flushing_ns against jbd2.commit_ns), commits wait
 * for data, not for the journal (data=ordered).
 */
#define JOURNAL_ORDERED_SHARE 0.5

/*
 * Journal full: the checkpoint had to write at least a tenth of what was
 * logged (and at least JOURNAL_CHECKPOINT_MIN_BLOCKS): transactions waited
 * for journal space.
 */
#define JOURNAL_CHECKPOINT_SHARE 0.1
#define JOURNAL_CHECKPOINT_MIN_BLOCKS 1000

/*
 * Log space: transactions slept at least a fifth of the phase waiting for
 * log space (grant head): a fifth of the time is a fifth of throughput.
 */
#define LOG_SPACE_SHARE 0.2

/* larger log advice: at least 4x the current, at most mkfs.xfs's 2038 MiB */
#define XFS_LOG_GROW_FACTOR 4
#define XFS_LOG_MAX_BYTES (2038ULL << 20)
/* ... and at most this fraction of the filesystem */
#define XFS_LOG_MAX_FS_SHARE 0.25

/*
 * Delayed allocation off or defeated: one block allocation per two
 * write(2) calls or more, over at least 1000 writes, with allocations of
 * at most 16 blocks (64 KiB): every small write allocated on its own.
 */
#define DELALLOC_ALLOCS_PER_WRITE 0.5
#define DELALLOC_MIN_WRITES 1000
#define DELALLOC_SMALL_ALLOC_BLOCKS 16
/*
 * Defeated: delalloc flushed each file in at least 4 pieces of at most 16
 * blocks on average: something (fsync, sync, memory pressure) wrote the
 * files before they were complete.
 */
#define DELALLOC_EXTENTS_PER_FILE 4

/*
 * mballoc scanning: at least 100 regular allocations, scanning at least 8
 * groups each (mb_optimize_scan's own reason to exist: linear scans of
 * fragmented groups), or a quarter of them finishing in the late criteria
 * passes (goal_len_slow, any_free) that accept any free extent.
 * The two catch different states. Fragmented free space that is still
 * plentiful (--age fill=90,sizes=small: half of it in extents under
 * 64 KiB) leaves groups/allocation at 1.0-1.1 on 5 groups, 2.4 on 69:
 * goal_len_slow takes a group whose free total exceeds the goal and
 * measures free extents until mb_max_to_scan (200) have been measured,
 * counted across groups (~190 per allocation against 1 fresh): groups
 * per allocation come to ~200 over the free extents a group holds, and a
 * 128 MiB group holds thousands. The late share (95% against 0 fresh)
 * shows it. The most groups measured: 7.72 per allocation, 1 KiB blocks
 * filled to 95% with a tenth deleted (~40 free extents a group), its late
 * share 92%.
 */
#define MBALLOC_MIN_ALLOCS 100
#define MBALLOC_GROUPS_PER_ALLOC 8.0
#define MBALLOC_LATE_CR_SHARE 0.25

/*
 * Dirty throttling: writers slept in balance_dirty_pages() at least a
 * fifth of the phase (warning); the verdict says "throttle" from
 * BOUND_MAJORITY.
 */
#define THROTTLE_SHARE 0.2

/*
 * Free-space flush: the workload waited in writeback it did not ask for
 * (time budget's writeback_wait) at least this share of the phase.
 */
#define SPACE_FLUSH_WAIT_SHARE 0.3

/* lock contention (time budget only): a fifth of the phase asleep on locks */
#define LOCK_SHARE 0.2

/*
 * Spill-over: device time between phases of at least a tenth of all the
 * case's device time, and at least 250 ms (2.5 throttle slices): below
 * that, gaps between phases are noise.
 */
#define SPILL_SHARE 0.1
#define SPILL_MIN_NS 250000000ULL

/*
 * Throttle not held: device IOPS or MB/s more than 15% over the model's
 * limit, beyond the one slice's quota the throttle may let through at the
 * start of a slice (MODEL_SLICE_S, src/analyze/model_excess.h).
 */
#define THROTTLE_NOT_HELD_FACTOR 1.15

/*
 * Cross-target: without repeats, targets differ when the slower phase
 * takes more than 20% longer (run-to-run noise of a single run on this
 * class of machine is about 5-15%); with repeats, when their 95%
 * confidence intervals do not overlap. Phases shorter than SHORT_PHASE_NS
 * on every target are not compared.
 */
#define COMPARE_MIN_DIFF 0.2

/*
 * A resource explains a difference between targets when its growth is at
 * least half of the wall-time difference: then removing it would close
 * most of the gap. Below that the finding says how little the measured
 * resources explain instead of naming one as the cause.
 */
#define COMPARE_EXPLAINED_SHARE 0.5

/*
 * --verify: the advice is confirmed when the confidence interval of the
 * speed-up lies above 1 and the speed-up is at least 10% (a knob is worth
 * a finding only if it moves the phase by more than the noise of a single
 * run); not confirmed when the whole interval lies below 1.1 (slower, or
 * a gain too small to matter).
 *
 * It runs rounds until one of those is decided, at most --verify=N
 * (default VERIFY_DEFAULT_ROUNDS, or --repeat when larger). No look before
 * VERIFY_MIN_ROUNDS a side: 2 runs give Welch's interval 1 degree of
 * freedom, and one odd run among 2 decides nothing. 10 rounds by default:
 * a knob worth a finding (the 2-7x of the rules' measurements) decides at
 * the third; one within a few % of 1.1 needs more than 10 at any useful
 * level and is honestly inconclusive. VERIFY_ALPHA is split over the
 * looks (verify_stats.c): the chance that a knob that does nothing is
 * confirmed stays under 2.5% (one side of 5%) however many rounds run.
 */
#define VERIFY_MIN_SPEEDUP 1.1
#define VERIFY_ALPHA 0.05
#define VERIFY_MIN_ROUNDS 3
#define VERIFY_DEFAULT_ROUNDS 10

/*
 * metadata-read-bound: the workload slept at least half of the phase
 * (BOUND_MAJORITY: the mechanism then bounds it) in read_io under an
 * unlink or lookup path (the heaviest stacks of the time budget; without
 * it, the meta_read class's busy share of the phase)...
 */
#define META_READ_WAIT_SHARE BOUND_MAJORITY
/*
 * ... and metadata reads were at least half of the device's busy time:
 * the waits were for metadata, not for file data read on the same path
 * (a lookup that goes on to read the file).
 */
#define META_READ_DEV_SHARE 0.5
/*
 * ... a warning when the phase read at least this many metadata blocks per
 * file it touched: a block of each file's own (an indirect block: ext3's
 * rm reads ~1.0 per file), a cost the filesystem's format sets and
 * another format removes. Fewer are blocks files share - an inode table
 * block holds 16 inodes, a bitmap maps 32768 blocks (ext4's cold rm of
 * 2000 files read 0.027 per file) - the price of any cold cache: info.
 */
#define META_READ_PER_FILE_WARN 0.5

#endif
