// SPDX-License-Identifier: GPL-2.0
/*
 * ext4 domain: what the target filesystem's allocator, delayed allocation,
 * writeback and fsync did, charged to the phase that was running when the
 * event fired. The default set fires per allocation, per flush, per fsync
 * or per page reserved, never several times per file; the deep set at the
 * end (ext4_mark_inode_dirty, extent-status lookups) does, and is loaded
 * only when asked for.
 *
 * Every event is filtered on the filesystem's s_dev, the target's dev_t.
 * Fields are loaded straight from the tracepoints' BTF pointers, not by a
 * bpf_probe_read_kernel call each (the allocation path fires three
 * programs per allocated extent: a direct 4 KiB write allocates a block
 * per IO). The allocator's programs take their one pointer through
 * ARG_POINTER, for the verifier's sake: by the helper only where ext4 is
 * a module.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/ext4.h"
#include "phase.bpf.h"
#include "phase_stats.bpf.h"
#include "core_fixes.bpf.h"
#include "hist.bpf.h"
#include "untrusted.bpf.h"

/* this domain's target (bpf/phase.bpf.h) */
__u32 ext4_targ_dev = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct ext4_stats);
} ext4_stats SEC(".maps");

struct fsync_call {
	__u64 start_ns;
	__u32 phase;
	__u32 datasync;
};

/* fsyncs in progress, keyed by pid_tgid */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct fsync_call);
} fsync_calls SEC(".maps");

/* fsyncs whose latency was lost because fsync_calls was full */
__u64 fsync_untracked = 0;

static __always_inline bool sb_is_target(struct super_block *sb)
{
	return sb && sb->s_dev == ext4_targ_dev;
}

static __always_inline bool inode_is_target(struct inode *inode)
{
	struct inode *i = UNTRUSTED(struct inode, inode);

	return i && sb_is_target(i->i_sb);
}

/* set by userspace: ext4's types are vmlinux's (ext4 built in) */
const volatile bool ext4_built_in = false;

/*
 * p->field, a pointer, from the allocator's tracepoints' arguments, ext4's
 * own structures of type. Loaded straight from them, trusted (6.2+), it
 * makes the verifier scan the kernel's BTF for their __safe_* names
 * (bpf/untrusted.bpf.h): ~1 ms of each of six programs' load, a sixth of
 * all the verifier's time. So where arguments are trusted, p is made
 * untrusted (UNTRUSTED: a register move) where ext4 is built in; a
 * module's types it cannot take, and there the field is read by
 * bpf_probe_read_kernel (one helper call a run, ~30 ns), a value to walk
 * as an untrusted pointer.
 */
#define ARG_POINTER(type, p, field)                                    \
	({                                                             \
		typeof((p)->field) __v;                                \
		if (rdonly_cast_ok && ext4_built_in)                   \
			__v = UNTRUSTED(type, p)->field;               \
		else if (rdonly_cast_ok)                               \
			bpf_core_read(&__v, sizeof(__v), &(p)->field); \
		else                                                   \
			__v = (p)->field;                              \
		__v;                                                   \
	})

static __always_inline bool
request_is_target(struct ext4_allocation_request *ar)
{
	return ar && inode_is_target(ARG_POINTER(struct ext4_allocation_request,
						 ar, inode));
}

static __always_inline bool
context_is_target(struct ext4_allocation_context *ac)
{
	return ac &&
	       sb_is_target(UNTRUSTED(
		       struct super_block,
		       ARG_POINTER(struct ext4_allocation_context, ac, ac_sb)));
}

/* ---- mballoc ---- */

SEC("tp_btf/ext4_request_blocks")
int BPF_PROG(fsprof_e4_req, struct ext4_allocation_request *ar)
{
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, request_is_target(ar));
	if (!st)
		return 0;
	st->alloc_requests++;
	st->alloc_requested_blocks += ar->len;
	return 0;
}

SEC("tp_btf/ext4_allocate_blocks")
int BPF_PROG(fsprof_e4_alloc, struct ext4_allocation_request *ar,
	     unsigned long long block)
{
	struct ext4_stats *st;
	__u32 len;

	st = target_phase_stats(&ext4_stats, request_is_target(ar));
	if (!st)
		return 0;
	len = ar->len;
	if (!block || !len) {
		st->alloc_failures++;
		return 0;
	}
	if (block == ar->goal)
		st->alloc_goal_hits++;
	else
		st->alloc_goal_misses++;
	hist_add(&st->alloc_extent_blocks, len);
	return 0;
}

