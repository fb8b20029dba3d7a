// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback domain: flusher work on the target's bdi (one wb_writeback()
 * call = one work item, by enum wb_reason, with the pages it wrote) and the
 * writers balance_dirty_pages() made sleep, with their pause.
 *
 * The flusher's events carry no usable device (sb_dev is 0 for bdi-wide
 * work), so they are filtered on the bdi's name, "MAJ:MIN" of the disk,
 * which userspace writes into targ_bdi for each case.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/writeback.h"
#include "phase.bpf.h"
#include "timeline.bpf.h"
#include "events.bpf.h"
#include "core_fixes.bpf.h"
#include "hist.bpf.h"


#define NSEC_PER_SEC 1000000000ULL

/* balance_dirty_pages' pause is in jiffies; 0 when the config is unknown */
extern int CONFIG_HZ __kconfig __weak;

/* the case's target's bdi name, NUL-terminated: "7:2"; "" between cases */
char targ_bdi[WB_BDI_NAME_LEN] = {};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct wb_phase_stats);
} wb_stats SEC(".maps");

/*
 * What a flusher thread is doing on the target's bdi: writeback_start and
 * writeback_written bracket one pass of wb_writeback()'s loop, and the work's
 * nr_pages drops by the pages that pass wrote.
 */
struct wb_flight {
	__u64 work; /* the wb_writeback_work being run */
	__s64 nr_started; /* work->nr_pages at writeback_start */
	__s64 nr_written; /* work->nr_pages at the last writeback_written */
	__u64 start_ns; /* of this pass */
	__u32 reason_slot;
	__u32 started; /* between start and written */
};

/* keyed by thread id; LRU so that exited kworkers age out */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct wb_flight);
} wb_flight SEC(".maps");

TIMELINE_MAP(writeback, struct wb_tl_bin);
EVENT_RING(writeback);

static __always_inline struct wb_phase_stats *wb_stats_now(void)
{
	__u32 key = current_phase();
	struct wb_phase_stats *st = bpf_map_lookup_elem(&wb_stats, &key);

	if (st)
		st->events++;
	return st;
}

/* compare the bdi's name with targ_bdi up to and including its NUL */
static __always_inline bool wb_is_target(struct bdi_writeback *wb)
{
	char name[WB_BDI_NAME_LEN] = {};
	struct backing_dev_info *bdi;
	int i;

	bdi = BPF_CORE_READ(wb, bdi);
	if (!bdi || bdi_name_read(bdi, name, sizeof(name)) <= 0)
		return false;
	for (i = 0; i < WB_BDI_NAME_LEN; i++) {
		if (name[i] != targ_bdi[i])
			return false;
		if (!name[i])
			return true;
	}
	return false;
}

static __always_inline __u32 reason_slot(struct wb_writeback_work *work)
{
	__u32 reason = (__u32)BPF_CORE_READ(work, reason);

	return reason < WB_REASON_SLOTS ? reason : WB_REASON_SLOTS - 1;
}

static __always_inline int on_work_start(struct bdi_writeback *wb,
					 struct wb_writeback_work *work)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct wb_flight next = {}, *fl;
	struct wb_phase_stats *st = wb_stats_now();

	if (!st || !work)
		return 0;
	if (!wb_is_target(wb)) {
		/* this thread left the target: its next pass there is new work */
		bpf_map_delete_elem(&wb_flight, &tid);
		return 0;
	}
	next.work = (__u64)work;
	next.nr_started = BPF_CORE_READ(work, nr_pages);
	next.nr_written = next.nr_started;
	next.reason_slot = reason_slot(work);
	next.started = 1;
	next.start_ns = bpf_ktime_get_ns();

	/*
	 * A pass continues the work of the previous one when the same thread
	 * runs the same work and nr_pages is where that pass left it.
	 */
	fl = bpf_map_lookup_elem(&wb_flight, &tid);
	if (!fl || fl->started || fl->work != next.work ||
	    fl->nr_written != next.nr_started)
		st->work[next.reason_slot & (WB_REASON_SLOTS - 1)]++;
	bpf_map_update_elem(&wb_flight, &tid, &next, BPF_ANY);
	return 0;
}

