// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "util/stats.h"

/* t(0.975, df) for df = 1..30 */
static const double t975_table[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,	2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,	2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double student_t975(unsigned int df)
{
	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t975_table[df - 1];
	/* Cornish-Fisher expansion around the normal quantile 1.959964 */
	return 1.959964 + 2.372272 / df + 2.821544 / ((double)df * df);
}

void stats_compute(const double *v, unsigned int n, struct stats *out)
{
	double sum = 0, sq = 0, half;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	out->min = out->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - out->mean) * (v[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
	half = n > 1 ? student_t975(n - 1) * out->stddev / sqrt(n) : 0;
	out->ci95_lo = out->mean - half;
	out->ci95_hi = out->mean + half;
}