SEC("tp_btf/ext4_mballoc_alloc")
int BPF_PROG(fsprof_e4_mball, struct ext4_allocation_context *ac)
{
	struct ext4_stats *st;
	__u32 cr;

	st = target_phase_stats(&ext4_stats, context_is_target(ac));
	if (!st)
		return 0;
	st->mballoc_regular++;
	cr = ext4_cr_decode(ac->ac_criteria);
	if (cr < EXT4_CR_NR)
		st->mballoc_cr[cr]++;
	st->mballoc_groups_scanned += ac->ac_groups_scanned;
	st->mballoc_extents_scanned += ac->ac_found;
	return 0;
}

SEC("tp_btf/ext4_mballoc_prealloc")
int BPF_PROG(fsprof_e4_mbpa, struct ext4_allocation_context *ac)
{
	return COUNT_TARGET_EVENT(&ext4_stats, struct ext4_stats,
				  context_is_target(ac), mballoc_prealloc);
}

/* a new preallocation window: per inode, or per locality group */
static __always_inline int count_new_pa(struct ext4_allocation_context *ac,
					struct ext4_prealloc_space *pa,
					bool group)
{
	struct ext4_stats *st;
	__u64 len;

	st = target_phase_stats(&ext4_stats, pa && context_is_target(ac));
	if (!st)
		return 0;
	len = pa->pa_len;
	if (group) {
		st->pa_new_group++;
		st->pa_new_group_blocks += len;
	} else {
		st->pa_new_inode++;
		st->pa_new_inode_blocks += len;
	}
	return 0;
}

SEC("tp_btf/ext4_mb_new_inode_pa")
int BPF_PROG(fsprof_e4_ipa, struct ext4_allocation_context *ac,
	     struct ext4_prealloc_space *pa)
{
	return count_new_pa(ac, pa, false);
}

SEC("tp_btf/ext4_mb_new_group_pa")
int BPF_PROG(fsprof_e4_gpa, struct ext4_allocation_context *ac,
	     struct ext4_prealloc_space *pa)
{
	return count_new_pa(ac, pa, true);
}

SEC("tp_btf/ext4_free_blocks")
int BPF_PROG(fsprof_e4_free, struct inode *inode, __u64 block,
	     unsigned long count, int flags)
{
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, inode_is_target(inode));
	if (!st)
		return 0;
	st->free_extents++;
	st->freed_blocks += count;
	return 0;
}

/* ---- delayed allocation and writeback ---- */

static __always_inline int da_reserve(struct inode *inode, __u64 blocks)
{
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, inode_is_target(inode));
	if (!st)
		return 0;
	st->da_reserves++;
	st->da_reserved_blocks += blocks;
	return 0;
}

/* 6.10+: the number of blocks reserved is an argument */
SEC("tp_btf/ext4_da_reserve_space")
int BPF_PROG(fsprof_e4_resv, struct inode *inode, int nr_resv)
{
	return da_reserve(inode, nr_resv > 0 ? nr_resv : 0);
}

/* before 6.10: one block per call */
SEC("tp_btf/ext4_da_reserve_space")
int BPF_PROG(fsprof_e4_resv1, struct inode *inode)
{
	return da_reserve(inode, 1);
}

static __always_inline int da_flush(struct inode *inode)
{
	return COUNT_TARGET_EVENT(&ext4_stats, struct ext4_stats,
				  inode_is_target(inode), da_flushes);
}

/* 6.17+: one map-and-submit round of a delalloc flush */
SEC("tp_btf/ext4_da_write_folios_start")
int BPF_PROG(fsprof_e4_flush, struct inode *inode, loff_t start_pos,
	     loff_t next_pos, struct writeback_control *wbc)
{
	return da_flush(inode);
}

/* the same round before 6.17 (its second argument changed meaning) */
SEC("tp_btf/ext4_da_write_pages")
int BPF_PROG(fsprof_e4_flsh3, struct inode *inode, __u64 first,
	     struct writeback_control *wbc)
{
	return da_flush(inode);
}

SEC("tp_btf/ext4_da_write_pages_extent")
int BPF_PROG(fsprof_e4_daext, struct inode *inode, struct ext4_map_blocks *map)
{
	struct ext4_stats *st;
	__u32 len;

	st = target_phase_stats(&ext4_stats, map && inode_is_target(inode));
	if (!st)
		return 0;
	len = map->m_len;
	st->da_flush_extents++;
	st->da_flush_blocks += len;
	hist_add(&st->da_flush_extent_blocks, len);
	return 0;
}

