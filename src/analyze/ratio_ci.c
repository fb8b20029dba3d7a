// SPDX-License-Identifier: GPL-2.0
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "analyze/ratio_ci.h"

/* a sample below this is taken as this, so that its logarithm exists */
#define RATIO_MIN_SAMPLE 1e-6

static double log_of(double v)
{
	return log(v > RATIO_MIN_SAMPLE ? v : RATIO_MIN_SAMPLE);
}

static void log_stats(const double *v, unsigned int n, double *mean,
		      double *var)
{
	double sum = 0, sq = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += log_of(v[i]);
	*mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (log_of(v[i]) - *mean) * (log_of(v[i]) - *mean);
	*var = n > 1 ? sq / (n - 1) : 0;
}

/* half the interval of the log ratio at two-sided level alpha */
static double welch_half(double va, unsigned int na, double vb, unsigned int nb,
			 double alpha)
{
	double qa = va / na, qb = vb / nb, se2 = qa + qb, den, df;

	if (se2 <= 0)
		return 0;
	/* Welch-Satterthwaite degrees of freedom */
	den = qa * qa / (na - 1) + qb * qb / (nb - 1);
	df = den > 0 ? se2 * se2 / den : (double)(na + nb - 2);
	if (!(df >= 1))
		df = 1;
	return gsl_cdf_tdist_Qinv(alpha / 2, df) * sqrt(se2);
}

void ratio_ci_compute(const double *a, unsigned int na, const double *b,
		      unsigned int nb, double alpha, struct ratio_ci *out)
{
	double ma, mb, va, vb, half;

	out->ratio = out->lo = out->hi = NAN;
	out->has_ci = false;
	if (!na || !nb)
		return;
	log_stats(a, na, &ma, &va);
	log_stats(b, nb, &mb, &vb);
	out->ratio = exp(ma - mb);
	if (na < 2 || nb < 2)
		return;
	half = welch_half(va, na, vb, nb, alpha);
	out->has_ci = true;
	out->lo = exp(ma - mb - half);
	out->hi = exp(ma - mb + half);
}
