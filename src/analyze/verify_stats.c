// SPDX-License-Identifier: GPL-2.0
/*
 * Whether re-running with the advice applied helped: the speed-up of the
 * phase (before / after wall time) and its 95% confidence interval, from
 * Welch's t on the logarithms of the times (a ratio of times is
 * log-normal-ish and its interval is then symmetric in log space: 2x
 * faster and 2x slower are equally far from 1).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/thresholds.h"
#include "util/stats.h"

/* a time below this is taken as this, so that its logarithm exists */
#define VERIFY_MIN_SECONDS 1e-6

static void log_stats(const double *v, unsigned int n, double *mean,
		      double *var)
{
	double sum = 0, sq = 0, l;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += log(v[i] > VERIFY_MIN_SECONDS ? v[i] :
						       VERIFY_MIN_SECONDS);
	*mean = sum / n;
	for (i = 0; i < n; i++) {
		l = log(v[i] > VERIFY_MIN_SECONDS ? v[i] : VERIFY_MIN_SECONDS);
		sq += (l - *mean) * (l - *mean);
	}
	*var = n > 1 ? sq / (n - 1) : 0;
}

static double arith_mean(const double *v, unsigned int n)
{
	double sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

void verification_judge(struct verification *v)
{
	double mb, ma, vb, va, se2, se, df, half, d;
	unsigned int nb = v->n_before, na = v->n_after;

	v->before_s = arith_mean(v->before, nb);
	v->after_s = arith_mean(v->after, na);
	v->ratio = v->ci_lo = v->ci_hi = 0;
	if (nb < 2 || na < 2) {
		snprintf(v->verdict, sizeof(v->verdict), "inconclusive");
		if (!v->note[0])
			snprintf(
				v->note, sizeof(v->note),
				"%u run(s) before and %u after: at least 2 of each are needed for an interval",
				nb, na);
		return;
	}
	log_stats(v->before, nb, &mb, &vb);
	log_stats(v->after, na, &ma, &va);
	d = mb - ma;
	se2 = vb / nb + va / na;
	se = sqrt(se2);
	v->ratio = exp(d);
	if (se > 0) {
		/* Welch-Satterthwaite degrees of freedom */
		double qb = vb / nb, qa = va / na;
		double den = qb * qb / (nb - 1) + qa * qa / (na - 1);

		df = den > 0 ? se2 * se2 / den : (double)(nb + na - 2);
		if (df < 1)
			df = 1;
		half = student_t975((unsigned int)df) * se;
	} else {
		half = 0;
	}
	v->ci_lo = exp(d - half);
	v->ci_hi = exp(d + half);
	if (v->ci_lo > 1 && v->ratio >= VERIFY_MIN_SPEEDUP)
		snprintf(v->verdict, sizeof(v->verdict), "confirmed");
	else if (v->ci_hi < VERIFY_MIN_SPEEDUP)
		snprintf(v->verdict, sizeof(v->verdict), "not confirmed");
	else
		snprintf(v->verdict, sizeof(v->verdict), "inconclusive");
}