SEC("tp_btf/ext4_alloc_da_blocks")
int BPF_PROG(fsprof_e4_dafrc, struct inode *inode)
{
	return COUNT_TARGET_EVENT(&ext4_stats, struct ext4_stats,
				  inode_is_target(inode), da_forced);
}

SEC("tp_btf/ext4_writepages")
int BPF_PROG(fsprof_e4_wp, struct inode *inode, struct writeback_control *wbc)
{
	return COUNT_TARGET_EVENT(&ext4_stats, struct ext4_stats,
				  inode_is_target(inode), writepages);
}

SEC("tp_btf/ext4_writepages_result")
int BPF_PROG(fsprof_e4_wpres, struct inode *inode,
	     struct writeback_control *wbc, int ret, int pages_written)
{
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, inode_is_target(inode));
	if (!st)
		return 0;
	if (pages_written > 0)
		st->writepages_pages += pages_written;
	if (ret < 0)
		st->writepages_errors++;
	return 0;
}

/* ---- fsync and sync ---- */

SEC("tp_btf/ext4_sync_file_enter")
int BPF_PROG(fsprof_e4_fsin, struct file *file, int datasync)
{
	struct fsync_call call = {};
	__u64 id = bpf_get_current_pid_tgid();

	if (!file || !inode_is_target(UNTRUSTED(struct file, file)->f_inode))
		return 0;
	call.start_ns = bpf_ktime_get_ns();
	call.phase = current_phase();
	call.datasync = datasync != 0;
	if (bpf_map_update_elem(&fsync_calls, &id, &call, BPF_ANY))
		__sync_fetch_and_add(&fsync_untracked, 1);
	return 0;
}

/* charged to the phase the fsync began in, like a block request */
SEC("tp_btf/ext4_sync_file_exit")
int BPF_PROG(fsprof_e4_fsout, struct inode *inode, int ret)
{
	__u64 id = bpf_get_current_pid_tgid(), delta;
	struct fsync_call *call;
	struct ext4_stats *st;
	__u32 datasync;

	call = bpf_map_lookup_elem(&fsync_calls, &id);
	if (!call)
		return 0;
	delta = bpf_ktime_get_ns() - call->start_ns;
	datasync = call->datasync;
	st = phase_stats(&ext4_stats, call->phase);
	bpf_map_delete_elem(&fsync_calls, &id);
	if (!st)
		return 0;
	st->fsyncs++;
	st->fdatasyncs += datasync;
	if (ret)
		st->fsync_errors++;
	hist_add(&st->fsync_ns, delta);
	return 0;
}

SEC("tp_btf/ext4_sync_fs")
int BPF_PROG(fsprof_e4_syncf, struct super_block *sb, int wait)
{
	return COUNT_TARGET_EVENT(&ext4_stats, struct ext4_stats,
				  sb_is_target(sb), sync_fs);
}

/*
 * Fast commits (mkfs -O fast_commit). The status values are an anonymous
 * enum (EXT4_FC_STATUS_*): userspace reads them from BTF. OK is an fsync
 * served without a full jbd2 commit; INELIGIBLE and FAILED fell back to
 * one; SKIPPED was served by a commit already running.
 */
const volatile int fc_status_ok = 0;
const volatile int fc_status_ineligible = 1;
const volatile int fc_status_failed = 3;

/*
 * The superblock's ineligibility counts when last read, and which
 * superblock they are of (a new mount's counts start again from zero):
 * one baseline for the marks (read after every commit by ext4_fc_stats,
 * or by ext4_fc_commit_stop without it), one for the fallbacks' reasons
 * (ext4_fc_commit_stop: the marks since the previous fast commit).
 * struct fc_baseline is in include/fsprof/ext4.h: the skeleton shows it.
 */
struct fc_baseline fc_marks_base = {};
struct fc_baseline fc_fallback_base = {};

/* set by userspace when ext4_fc_stats is traced: it counts the marks */
const volatile bool fc_stats_traced = false;

