/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ratio of two sets of samples and its confidence interval: Welch's t
 * on the logarithms (a ratio of times or rates is log-normal-ish, and its
 * interval is then symmetric in log space: 2x and 1/2x are equally far
 * from 1). --verify's speed-up and the classic shapes both use it.
 */
#ifndef FSPROF_ANALYZE_RATIO_CI_H
#define FSPROF_ANALYZE_RATIO_CI_H

#include <stdbool.h>

struct ratio_ci {
	double ratio; /* geometric mean of a over that of b */
	bool has_ci; /* both sides have 2 samples or more */
	double lo, hi; /* the interval at the level asked */
};

/* a over b, the interval at two-sided level alpha (0.05: 95%) */
void ratio_ci_compute(const double *a, unsigned int na, const double *b,
		      unsigned int nb, double alpha, struct ratio_ci *out);

#endif
