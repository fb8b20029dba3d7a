// SPDX-License-Identifier: GPL-2.0
/*
 * Whether re-running with the advice applied helped: the speed-up of the
 * phase (before / after wall time) and its confidence interval, from
 * Welch's t on the logarithms of the times (analyze/ratio_ci.h).
 *
 * --verify looks at the samples after every round and stops at the first
 * look that decides, so each look is one more chance for noise to decide
 * wrongly. The looks share VERIFY_ALPHA evenly (Bonferroni): a cap of N
 * rounds allows N - min + 1 looks, each judged at VERIFY_ALPHA / looks.
 * By the union bound the chance that any look of a sequence decides
 * wrongly is at most VERIFY_ALPHA whatever the looks' correlation, so the
 * intervals hold the true speed-up at all looks at once with at least 95%
 * confidence. Pocock's or O'Brien-Fleming's boundaries would be tighter,
 * but they rest on the normal approximation of the looks' correlation,
 * which 3-10 runs a side with unknown variance do not give; Bonferroni
 * needs only each look's own interval to be valid.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/ratio_ci.h"
#include "analyze/thresholds.h"

void verify_plan_make(unsigned int max_rounds, struct verify_plan *p)
{
	if (max_rounds > VERIFY_MAX_SAMPLES)
		max_rounds = VERIFY_MAX_SAMPLES;
	if (max_rounds < 2)
		max_rounds = 2; /* an interval needs 2 a side */
	p->max_rounds = max_rounds;
	p->min_rounds = max_rounds < VERIFY_MIN_ROUNDS ? max_rounds :
							 VERIFY_MIN_ROUNDS;
	p->looks = p->max_rounds - p->min_rounds + 1;
	p->look_alpha = VERIFY_ALPHA / p->looks;
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
	struct ratio_ci rc;
	double alpha = v->look_alpha > 0 ? v->look_alpha : VERIFY_ALPHA;
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
	ratio_ci_compute(v->before, nb, v->after, na, alpha, &rc);
	v->ratio = rc.ratio;
	v->ci_lo = rc.lo;
	v->ci_hi = rc.hi;
	if (v->ci_lo > 1 && v->ratio >= VERIFY_MIN_SPEEDUP)
		snprintf(v->verdict, sizeof(v->verdict), "confirmed");
	else if (v->ci_hi < VERIFY_MIN_SPEEDUP)
		snprintf(v->verdict, sizeof(v->verdict), "not confirmed");
	else
		snprintf(v->verdict, sizeof(v->verdict), "inconclusive");
}

bool verification_decided(const struct verification *v)
{
	return v->verdict[0] && strcmp(v->verdict, "inconclusive") != 0;
}

bool verify_look(const struct verify_plan *p, unsigned int rounds,
		 struct verification *v)
{
	if (rounds < p->min_rounds)
		return false;
	v->look_alpha = p->look_alpha;
	verification_judge(v);
	return verification_decided(v);
}