/*
 * The rise of the superblock's s_fc_stats.fc_ineligible_reason_count[]
 * since base was read, added to marks (when not NULL); the reason that
 * rose most (the first of equals) counted once in fallbacks (when not NULL
 * and one rose). The counts are the filesystem's since its mount: the
 * first read on a mount takes those before the trace too.
 *
 * The reason is found in a second pass, at constant indexes: an index
 * carried out of the first loop into the array had the verifier walk
 * every way the rises could order (15,300 instructions for this one
 * program, a fifth of every domain's together).
 */
static __always_inline void fc_reasons_rise(struct super_block *sb,
					    struct fc_baseline *base,
					    unsigned long long *marks,
					    unsigned long long *fallbacks)
{
	__u32 now[EXT4_FC_REASONS_MAX] = {};
	__u32 rise[EXT4_FC_REASONS_MAX];
	struct ext4_sb_info *sbi;
	__u32 size, most = 0;
	int i;

	sbi = BPF_CORE_READ(sb, s_fs_info);
	if (!sbi ||
	    !bpf_core_field_exists(sbi->s_fc_stats.fc_ineligible_reason_count))
		return;
	size = bpf_core_field_size(sbi->s_fc_stats.fc_ineligible_reason_count);
	if (size > sizeof(now))
		size = sizeof(now);
	if (bpf_core_read(now, size,
			  &sbi->s_fc_stats.fc_ineligible_reason_count))
		return;
	if (__sync_lock_test_and_set(&base->sb, (__u64)sb) != (__u64)sb)
		for (i = 0; i < EXT4_FC_REASONS_MAX; i++)
			base->seen[i] = 0;
	for (i = 0; i < EXT4_FC_REASONS_MAX; i++) {
		/* an exchange: each rise counted once, whichever CPU reads */
		__u64 before =
			__sync_lock_test_and_set(&base->seen[i], (__u64)now[i]);

		rise[i] = now[i] > before ? now[i] - before : 0;
		if (marks)
			marks[i] += rise[i];
		if (rise[i] > most)
			most = rise[i];
	}
	if (!fallbacks || !most)
		return;
	for (i = 0; i < EXT4_FC_REASONS_MAX; i++)
		if (rise[i] == most) {
			fallbacks[i]++;
			return;
		}
}

/* after every commit of a fast-commit filesystem, fast or full */
SEC("tp_btf/ext4_fc_stats")
int BPF_PROG(fsprof_e4_fcsts, struct super_block *sb)
{
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, sb_is_target(sb));
	if (st)
		fc_reasons_rise(sb, &fc_marks_base, st->fc_reason_marks, NULL);
	return 0;
}

SEC("tp_btf/ext4_fc_commit_stop")
int BPF_PROG(fsprof_e4_fcstp, struct super_block *sb, int nblks, int status)
{
	unsigned long long *marks;
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, sb_is_target(sb));
	if (!st)
		return 0;
	marks = fc_stats_traced ? NULL : st->fc_reason_marks;
	/*
	 * an ineligible fallback: the reason marked most since the last. Two
	 * calls, not one given NULL or not by the status: the compiler tests
	 * the status again for the NULL, and the verifier sees a NULL pass.
	 */
	if (status == fc_status_ineligible)
		fc_reasons_rise(sb, &fc_fallback_base, marks,
				st->fc_reason_fallbacks);
	else
		fc_reasons_rise(sb, &fc_fallback_base, marks, NULL);
	if (status == fc_status_ok) {
		st->fc_commits++;
		if (nblks > 0)
			st->fc_commit_blocks += nblks;
	} else if (status == fc_status_ineligible) {
		st->fc_fallbacks++;
		st->fc_ineligible++;
	} else if (status == fc_status_failed) {
		st->fc_fallbacks++;
		st->fc_failed++;
	} else {
		st->fc_skipped++;
	}
	return 0;
}

/* ---- deep set: several hits per file ---- */

SEC("tp_btf/ext4_mark_inode_dirty")
int BPF_PROG(fsprof_e4_dirty, struct inode *inode, unsigned long ip)
{
	return COUNT_TARGET_EVENT(&ext4_stats, struct ext4_stats,
				  inode_is_target(inode), mark_inode_dirty);
}

SEC("tp_btf/ext4_es_lookup_extent_exit")
int BPF_PROG(fsprof_e4_eslk, struct inode *inode, struct extent_status *es,
	     int found)
{
	struct ext4_stats *st;

	st = target_phase_stats(&ext4_stats, inode_is_target(inode));
	if (!st)
		return 0;
	st->es_lookups++;
	if (found)
		st->es_lookup_hits++;
	return 0;
}
