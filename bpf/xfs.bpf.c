// SPDX-License-Identifier: GPL-2.0
/*
 * XFS domain: log forces (by caller), log writes (iclogs: count, payload,
 * sync -> done latency), log-space sleeps, AIL push results, CIL throttling,
 * allocations and delalloc conversion, each charged to the running phase.
 *
 * tp_btf programs: they detach without the RCU grace period a perf
 * tracepoint waits out per event (~75 ms each here, 1.5 s for this domain).
 * The device filter reads the superblock's dev the way the kernel's own
 * record does (first argument -> xfs_mount -> m_super -> s_dev).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/xfs.h"
#include "phase.bpf.h"
#include "timeline.bpf.h"
#include "events.bpf.h"
#include "core_fixes.bpf.h"
#include "xfs_dev.bpf.h"
#include "hist.bpf.h"

/* this domain's target (bpf/phase.bpf.h) */
__u32 xfs_targ_dev = 0;


/* the first argument of xfs_ail_* and of xfs_extent_busy_force */
const volatile __u32 ail_arg = XFS_ARG_UNKNOWN;
const volatile __u32 busy_arg = XFS_ARG_UNKNOWN;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct xfs_counts);
} xfs_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XFS_HIST_ENTRIES);
	__type(key, __u32);
	__type(value, struct hist_counts);
} xfs_hists SEC(".maps");

/* log force events per (phase, caller_ip) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, XFS_FORCE_CALLERS_MAX);
	__type(key, struct xfs_force_key);
	__type(value, __u64);
} xfs_force_callers SEC(".maps");

TIMELINE_MAP(xfs, struct xfs_tl_bin);
EVENT_RING(xfs);

struct started {
	__u64 ns;
	__u32 phase;
	__u32 pad;
};

/* iclogs between xlog_iclog_sync and _sync_done, keyed by iclog address */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);
	__type(value, struct started);
} iclog_syncing SEC(".maps");

/* tasks asleep in xlog_grant_head_wait, keyed by pid_tgid */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct started);
} grant_sleeping SEC(".maps");

static __always_inline void count(__u32 phase, enum xfs_counter c)
{
	struct xfs_counts *st = bpf_map_lookup_elem(&xfs_counts, &phase);

	if (st && c < XFS_CTR_NR)
		st->ctr[c]++;
}

static __always_inline void record(__u32 phase, enum xfs_histogram h, __u64 v)
{
	__u32 idx = xfs_hist_index(phase, h);
	struct hist_counts *hist = bpf_map_lookup_elem(&xfs_hists, &idx);

	if (hist)
		hist_add(hist, v);
}

/* count event c for the target's dev: the work of the running phase */
static __always_inline int count_if_target(__u32 dev, enum xfs_counter c)
{
	if (dev == xfs_targ_dev)
		count(current_phase(), c);
	return 0;
}

/* dev of a first argument whose type depends on the kernel (kind) */
static __always_inline __u32 arg_dev(__u32 kind, void *arg)
{
	switch (kind) {
	case XFS_ARG_MOUNT:
		return xfs_mount_dev(arg);
	case XFS_ARG_AIL:
		return arg ? xlog_dev(BPF_CORE_READ((struct xfs_ail *)arg,
						    ail_log)) :
			     0;
	case XFS_ARG_LOG_ITEM:
		return xfs_mount_dev(xfs_log_item_mount(arg));
	case XFS_ARG_PERAG:
		return xfs_mount_dev(xfs_perag_mount(arg));
	case XFS_ARG_GROUP:
		return arg ? xfs_mount_dev(BPF_CORE_READ(
				     (struct xfs_group *)arg, xg_mount)) :
			     0;
	case XFS_ARG_DEV:
		return (__u32)(unsigned long)arg;
	}
	return 0;
}

static __always_inline __u32 iclog_dev(struct xlog_in_core *iclog)
{
	return iclog ? xlog_dev(BPF_CORE_READ(iclog, ic_log)) : 0;
}

