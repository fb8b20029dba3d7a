// SPDX-License-Identifier: GPL-2.0
/*
 * jbd2 domain: the target's journal commits, charged to the phase during
 * which each commit completed. Per commit: its wall time (start_commit ->
 * end_commit), the times jbd2_run_stats reports (jiffies, converted to ns
 * with the kernel's CONFIG_HZ), handles, blocks and blocks logged. Also
 * checkpoints and buffer-lock stalls. All of these fire per commit or
 * rarer, never per file, except the deep set at the end (per handle, off
 * unless asked for).
 *
 * The dev every jbd2 event carries is journal->j_fs_dev: the filesystem's
 * device, also when the journal is external. jbd2_targ_dev is that device.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/jbd2.h"
#include "phase.bpf.h"
#include "phase_stats.bpf.h"
#include "timeline.bpf.h"
#include "events.bpf.h"
#include "core_fixes.bpf.h"
#include "hist.bpf.h"

/* this domain's target (bpf/phase.bpf.h) */
__u32 jbd2_targ_dev = 0;


/* 0 when libbpf found no kernel config: the jiffies times are then skipped */
extern int CONFIG_HZ __kconfig __weak;

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct jbd2_stats);
} jbd2_stats SEC(".maps");

/* commits in progress: tid -> ktime of jbd2_start_commit */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} commit_start SEC(".maps");

TIMELINE_MAP(jbd2, struct jbd2_tl_bin);
EVENT_RING(jbd2);

/* run_stats times not recorded because the kernel's CONFIG_HZ is unknown */
__u64 hz_unknown = 0;

/*
 * Every commit of the target's journal seen since attach, in any phase: the
 * count the kernel's own transaction count must reach before user space
 * reads it at a phase boundary (see jbd2_settle in src/trace/jbd2.c).
 */
__u64 commits_seen = 0;

static __always_inline __u32 journal_dev(journal_t *journal)
{
	return BPF_CORE_READ(journal, j_fs_dev, bd_dev);
}

SEC("tp_btf/jbd2_start_commit")
int BPF_PROG(fsprof_j2_start, journal_t *journal, transaction_t *trans)
{
	struct jbd2_stats *st;
	__u64 now = bpf_ktime_get_ns();
	__u32 tid;

	if (!journal || !trans || journal_dev(journal) != jbd2_targ_dev)
		return 0;
	tid = BPF_CORE_READ(trans, t_tid);
	bpf_map_update_elem(&commit_start, &tid, &now, BPF_ANY);
	st = phase_stats(&jbd2_stats, current_phase());
	if (!st)
		return 0;
	st->commits_started++;
	if (BPF_CORE_READ_BITFIELD_PROBED(trans, t_synchronous_commit))
		st->commits_sync++;
	/* a commit someone asked for has its request time (request_delay) */
	if (!BPF_CORE_READ(trans, t_requested))
		st->commits_timer++;
	return 0;
}

SEC("tp_btf/jbd2_end_commit")
int BPF_PROG(fsprof_j2_end, journal_t *journal, transaction_t *trans)
{
	struct jbd2_stats *st;
	__u64 *start, delta;
	__u32 tid;

	if (!journal || !trans || journal_dev(journal) != jbd2_targ_dev)
		return 0;
	tid = BPF_CORE_READ(trans, t_tid);
	start = bpf_map_lookup_elem(&commit_start, &tid);
	if (!start)
		return 0; /* started before fsprof attached */
	delta = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&commit_start, &tid);
	st = phase_stats(&jbd2_stats, current_phase());
	if (st)
		hist_add(&st->commit_ns, delta);
	return 0;
}

static __always_inline void run_time_add(struct jbd2_stats *st,
					 enum jbd2_run_time t,
					 unsigned long jiffies, __u64 hz)
{
	if (t < JBD2_T_NR)
		hist_add(&st->run_ns[t], (__u64)jiffies * NSEC_PER_SEC / hz);
}

