/* SPDX-License-Identifier: GPL-2.0 */
/* The steps of diff_build (diff_build.c) in their own files. */
#ifndef FSPROF_DIFF_INT_H
#define FSPROF_DIFF_INT_H

#include "compare/diff.h"
#include "compare/noise_floors.h"

/* what the two runs differ in besides what is compared (diff_setup.c) */
void diff_setup_compare(const struct run_result *a, const struct run_result *b,
			struct diff_result *d);

/*
 * Benjamini-Hochberg over every test of the diff, then each metric's
 * verdict and the --fail-above gate (diff_judge.c). 0 or -ENOMEM.
 */
int diff_judge(struct diff_result *d);

/* the kernel as the variable, and emulated times out of the tests
 * (diff_kernel.c); before diff_judge */
void diff_kernels(struct diff_result *d);

/*
 * The relative noise floor metric is judged by: --noise (o->noise_floor)
 * when given, else the first row of nf that matches it (diff_judge.c).
 */
double diff_noise_floor(const char *metric, const struct diff_options *o,
			const struct noise_floors *nf);

/* lkp-tests' summary of n samples v (sorted here) (diff_lkp.c) */
void diff_lkp_side(double *v, unsigned int n, struct diff_lkp_side *out);

/* lkp-tests' criterion on m's sides, its headline saying whether a KPI */
void diff_lkp_judge(struct diff_metric *m);

/* rule is one of the ids of list ("a, b, c"), whole: not a part of one */
bool diff_rule_listed(const char *list, const char *rule);

#endif