/* a log force event: its bin and its event (userspace names the caller) */
static __always_inline void force_record(__u32 phase, __s64 lsn, __u64 ip)
{
	struct xfs_tl_bin *bin =
		timeline_bin(&xfs_timeline, phase, bpf_ktime_get_ns());
	struct fsprof_event *e;

	if (bin)
		__sync_fetch_and_add(&bin->log_force_events, 1);
	e = event_reserve(&xfs_rare_events, xfs_events_dropped, phase, FSPROF_EV_XFS_LOG_FORCE);
	if (!e)
		return;
	e->v[0] = lsn;
	e->v[1] = ip;
	event_submit(&xfs_rare_events, e);
}

SEC("tp_btf/xfs_log_force")
int BPF_PROG(fsprof_xfs_force, struct xfs_mount *mp, xfs_lsn_t lsn,
	     unsigned long caller_ip)
{
	struct xfs_force_key key = {};
	__u64 one = 1, *n;

	if (xfs_mount_dev(mp) != xfs_targ_dev)
		return 0;
	key.phase = current_phase();
	key.caller_ip = caller_ip;
	count(key.phase, XFS_CTR_LOG_FORCE_EVENTS);
	force_record(key.phase, lsn, caller_ip);
	n = bpf_map_lookup_elem(&xfs_force_callers, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&xfs_force_callers, &key, &one,
				     BPF_NOEXIST))
		count(key.phase, XFS_CTR_LOG_FORCE_UNTRACKED);
	return 0;
}

/* one event = one log write; ic_offset = payload bytes in the iclog */
SEC("tp_btf/xlog_iclog_write")
int BPF_PROG(fsprof_iclog_wr, struct xlog_in_core *iclog)
{
	struct xfs_tl_bin *bin;
	__u32 phase;

	if (iclog_dev(iclog) != xfs_targ_dev)
		return 0;
	phase = current_phase();
	count(phase, XFS_CTR_LOG_WRITES);
	bin = timeline_bin(&xfs_timeline, phase, bpf_ktime_get_ns());
	if (bin)
		__sync_fetch_and_add(&bin->log_writes, 1);
	if (xlog_iclog_flags(iclog) & FSPROF_XLOG_ICL_NEED_FUA)
		count(phase, XFS_CTR_LOG_WRITES_FUA);
	record(phase, XFS_HIST_LOG_WRITE_BYTES,
	       BPF_CORE_READ(iclog, ic_offset));
	return 0;
}

SEC("tp_btf/xlog_iclog_sync")
int BPF_PROG(fsprof_iclog_syn, struct xlog_in_core *iclog)
{
	__u64 key = (__u64)iclog;
	struct started s = {};

	if (iclog_dev(iclog) != xfs_targ_dev)
		return 0;
	s.ns = bpf_ktime_get_ns();
	s.phase = current_phase();
	bpf_map_update_elem(&iclog_syncing, &key, &s, BPF_ANY);
	return 0;
}

SEC("tp_btf/xlog_iclog_sync_done")
int BPF_PROG(fsprof_iclog_don, struct xlog_in_core *iclog)
{
	__u64 key = (__u64)iclog;
	struct started *s;

	s = bpf_map_lookup_elem(&iclog_syncing, &key);
	if (!s)
		return 0;
	record(s->phase, XFS_HIST_LOG_WRITE_NS, bpf_ktime_get_ns() - s->ns);
	bpf_map_delete_elem(&iclog_syncing, &key);
	return 0;
}

/* sleep and wake both fire in xlog_grant_head_wait, in the sleeping task */
SEC("tp_btf/xfs_log_grant_sleep")
int BPF_PROG(fsprof_grant_slp, struct xlog *log)
{
	__u64 task = bpf_get_current_pid_tgid();
	struct started s = {};

	if (xlog_dev(log) != xfs_targ_dev)
		return 0;
	s.ns = bpf_ktime_get_ns();
	s.phase = current_phase();
	count(s.phase, XFS_CTR_LOG_GRANT_SLEEPS);
	bpf_map_update_elem(&grant_sleeping, &task, &s, BPF_ANY);
	return 0;
}

SEC("tp_btf/xfs_log_grant_wake")
int BPF_PROG(fsprof_grant_wak, struct xlog *log)
{
	__u64 task = bpf_get_current_pid_tgid();
	struct started *s;

	s = bpf_map_lookup_elem(&grant_sleeping, &task);
	if (!s)
		return 0;
	record(s->phase, XFS_HIST_GRANT_SLEEP_NS, bpf_ktime_get_ns() - s->ns);
	bpf_map_delete_elem(&grant_sleeping, &task);
	return 0;
}

