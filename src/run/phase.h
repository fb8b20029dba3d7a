/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_PHASE_RUN_H
#define FSPROF_PHASE_RUN_H

#include "results/results.h"
#include "trace/tracer.h"
#include "workload/workload.h"

/*
 * Run one phase under the tracer (NULL: untraced): prepare (untimed, phase
 * id 0), then the timed body with the phase id set, then collect what the
 * kernel charged to it.
 */
int phase_run(struct tracer *tracer, const struct phase_def *def,
	      const struct workload_env *env, unsigned int id,
	      struct phase_result *out, struct progress *progress);

#endif
