// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-tests' criterion for a real change (the 0-day robot's compare),
 * computed beside fsprof's own verdict so that a kernel developer can set
 * one against the other (docs/diff.md "lkp's criterion"). As lkp does it:
 * each side's samples sorted, n >> 5 of them (at most 3) cut from each
 * end, min, middle ("mean") and max read off; a change when the ranges
 * separate - B's min above A's middle and B's middle above A's max, or the
 * mirror - with 3 samples on a side at least, and the ratio of the middles
 * above 1.01 for a KPI (lkp's perf metrics), 1.05 for any other.
 */
#include <stdlib.h>

#include "compare/diff_int.h"

#define LKP_MARGIN_SHIFT 5 /* n >> 5 samples cut from each end... */
#define LKP_MARGIN_MAX 3 /* ...at most 3 */
#define LKP_MIN_SAMPLES 3 /* on one side at least */
#define LKP_MAX_RATIO 5.0 /* ratios are capped here */
#define LKP_KPI_RATIO 1.01
#define LKP_OTHER_RATIO 1.05

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

void diff_lkp_side(double *v, unsigned int n, struct diff_lkp_side *out)
{
	unsigned int margin = n >> LKP_MARGIN_SHIFT;

	out->min = out->mid = out->max = 0;
	if (!n)
		return;
	if (margin > LKP_MARGIN_MAX)
		margin = LKP_MARGIN_MAX;
	qsort(v, n, sizeof(*v), cmp_double);
	v += margin;
	n -= 2 * margin;
	out->min = v[0];
	out->mid = v[n / 2];
	out->max = v[n - 1];
}

/* high's middle over low's, LKP_MAX_RATIO when low's is not above 0 */
static double middle_ratio(const struct diff_lkp_side *high,
			   const struct diff_lkp_side *low)
{
	double r = low->mid > 0 ? high->mid / low->mid : LKP_MAX_RATIO;

	return r > LKP_MAX_RATIO ? LKP_MAX_RATIO : r;
}

void diff_lkp_judge(struct diff_metric *m)
{
	const struct diff_lkp_side *a = &m->a.lkp, *b = &m->b.lkp;
	struct diff_lkp *l = &m->lkp;

	l->enough = m->a.n >= LKP_MIN_SAMPLES || m->b.n >= LKP_MIN_SAMPLES;
	l->separated = (b->min > a->mid && b->mid > a->max) ||
		       (a->min > b->mid && a->mid > b->max);
	l->ratio = a->mid > b->mid ? middle_ratio(a, b) : middle_ratio(b, a);
	l->min_ratio = m->headline ? LKP_KPI_RATIO : LKP_OTHER_RATIO;
	l->changed = l->enough && l->separated && l->ratio > l->min_ratio;
}
