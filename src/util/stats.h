/* SPDX-License-Identifier: GPL-2.0 */
/* Sample statistics for repeated runs: mean, stddev, 95% confidence. */
#ifndef FSPROF_STATS_H
#define FSPROF_STATS_H

struct stats {
	unsigned int n;
	double mean;
	double stddev; /* sample standard deviation (n - 1); 0 for n = 1 */
	double ci95_lo, ci95_hi; /* Student's t interval of the mean */
	double min, max;
};

/* two-sided 95% quantile of Student's t with df degrees of freedom */
double student_t975(unsigned int df);

void stats_compute(const double *v, unsigned int n, struct stats *out);

#endif
