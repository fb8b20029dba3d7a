// SPDX-License-Identifier: GPL-2.0
/*
 * Welch's t, Benjamini-Hochberg and Kolmogorov-Smirnov for fsprof diff. The
 * distributions are GSL's (gsl_cdf_tdist_*, gsl_cdf_ugaussian_*).
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "compare/diff_stats.h"

/*
 * The exact permutation test's two-sided p for runs all alike on each
 * side, the sides apart: of the C(na + nb, na) ways to split the runs
 * into sides, only this split is as far apart - and its mirror, when the
 * sides are of one size.
 */
static double separation_p(unsigned int na, unsigned int nb)
{
	double ways = 1;
	unsigned int i;

	/* C(na + nb, na), as a product of ratios */
	for (i = 1; i <= na; i++)
		ways = ways * (double)(nb + i) / (double)i;
	return fmin(1.0, (na == nb ? 2.0 : 1.0) / ways);
}

void diff_welch(struct diff_metric *m)
{
	const struct diff_side *a = &m->a, *b = &m->b;
	double va, vb, se2, se, df, t, half;

	m->diff = b->mean - a->mean;
	m->ratio = a->mean != 0 ? b->mean / a->mean : NAN;
	m->has_ci = false;
	m->p = NAN;
	m->ci_lo = m->ci_hi = NAN;
	if (a->n < 2 || b->n < 2)
		return;
	m->has_ci = true;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	if (se2 <= 0) {
		/*
		 * No spread on either side. That is not an exact difference:
		 * a count that takes one of two values from run to run (ext4's
		 * pa_new_group_blocks, 1024 or 1536) gives two equal runs a
		 * side one A/A in eight. Each side's runs all alike, the sides
		 * apart: the exact permutation test's p (2 a side: 1/3; 3:
		 * 1/10; 4: 1/35), what the runs can say without a spread.
		 */
		m->ci_lo = m->ci_hi = m->diff;
		m->p = m->diff == 0 ? 1.0 : separation_p(a->n, b->n);
		return;
	}
	se = sqrt(se2);
	/* Welch-Satterthwaite */
	df = se2 * se2 /
	     ((a->n > 1 ? va * va / (a->n - 1) : 0) +
	      (b->n > 1 ? vb * vb / (b->n - 1) : 0));
	if (!(df >= 1))
		df = 1;
	t = m->diff / se;
	m->p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	if (m->p > 1)
		m->p = 1;
	/*
	 * A count's runs are a few discrete states, not a normal sample:
	 * ext4 served 255 of 512 O_DSYNC writes' allocations through
	 * mballoc's regular path in some runs and none in others. Two runs
	 * a side, 0 and 1 against 255 and 255, gave Welch's t p = 0.001 at
	 * one degree of freedom, and an A/A called it changed - while the
	 * same runs with no spread at all get 1/3 above. Below the exact
	 * permutation test's p for the sides apart, Welch's p rests on the
	 * normal model alone; a count's p is held at that floor.
	 */
	if (m->discrete)
		m->p = fmax(m->p, separation_p(a->n, b->n));
	half = gsl_cdf_tdist_Qinv(0.025, df) * se;
	m->ci_lo = m->diff - half;
	m->ci_hi = m->diff + half;
}

static const double *bh_p;

static int by_p(const void *x, const void *y)
{
	double a = bh_p[*(const size_t *)x], b = bh_p[*(const size_t *)y];

	return a < b ? -1 : a > b ? 1 : 0;
}

void diff_bh_adjust(const double *p, double *q, size_t n, size_t *idx)
{
	size_t i, m = 0;
	double run = 1;

	for (i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	bh_p = p;
	qsort(idx, m, sizeof(*idx), by_p);
	/* q(k) = min over j >= k of p(j) * m / j, from the largest down */
	for (i = m; i > 0; i--) {
		double v = p[idx[i - 1]] * (double)m / (double)i;

		if (v < run)
			run = v;
		q[idx[i - 1]] = run;
	}
}

unsigned int diff_repeats_needed(const struct diff_metric *m, double delta,
				 double alpha)
{
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2) +
		   gsl_cdf_ugaussian_Pinv(DIFF_POWER);
	double var = m->a.sd * m->a.sd + m->b.sd * m->b.sd;
	double n;
	unsigned int floor_n = 0;

	/* a count needs the runs whose best split reaches alpha, at least */
	if (m->discrete)
		for (floor_n = 2; floor_n < 1000 &&
				  separation_p(floor_n, floor_n) > alpha;
		     floor_n++)
			;
	if (delta <= 0 || var <= 0)
		return floor_n;
	n = fmax(ceil(z * z * var / (delta * delta)), floor_n);
	return n > 1000 ? 1000 : n < 2 ? 2 : (unsigned int)n;
}

/* Kolmogorov's limiting distribution: P(sqrt(n) D > lambda) */
static double kolmogorov_q(double lambda)
{
	double sum = 0, term;
	int k;

	if (lambda < 0.2)
		return 1;
	for (k = 1; k <= 100; k++) {
		term = exp(-2.0 * k * k * lambda * lambda);
		sum += (k % 2 ? 2 : -2) * term;
		if (term < 1e-12)
			break;
	}
	return sum < 0 ? 0 : sum > 1 ? 1 : sum;
}

void diff_ks(const uint64_t *a, const uint64_t *b, unsigned int nbuckets,
	     double *d, double *p)
{
	double na = 0, nb = 0, ca = 0, cb = 0, gap = 0, ne;
	unsigned int i;

	for (i = 0; i < nbuckets; i++) {
		na += (double)a[i];
		nb += (double)b[i];
	}
	*d = 0;
	*p = NAN;
	if (na == 0 || nb == 0)
		return;
	for (i = 0; i < nbuckets; i++) {
		ca += (double)a[i];
		cb += (double)b[i];
		if (fabs(ca / na - cb / nb) > gap)
			gap = fabs(ca / na - cb / nb);
	}
	ne = na * nb / (na + nb);
	*d = gap;
	/* Stephens' small-sample correction of the asymptotic form */
	*p = kolmogorov_q((sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * gap);
}
