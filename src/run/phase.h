/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_PHASE_RUN_H
#define FSPROF_PHASE_RUN_H

#include "results/results.h"
#include "target/target.h"
#include "trace/tracer.h"
#include "workload/workload.h"

/* what a phase runs with, besides its definition */
struct phase_runner {
	struct tracer *tracer; /* NULL: untraced */
	struct target *target; /* mounted again before a cold phase */
	const struct workload_env *env;
	struct progress *progress;
	const char *cache; /* its state at the start (run/phase_cache.h) */
};

/*
 * Run one phase: prepare (untimed, phase id 0: the workload's step, then
 * what r->cache asks for), then the timed body with the phase id set,
 * then collect what the kernel charged to it.
 */
int phase_run(const struct phase_runner *r, const struct phase_def *def,
	      unsigned int id, struct phase_result *out);

#endif