SEC("tp_btf/xfs_log_cil_wait")
int BPF_PROG(fsprof_cil_wait, struct xlog *log)
{
	return count_if_target(xlog_dev(log), XFS_CTR_CIL_WAITS);
}

SEC("tp_btf/xfs_ail_push")
int BPF_PROG(fsprof_ail_push, void *first)
{
	return count_if_target(arg_dev(ail_arg, first), XFS_CTR_AIL_PUSH);
}

SEC("tp_btf/xfs_ail_pinned")
int BPF_PROG(fsprof_ail_pin, void *first)
{
	return count_if_target(arg_dev(ail_arg, first), XFS_CTR_AIL_PINNED);
}

SEC("tp_btf/xfs_ail_locked")
int BPF_PROG(fsprof_ail_lock, void *first)
{
	return count_if_target(arg_dev(ail_arg, first), XFS_CTR_AIL_LOCKED);
}

SEC("tp_btf/xfs_ail_flushing")
int BPF_PROG(fsprof_ail_flush, void *first)
{
	return count_if_target(arg_dev(ail_arg, first), XFS_CTR_AIL_FLUSHING);
}

static __always_inline __u32 alloc_arg_dev(struct xfs_alloc_arg *args)
{
	return args ? xfs_mount_dev(BPF_CORE_READ(args, mp)) : 0;
}

SEC("tp_btf/xfs_alloc_vextent_start_ag")
int BPF_PROG(fsprof_al_start, struct xfs_alloc_arg *args)
{
	return count_if_target(alloc_arg_dev(args), XFS_CTR_ALLOC_START_AG);
}

SEC("tp_btf/xfs_alloc_vextent_this_ag")
int BPF_PROG(fsprof_al_this, struct xfs_alloc_arg *args)
{
	return count_if_target(alloc_arg_dev(args), XFS_CTR_ALLOC_THIS_AG);
}

SEC("tp_btf/xfs_alloc_vextent_first_ag")
int BPF_PROG(fsprof_al_first, struct xfs_alloc_arg *args)
{
	return count_if_target(alloc_arg_dev(args), XFS_CTR_ALLOC_FIRST_AG);
}

SEC("tp_btf/xfs_alloc_vextent_near_bno")
int BPF_PROG(fsprof_al_near, struct xfs_alloc_arg *args)
{
	return count_if_target(alloc_arg_dev(args), XFS_CTR_ALLOC_NEAR_BNO);
}

SEC("tp_btf/xfs_alloc_vextent_exact_bno")
int BPF_PROG(fsprof_al_exact, struct xfs_alloc_arg *args)
{
	return count_if_target(alloc_arg_dev(args), XFS_CTR_ALLOC_EXACT_BNO);
}

/* the extent the allocator handed out: len in filesystem blocks */
SEC("tp_btf/xfs_alloc_vextent_finish")
int BPF_PROG(fsprof_al_done, struct xfs_alloc_arg *args)
{
	if (alloc_arg_dev(args) == xfs_targ_dev)
		record(current_phase(), XFS_HIST_ALLOC_BLOCKS,
		       BPF_CORE_READ(args, len));
	return 0;
}

SEC("tp_btf/xfs_extent_busy_force")
int BPF_PROG(fsprof_busy_frc, void *first)
{
	return count_if_target(arg_dev(busy_arg, first), XFS_CTR_BUSY_FORCES);
}

static __always_inline __u32 inode_dev(struct xfs_inode *ip)
{
	return ip ? xfs_mount_dev(BPF_CORE_READ(ip, i_mount)) : 0;
}

SEC("tp_btf/xfs_map_blocks_alloc")
int BPF_PROG(fsprof_map_alloc, struct xfs_inode *ip)
{
	return count_if_target(inode_dev(ip), XFS_CTR_DELALLOC_CONVERTS);
}

SEC("tp_btf/xfs_iomap_alloc")
int BPF_PROG(fsprof_iomap_al, struct xfs_inode *ip)
{
	return count_if_target(inode_dev(ip), XFS_CTR_IOMAP_ALLOCS);
}
