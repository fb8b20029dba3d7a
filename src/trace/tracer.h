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
#include "trace/selfcost.h"
#include "util/teardown.h"

#define TRACER_MAX_DOMAINS 8

struct tracer_domain {
	const struct trace_domain_ops *ops;
	void *priv;
};

struct tracer {
	struct tracer_domain dom[TRACER_MAX_DOMAINS];
	unsigned int n; /* domains that loaded and attached */
	unsigned int phase; /* the phase running, 0 between phases */
	struct selfcost self; /* what the programs cost, per phase */
};

/*
 * Open, configure, load and attach every domain for the filesystem target
 * describes (its btf is filled in here); record each program's outcome in
 * programs. Domains that fail are reported and left out. The stop goes onto
 * td.
 */
int tracer_start(struct tracer *t, const struct trace_config *target,
		 struct attach_list *programs, struct teardown *td);

/* set the phase id every domain charges events to (0 = between phases) */
void tracer_set_phase(struct tracer *t, unsigned int phase);

/* what every domain counted for phase (0: between phases) into out */
int tracer_collect(struct tracer *t, unsigned int phase,
		   struct phase_result *out);

void tracer_stop(struct tracer *t);

#endif
