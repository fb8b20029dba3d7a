/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer: every kernel domain, loaded together, each optional. The run
 * driver sees only this: start, switch phase, collect, stop.
 */
#ifndef FSPROF_TRACER_H
#define FSPROF_TRACER_H

#include <stdbool.h>

#include "results/results.h"
#include "trace/domain.h"
#include "trace/phase_map.h"
#include "trace/selfcost.h"
#include "util/teardown.h"

#define TRACER_MAX_DOMAINS 8

struct event_stream;

struct tracer_domain {
	const struct trace_domain_ops *ops;
	void *priv;
};

struct tracer {
	struct tracer_domain dom[TRACER_MAX_DOMAINS];
	unsigned int n; /* domains that loaded and attached */
	unsigned int phase; /* the phase running, 0 between phases */
	struct phase_map phase_map; /* the phase id every domain reads */
	struct selfcost self; /* what the programs cost, per phase */
	struct event_stream *events; /* their rings of rare events, or NULL */
};

/*
 * Open, configure, load and attach every domain for the filesystem target
 * describes (its btf is filled in here); record each program's outcome in
 * programs. Domains that fail are reported and left out. The stop goes onto
 * td.
 */
int tracer_start(struct tracer *t, const struct trace_config *target,
		 struct attach_list *programs, struct teardown *td);

/*
 * Set the phase id every domain charges events to (0 = between phases).
 * Returns the moment the programs see the switch (CLOCK_MONOTONIC), after
 * the domains' boundary reads: the phase's window begins or ends there
 * (bin 0 of its timeline at a begin).
 */
uint64_t tracer_set_phase(struct tracer *t, unsigned int phase);

/*
 * The kernel published a switch to phase itself (a traced command's phase
 * marker, bpf/marker.bpf.c): what the domains do at a switch (peers read
 * at the boundary), and the running phase, as after tracer_set_phase.
 */
void tracer_phase_switched(struct tracer *t, unsigned int phase);

/*
 * The target is about to be unmounted (mounted false) or was mounted again
 * (true), between phases: the domains whose peers are the mount's own
 * statistics carry them over.
 */
void tracer_remount(struct tracer *t, bool mounted);

/*
 * What every domain counted for phase (0: between phases) into out. For a
 * phase that has ended, first waits (up to TRACER_SETTLE_MAX_NS) for the
 * work charged to it that is still in flight (block requests), and records
 * what was left in out->block.inflight_at_end. Phase 0, collected last, is
 * not waited for: what it still has in flight is added to its
 * inflight_at_end.
 */
int tracer_collect(struct tracer *t, unsigned int phase,
		   struct phase_result *out);

/*
 * the rare events the domains' rings delivered since start, into list;
 * call once, after the last collect (stops reading the rings)
 */
int tracer_take_events(struct tracer *t, struct event_list *list);

/* each loaded domain's charging rule, into out */
void tracer_charging(const struct tracer *t, struct charging_list *out);

void tracer_stop(struct tracer *t);

#endif