/* one commit: its bin of the timeline and its event in the ring */
static __always_inline void commit_record(__u32 phase, __u32 tid, __u64 handles,
					  __u64 blocks, __u64 logged)
{
	__u64 now = bpf_ktime_get_ns(), *start;
	struct jbd2_tl_bin *bin = timeline_bin(&jbd2_timeline, phase, now);
	struct fsprof_event *e;

	if (bin) {
		__sync_fetch_and_add(&bin->commits, 1);
		__sync_fetch_and_add(&bin->blocks_logged, logged);
	}
	e = event_reserve(&jbd2_rare_events, jbd2_events_dropped, phase, FSPROF_EV_JBD2_COMMIT);
	if (!e)
		return;
	/* run_stats fires before end_commit: the start is still there */
	start = bpf_map_lookup_elem(&commit_start, &tid);
	e->v[0] = tid;
	e->v[1] = start && now > *start ? now - *start : 0;
	e->v[2] = handles;
	e->v[3] = blocks;
	e->v[4] = logged;
	event_submit(&jbd2_rare_events, e);
}

SEC("tp_btf/jbd2_run_stats")
int BPF_PROG(fsprof_j2_stats, dev_t dev, unsigned long tid,
	     struct transaction_run_stats_s *rs)
{
	struct jbd2_stats *st;
	__u64 hz = CONFIG_HZ > 0 ? (__u64)CONFIG_HZ : 0;
	__u64 handles, blocks, logged;

	if (dev == jbd2_targ_dev)
		__sync_fetch_and_add(&commits_seen, 1);
	st = target_phase_stats(&jbd2_stats, dev == jbd2_targ_dev && rs);
	if (!st)
		return 0;
	handles = BPF_CORE_READ(rs, rs_handle_count);
	blocks = BPF_CORE_READ(rs, rs_blocks);
	logged = BPF_CORE_READ(rs, rs_blocks_logged);
	st->commits++;
	st->handles += handles;
	st->blocks += blocks;
	st->blocks_logged += logged;
	commit_record(current_phase(), (__u32)tid, handles, blocks, logged);
	if (!hz) {
		__sync_fetch_and_add(&hz_unknown, 1);
		return 0;
	}
	run_time_add(st, JBD2_T_REQUEST_DELAY,
		     BPF_CORE_READ(rs, rs_request_delay), hz);
	run_time_add(st, JBD2_T_RUNNING, BPF_CORE_READ(rs, rs_running), hz);
	run_time_add(st, JBD2_T_LOCKED, BPF_CORE_READ(rs, rs_locked), hz);
	run_time_add(st, JBD2_T_FLUSHING, BPF_CORE_READ(rs, rs_flushing), hz);
	run_time_add(st, JBD2_T_LOGGING, BPF_CORE_READ(rs, rs_logging), hz);
	return 0;
}

SEC("tp_btf/jbd2_checkpoint_stats")
int BPF_PROG(fsprof_j2_chkpt, dev_t dev, unsigned long tid,
	     struct transaction_chp_stats_s *cs)
{
	struct jbd2_stats *st;

	st = target_phase_stats(&jbd2_stats, dev == jbd2_targ_dev && cs);
	if (!st)
		return 0;
	st->checkpoints++;
	st->checkpoint_written += BPF_CORE_READ(cs, cs_written);
	st->checkpoint_dropped += BPF_CORE_READ(cs, cs_dropped);
	return 0;
}

SEC("tp_btf/jbd2_lock_buffer_stall")
int BPF_PROG(fsprof_j2_stall, dev_t dev, unsigned long stall_ms)
{
	struct jbd2_stats *st;

	st = target_phase_stats(&jbd2_stats, dev == jbd2_targ_dev);
	if (!st)
		return 0;
	st->lock_buffer_stalls++;
	st->lock_buffer_stall_ns += (__u64)stall_ms * NSEC_PER_MSEC;
	return 0;
}

/* ---- deep set: every handle, several per file ---- */

SEC("tp_btf/jbd2_handle_start")
int BPF_PROG(fsprof_j2_hbeg, dev_t dev, tid_t tid, unsigned int type,
	     unsigned int line_no, int requested_blocks)
{
	return COUNT_TARGET_EVENT(&jbd2_stats, struct jbd2_stats,
				  dev == jbd2_targ_dev, handles_started);
}

SEC("tp_btf/jbd2_handle_stats")
int BPF_PROG(fsprof_j2_hstat, dev_t dev, tid_t tid, unsigned int type,
	     unsigned int line_no, int interval, int sync, int requested_blocks,
	     int dirtied_blocks)
{
	struct jbd2_stats *st;

	st = target_phase_stats(&jbd2_stats, dev == jbd2_targ_dev);
	if (!st)
		return 0;
	st->handles_stopped++;
	if (requested_blocks > 0)
		st->handle_credits += requested_blocks;
	if (dirtied_blocks > 0)
		st->handle_dirtied_blocks += dirtied_blocks;
	return 0;
}
