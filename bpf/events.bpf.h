/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's ring of rare events (include/fsprof/event.h): EVENT_RING(d)
 * declares d_rare_events and d_events_dropped; event_reserve() a record
 * from the ring, fill v[], event_submit() it. A full ring drops the event
 * and counts it in d_events_dropped[phase], which userspace reports as the
 * metric <domain>.events_dropped. Include after phase.bpf.h.
 */
#ifndef FSPROF_EVENTS_BPF_H
#define FSPROF_EVENTS_BPF_H

#include "fsprof/event.h"

/* a domain's ring, and its events lost to a full ring by phase */
#define EVENT_RING(d)                                  \
	struct {                                       \
		__uint(type, BPF_MAP_TYPE_RINGBUF);    \
		__uint(max_entries, EVENT_RING_BYTES); \
	} d##_rare_events SEC(".maps");                \
	__u64 d##_events_dropped[FSPROF_MAX_PHASES]

static __always_inline struct fsprof_event *
event_reserve(void *ring, __u64 *dropped, __u32 phase, __u32 kind)
{
	struct fsprof_event *e;
	int i;

	if (phase >= FSPROF_MAX_PHASES)
		phase = FSPROF_PHASE_NONE;
	e = bpf_ringbuf_reserve(ring, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&dropped[phase], 1);
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
static __always_inline void event_submit(void *ring, struct fsprof_event *e)
{
	__u64 queued = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(e, queued > EVENT_RING_BYTES / 2 ?
				      BPF_RB_FORCE_WAKEUP :
				      BPF_RB_NO_WAKEUP);
}

#endif
