/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constructed runs for fsprof diff's tests: repeats of one phase with the
 * wall times a test asks for and a journal commit count, and a metric of
 * the diff looked up by name.
 */
#ifndef FSPROF_TEST_DIFF_FIXTURE_H
#define FSPROF_TEST_DIFF_FIXTURE_H

#include <string.h>

#include "analyze_fixture.h"
#include "compare/diff.h"

/* n repeats on label: phase "create" of wall[i] s, commits (+1 when odd) */
static inline void fx_diff_run(struct run_result *run, const char *label,
			       const double *wall, unsigned int n,
			       uint64_t commits)
{
	unsigned int i;

	memset(run, 0, sizeof(*run));
	for (i = 0; i < n; i++) {
		struct case_result *c = fx_case(run, "ext4", label, 1);
		struct phase_result *p = fx_phase(c, "create", wall[i]);

		c->repeat = i + 1;
		metric_add(&p->metrics, "jbd2.commits", commits + i % 2);
	}
}

/* metric name of the diff's first pair's first phase, or NULL */
static inline const struct diff_metric *
fx_diff_metric(const struct diff_result *d, const char *name)
{
	const struct diff_phase *ph = &d->pairs[0].phases[0];
	unsigned int i;

	for (i = 0; i < ph->n_metrics; i++)
		if (!strcmp(ph->metrics[i].name, name))
			return &ph->metrics[i];
	return NULL;
}

#endif
