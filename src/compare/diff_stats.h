/* SPDX-License-Identifier: GPL-2.0 */
/* The statistics of fsprof diff (GSL's Student t and normal distributions). */
#ifndef FSPROF_DIFF_STATS_H
#define FSPROF_DIFF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/diff.h"

/*
 * A distribution "differs" only when the Kolmogorov-Smirnov gap is at least
 * this large as well as significant: with 100,000 IOs a side, a 1% shift
 * of the CDF is significant and means nothing to the user.
 */
#define DIFF_KS_MIN_D 0.1

/* statistical power the repeat estimate aims at (80%, the usual choice) */
#define DIFF_POWER 0.8

/*
 * Welch's test of b against a: the difference of means, its 95% interval,
 * the two-sided p (has_ci false and p NAN when a side has fewer than 2).
 */
void diff_welch(struct diff_metric *m);

/*
 * Benjamini-Hochberg: q[i] for p[i] (NAN entries are not tests and stay
 * NAN). Needs scratch for n indices.
 */
void diff_bh_adjust(const double *p, double *q, size_t n, size_t *scratch);

/* repeats per side that would show a change of delta at alpha (and power) */
unsigned int diff_repeats_needed(const struct diff_metric *m, double delta,
				 double alpha);

/*
 * Two-sample Kolmogorov-Smirnov on bucket counts (the same buckets both
 * sides): the gap D and its asymptotic p.
 */
void diff_ks(const uint64_t *a, const uint64_t *b, unsigned int nbuckets,
	     double *d, double *p);

#endif
