/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of one metric of one case in a run, one a repeat, as fsprof
 * bisect-step judges them: --metric [PHASE/]NAME names the phase (needed
 * when the metric is in several) and the metric (as fsprof diff names it,
 * results/phase_values.h); --case WORKLOAD/TARGET, WORKLOAD or TARGET the
 * case (needed when the run has several: workloads, targets, kernels).
 */
#ifndef FSPROF_REPRO_BISECT_VALUES_H
#define FSPROF_REPRO_BISECT_VALUES_H

#include <stddef.h>

#include "results/phase_values.h"
#include "results/results.h"

/* what to take; bisect_values_find fills what the run resolves */
struct bisect_metric {
	char phase[32]; /* "" until resolved when --metric names none */
	char name[PHASE_VALUE_NAME_LEN];
	char case_sel[96]; /* --case, or "" */
	/* resolved in the good run; the new run's case must match them */
	char workload[32];
	char target[32];
};

struct bisect_values {
	unsigned int n;
	double *v; /* owned */
};

/* --metric [PHASE/]NAME into m (the rest zeroed); -EINVAL when malformed */
int bisect_metric_parse(const char *arg, const char *case_sel,
			struct bisect_metric *m);

/*
 * The good run's values of m (its case and phase resolved into m):
 * 0; -ENOENT no case, phase or value of it (err says which); -EINVAL the
 * run has several cases or phases that m could mean (err lists them:
 * --case or PHASE/ picks one); -ENOMEM.
 */
int bisect_values_find(const struct run_result *run, struct bisect_metric *m,
		       struct bisect_values *out, char *err, size_t errlen);

/* the new run's values of the case and phase m was resolved to: 0,
 * -ENOENT (said in err), -ENOMEM */
int bisect_values_again(const struct run_result *run,
			const struct bisect_metric *m,
			struct bisect_values *out, char *err, size_t errlen);

void bisect_values_free(struct bisect_values *vals);

#endif
