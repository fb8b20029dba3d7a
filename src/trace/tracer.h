/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer: every kernel domain, each optional, loaded and attached once
 * per run (a domain when the first case that can use it begins: no XFS
 * programs in a run of ext4 cases) and bound to each case's target in
 * turn. The run driver sees only this: start, bind a case, switch phase,
 * collect, off, stop.
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
/* one object per domain at most (each loaded alone), and the extra's */
#define TRACER_MAX_GROUPS (TRACER_MAX_DOMAINS + 1)

struct event_stream;

struct bpf_group;

struct tracer_domain {
	const struct trace_domain_ops *ops;
	void *priv;
	struct bpf_group *group; /* the object its programs are in */
	bool bound; /* counting for the case running */
};

struct fsprof_bpf;

/*
 * A program set of the one BPF object that is no domain (fsprof trace's
 * phase marker), set before the tracer's first load: open turns its
 * programs on in skel (0) or declines; loaded gets the loaded skeleton,
 * or err when the load failed. It loads with the first case's domains,
 * or in an object of its own when that load fails and each is loaded alone.
 */
struct tracer_extra {
	int (*open)(void *arg, struct fsprof_bpf *skel);
	void (*loaded)(void *arg, struct fsprof_bpf *skel, int err);
	void *arg;
};

struct tracer {
	bool started;
	struct tracer_domain dom[TRACER_MAX_DOMAINS];
	unsigned int n; /* domains that loaded and attached */
	/* their objects: one per load (trace/bpf_group.h) */
	struct bpf_group *group[TRACER_MAX_GROUPS];
	unsigned int n_groups;
	unsigned int tried; /* bit i: all_domains[i] was opened (or failed) */
	struct attach_list *attached; /* every program's outcome so far */
	unsigned int phase; /* the phase running, 0 between phases */
	struct phase_map phase_map; /* the phase id every domain reads */
	struct selfcost self; /* what the programs cost, per phase */
	struct event_stream *events; /* the case's rings of rare events */
	struct tracer_extra extra; /* open NULL: none */
	bool extra_done; /* it was in a load (which called its loaded) */
};

/*
 * Ready to trace: the phase map and the programs' cost stats. Nothing is
 * loaded yet; tracer_stop (not a teardown step: the tracer outlives the
 * cases' teardowns) ends it.
 */
int tracer_start(struct tracer *t);

/*
 * Load and attach every domain for cfg's filesystem not tried yet (the
 * run's settings from cfg: see trace_config), recording each program's
 * outcome; a domain that fails is reported and left out. -errno when the
 * kernel has no BTF.
 */
int tracer_load(struct tracer *t, const struct trace_config *cfg);

/* after tracer_start, before the first load */
void tracer_set_extra(struct tracer *t, const struct tracer_extra *x);

/*
 * A case begins on cfg's target: its domains loaded (tracer_load), every
 * domain's counts emptied and its target set, at phase 0. The programs'
 * outcomes go into programs; the step that turns them off again (before
 * the target goes down) onto td.
 */
int tracer_bind(struct tracer *t, const struct trace_config *cfg,
		struct attach_list *programs, struct teardown *td);

/*
 * The case ended: every domain off (counting nothing, its programs still
 * attached for the next case); the case's rare events not taken dropped.
 */
void tracer_off(struct tracer *t);

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
 * the rare events the domains' rings delivered since the case was bound,
 * into list; call once a case, after its last collect (stops reading the
 * rings)
 */
int tracer_take_events(struct tracer *t, struct event_list *list);

/* each bound domain's charging rule, into out */
void tracer_charging(const struct tracer *t, struct charging_list *out);

/* every domain detached and freed; a tracer never started is fine */
void tracer_stop(struct tracer *t);

#endif
