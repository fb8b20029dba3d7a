/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phases of a live case (fsprof trace, fsprof record): not a
 * workload's list, but stretches of time that begin and end as a command
 * marks them, as --interval slices them, or as one whole. Phase ids are
 * given in order from 1; 0 is between phases (spill-over). At the end every
 * phase is collected from the tracer into the case's results, the same
 * model as run's.
 */
#ifndef FSPROF_LIVE_PHASES_H
#define FSPROF_LIVE_PHASES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "fsprof/phase.h"
#include "results/results.h"
#include "trace/tracer.h"
#include "util/cpu_cgroup.h"

struct live_cpu {
	uint64_t user_ns, sys_ns;
};

struct live_phase {
	char name[32];
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC; end 0: running */
	struct live_cpu cpu0, cpu1; /* the command's CPU at start and end */
	bool used;
};

struct live_phases {
	struct tracer *tracer; /* NULL: untraced */
	pid_t cpu_pid; /* whose CPU a phase's CPU is (0: not measured) */
	const struct cpu_cgroup *cg; /* NULL: cpu_pid's /proc/<pid>/stat */
	unsigned int running; /* the phase running now, 0: none */
	struct live_phase ph[FSPROF_MAX_PHASES];
	uint64_t interval_ns; /* --interval: time phases of this length */
	uint64_t tick_ns; /* --interval: when the running one is due to end */
	uint64_t origin_ns; /* when the first phase began */
	bool capped; /* --interval ran out of phase ids (said once) */
};

void live_phases_init(struct live_phases *lp, struct tracer *tracer,
		      pid_t cpu_pid, uint64_t interval_ns);

/* a phase's CPU is cg's (the command and all its processes), from now */
void live_phases_use_cgroup(struct live_phases *lp,
			    const struct cpu_cgroup *cg);

/*
 * Phase id (0: none) begins at at_ns, ending the one running. publish:
 * fsprof publishes the switch; false: the kernel already did (a phase
 * marker), only the domains' boundary work and the bookkeeping are left.
 */
void live_phases_switch(struct live_phases *lp, unsigned int id,
			const char *name, uint64_t at_ns, bool publish);

/*
 * phase 1 begins at at_ns, or when the tracer publishes it: name, or the
 * first time phase with --interval. Returns when it began.
 */
uint64_t live_phases_begin(struct live_phases *lp, const char *name,
			   uint64_t at_ns);

/*
 * --interval: when the running time phase is over at now, the next one
 * begins; the time until the next boundary (ns), or 0 without --interval.
 */
uint64_t live_phases_tick(struct live_phases *lp, uint64_t now);

/*
 * End the running phase at at_ns and collect every phase into c (phases in
 * id order, the spill-over into c->spill). prelude_to_spill: phase 1 (the
 * command before its first marker) is charged to the spill-over.
 */
int live_phases_collect(struct live_phases *lp, struct case_result *c,
			uint64_t at_ns, bool prelude_to_spill);

#endif
