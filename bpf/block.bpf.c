// SPDX-License-Identifier: GPL-2.0
/*
 * Block domain: every request the target device issues is counted in the
 * phase that was running when it was issued, by op class, with its
 * issue -> complete latency in a log2 histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/block.h"
#include "phase.bpf.h"
#include "core_fixes.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BLK_STATS_ENTRIES);
	__type(key, __u32);
	__type(value, struct blk_stats);
} blk_stats SEC(".maps");

struct inflight {
	__u64 issue_ns;
	__u32 phase;
	__u32 opclass;
};

/* requests in flight, keyed by struct request address */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct inflight);
} inflight SEC(".maps");

/* issues whose latency could not be tracked because inflight was full */
__u64 inflight_full = 0;

static __always_inline __u32 rq_opclass(struct request *rq)
{
	__u32 op = BPF_CORE_READ(rq, cmd_flags) & req_op_mask();

	if (op == REQ_OP_VALUE(REQ_OP_READ))
		return BLK_OPC_READ;
	if (op == REQ_OP_VALUE(REQ_OP_WRITE))
		return BPF_CORE_READ(rq, __data_len) ? BLK_OPC_WRITE :
						       BLK_OPC_FLUSH;
	if (op == REQ_OP_VALUE(REQ_OP_FLUSH))
		return BLK_OPC_FLUSH;
	if (op == REQ_OP_VALUE(REQ_OP_DISCARD) ||
	    op == REQ_OP_VALUE(REQ_OP_SECURE_ERASE) ||
	    op == REQ_OP_VALUE(REQ_OP_WRITE_ZEROES))
		return BLK_OPC_DISCARD;
	return BLK_OPC_OTHER;
}

static __always_inline int on_issue(struct request *rq)
{
	struct inflight fl = {};
	struct blk_stats *st;
	__u32 idx;
	__u64 key = (__u64)rq;

	if (!rq || rq_dev(rq) != targ_dev)
		return 0;

	fl.phase = current_phase();
	fl.opclass = rq_opclass(rq);
	fl.issue_ns = bpf_ktime_get_ns();

	idx = blk_stats_index(fl.phase, fl.opclass);
	st = bpf_map_lookup_elem(&blk_stats, &idx);
	if (!st)
		return 0;
	st->ios++;
	st->bytes += BPF_CORE_READ(rq, __data_len);

	if (bpf_map_update_elem(&inflight, &key, &fl, BPF_ANY))
		__sync_fetch_and_add(&inflight_full, 1);
	return 0;
}

static __always_inline int on_complete(struct request *rq)
{
	struct inflight *fl;
	struct blk_stats *st;
	__u64 key = (__u64)rq, delta;
	__u32 idx, slot;

	fl = bpf_map_lookup_elem(&inflight, &key);
	if (!fl)
		return 0;
	delta = bpf_ktime_get_ns() - fl->issue_ns;
	idx = blk_stats_index(fl->phase, fl->opclass);
	bpf_map_delete_elem(&inflight, &key);

	st = bpf_map_lookup_elem(&blk_stats, &idx);
	if (!st)
		return 0;
	st->lat_count++;
	st->lat_sum_ns += delta;
	if (delta > st->lat_max_ns)
		st->lat_max_ns = delta;
	slot = hist_slot(delta);
	if (slot < HIST_NSLOTS)
		st->lat_slot[slot]++;
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(fsprof_rq_issue, struct request *rq)
{
	return on_issue(rq);
}

/* before 5.11 (and 5.10.137) the request queue was the first argument */
SEC("tp_btf/block_rq_issue")
int BPF_PROG(fsprof_rq_issue_q, void *q, struct request *rq)
{
	return on_issue(rq);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(fsprof_rq_done, struct request *rq)
{
	return on_complete(rq);
}