/* a flusher pass that wrote pages: its bin and its event */
static __always_inline void pass_record(const struct wb_flight *fl, __s64 wrote)
{
	__u32 phase = current_phase();
	__u64 now = bpf_ktime_get_ns();
	struct wb_tl_bin *bin = timeline_bin(&writeback_timeline, phase, now);
	struct fsprof_event *e;

	if (bin)
		__sync_fetch_and_add(&bin->pages, wrote);
	e = event_reserve(&writeback_rare_events, writeback_events_dropped, phase, FSPROF_EV_WB_WORK);
	if (!e)
		return;
	e->aux = fl->reason_slot;
	e->v[0] = wrote;
	e->v[1] = now > fl->start_ns ? now - fl->start_ns : 0;
	event_submit(&writeback_rare_events, e);
}

static __always_inline int on_work_written(struct wb_writeback_work *work)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct wb_phase_stats *st = wb_stats_now();
	struct wb_flight *fl;
	__s64 nr, wrote;

	if (!st || !work)
		return 0;
	fl = bpf_map_lookup_elem(&wb_flight, &tid);
	if (!fl || !fl->started || fl->work != (__u64)work)
		return 0;
	nr = BPF_CORE_READ(work, nr_pages);
	wrote = fl->nr_started - nr;
	if (wrote > 0) {
		st->pages[fl->reason_slot & (WB_REASON_SLOTS - 1)] += wrote;
		pass_record(fl, wrote);
	}
	fl->nr_written = nr;
	fl->started = 0;
	return 0;
}

/* pause > 0: the writer sleeps that many jiffies; <= 0: it goes on */
static __always_inline int on_throttle(struct bdi_writeback *wb, long pause)
{
	struct wb_phase_stats *st = wb_stats_now();
	struct wb_tl_bin *bin;
	__u64 ns = 0;

	if (!st || pause <= 0 || !wb_is_target(wb))
		return 0;
	st->throttle_count++;
	st->throttle_pause_jiffies += pause;
	if (CONFIG_HZ)
		ns = (__u64)pause * NSEC_PER_SEC / CONFIG_HZ;
	bin = timeline_bin(&writeback_timeline, current_phase(), bpf_ktime_get_ns());
	if (bin) {
		__sync_fetch_and_add(&bin->throttle_count, 1);
		__sync_fetch_and_add(&bin->throttle_pause,
				     CONFIG_HZ ? ns : (__u64)pause);
	}
	if (!CONFIG_HZ)
		return 0;
	st->throttle_pause_ns += ns;
	if (ns > st->throttle_max_ns)
		st->throttle_max_ns = ns;
	hist_count(st->throttle_slot, ns);
	return 0;
}

SEC("tp_btf/writeback_start")
int BPF_PROG(fsprof_wb_start, struct bdi_writeback *wb,
	     struct wb_writeback_work *work)
{
	return on_work_start(wb, work);
}

SEC("tp_btf/writeback_written")
int BPF_PROG(fsprof_wb_written, struct bdi_writeback *wb,
	     struct wb_writeback_work *work)
{
	return on_work_written(work);
}

SEC("tp_btf/balance_dirty_pages")
int BPF_PROG(fsprof_bdp, struct bdi_writeback *wb, void *dtc,
	     unsigned long dirty_ratelimit, unsigned long task_ratelimit,
	     unsigned long dirtied, unsigned long period, long pause,
	     unsigned long start_time)
{
	return on_throttle(wb, pause);
}

/*
 * Until the dirty_throttle_control argument (after 6.8), the limits came as
 * five numbers: thresh, bg_thresh, dirty, bdi_thresh, bdi_dirty.
 */
SEC("tp_btf/balance_dirty_pages")
int BPF_PROG(fsprof_bdp_old, struct bdi_writeback *wb, unsigned long thresh,
	     unsigned long bg_thresh, unsigned long dirty,
	     unsigned long bdi_thresh, unsigned long bdi_dirty,
	     unsigned long dirty_ratelimit, unsigned long task_ratelimit,
	     unsigned long dirtied, unsigned long period, long pause,
	     unsigned long start_time)
{
	return on_throttle(wb, pause);
}
