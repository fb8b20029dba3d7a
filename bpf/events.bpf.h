/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's ring of rare events (include/fsprof/event.h): event_reserve()
 * a record, fill v[], event_submit() it. A full ring drops the event
 * and counts it in events_dropped[phase], which userspace reports as the
 * metric <domain>.events_dropped. Include after phase.bpf.h.
 */
#ifndef FSPROF_EVENTS_BPF_H
#define FSPROF_EVENTS_BPF_H

#include "fsprof/event.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, EVENT_RING_BYTES);
} rare_events SEC(".maps");

/* events lost to a full ring, by the phase they happened in */
__u64 events_dropped[FSPROF_MAX_PHASES];

static __always_inline struct fsprof_event *event_reserve(__u32 phase,
							  __u32 kind)
{
	struct fsprof_event *e;
	int i;

	if (phase >= FSPROF_MAX_PHASES)
		phase = FSPROF_PHASE_NONE;
	e = bpf_ringbuf_reserve(&rare_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&events_dropped[phase], 1);
		return NULL;
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->phase = phase;
	e->kind = kind;
	e->aux = 0;
	for (i = 0; i < EVENT_NVALUES; i++)
		e->v[i] = 0;
	return e;
}

/*
 * Hand the event over. The reader polls the ring every EVENT_POLL_MS, so
 * waking it per event (an interrupt and a wakeup, ~10 us charged to the
 * program) is needed only when the ring fills up.
 */
static __always_inline void event_submit(struct fsprof_event *e)
{
	__u64 queued = bpf_ringbuf_query(&rare_events, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(e, queued > EVENT_RING_BYTES / 2 ?
				      BPF_RB_FORCE_WAKEUP :
				      BPF_RB_NO_WAKEUP);
}

#endif
