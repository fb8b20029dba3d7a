// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/headline.h"

/* the cases of one (target, workload, parameters, kernel) */
static bool same_group(const struct case_result *a, const struct case_result *b)
{
	return !strcmp(a->target_label, b->target_label) &&
	       !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params) && case_same_kernel(a, b);
}

/*
 * how much a finding explains its phase: 0 = it does not; advice --verify
 * confirmed first, then advice it re-ran, a warning, an info with a knob
 */
static int finding_weight(const struct finding *f)
{
	if (f->verified.done && f->verified.ratio > 0)
		return strcmp(f->verified.verdict, "confirmed") ? 3 : 4;
	if (f->severity == FINDING_WARNING)
		return 2;
	/* an info with a knob to turn (a mount, mkfs or fstype change) */
	if (f->severity == FINDING_INFO && f->advice.option[0])
		return 1;
	return 0;
}

struct candidate {
	unsigned int first; /* the group's first case */
	unsigned int ph;
	unsigned int repeats;
	double sum_s, mean_s;
	const struct finding *finding;
	int weight;
	bool chosen;
};

/* phase ph of the group that starts at case first */
static void candidate_fill(const struct run_result *run, struct candidate *k)
{
	const struct case_result *c0 = &run->cases[k->first];
	unsigned int i, j;

	for (i = k->first; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!same_group(c, c0) || k->ph >= c->n_phases)
			continue;
		k->sum_s += (double)c->phases[k->ph].wall_ns / 1e9;
		k->repeats++;
		for (j = 0; j < c->phases[k->ph].findings.n; j++) {
			const struct finding *f =
				&c->phases[k->ph].findings.v[j];
			int w = finding_weight(f);

			if (w > k->weight) {
				k->weight = w;
				k->finding = f;
			}
		}
	}
	k->mean_s = k->repeats ? k->sum_s / k->repeats : 0;
}

static int by_wall_desc(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->sum_s != y->sum_s)
		return x->sum_s < y->sum_s ? 1 : -1;
	return x->first != y->first ? (int)x->first - (int)y->first :
				      (int)x->ph - (int)y->ph;
}

static unsigned int candidates_collect(const struct run_result *run,
				       struct candidate *k)
{
	unsigned int i, j, ph, n = 0;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->n_phases)
			continue;
		for (j = 0; j < i; j++)
			if (run->cases[j].n_phases &&
			    same_group(&run->cases[j], c))
				break;
		if (j < i)
			continue;
		/* the group's phases: as many as its longest case has */
		for (ph = 0;; ph++) {
			bool any = false;

			for (j = i; j < run->n_cases && !any; j++)
				any = same_group(&run->cases[j], c) &&
				      ph < run->cases[j].n_phases;
			if (!any)
				break;
			if (k) {
				memset(&k[n], 0, sizeof(k[n]));
				k[n].first = i;
				k[n].ph = ph;
				candidate_fill(run, &k[n]);
			}
			n++;
		}
	}
	return n;
}

/* what a line of the summary is keyed by: see headline_row_same */
static bool candidate_same(const struct run_result *run,
			   const struct candidate *a, const struct candidate *b)
{
	const struct case_result *ca = &run->cases[a->first];
	const struct case_result *cb = &run->cases[b->first];
	const struct phase_result *pa = &ca->phases[a->ph];
	const struct phase_result *pb = &cb->phases[b->ph];

	if (strcmp(ca->workload, cb->workload) || strcmp(pa->name, pb->name))
		return false;
	if (!a->finding || !b->finding)
		return !a->finding && !b->finding && pa->verdict.done &&
		       pb->verdict.done &&
		       pa->verdict.bound == pb->verdict.bound;
	return !strcmp(a->finding->rule, b->finding->rule);
}

struct choice {
	const struct run_result *run;
	struct candidate *k;
	unsigned int n;
	unsigned int rows, lines, max_lines;
};

/* choose k[i] when it fits: on a line already there, or on a new one */
static bool choose(struct choice *c, unsigned int i)
{
	bool merged = false;
	unsigned int j;

	if (c->k[i].chosen)
		return true;
	if (c->rows == HEADLINE_MAX_ROWS)
		return false;
	for (j = 0; j < c->n && !merged; j++)
		merged = c->k[j].chosen &&
			 candidate_same(c->run, &c->k[i], &c->k[j]);
	if (!merged && c->lines == c->max_lines)
		return false;
	c->k[i].chosen = true;
	c->rows++;
	c->lines += !merged;
	return true;
}

static void row_fill(const struct run_result *run, const struct candidate *k,
		     double total, struct headline_row *r)
{
	const struct case_result *c = &run->cases[k->first];
	const struct phase_result *p = &c->phases[k->ph];

	case_kernel_target_name(c, r->target, sizeof(r->target));
	snprintf(r->workload, sizeof(r->workload), "%s", c->workload);
	snprintf(r->phase, sizeof(r->phase), "%s", p->name);
	r->repeats = k->repeats;
	r->wall_s = k->mean_s;
	r->share = total > 0 ? k->sum_s / total : 0;
	r->verdict = p->verdict.done ? &p->verdict : NULL;
	r->bound = r->verdict ? bound_kind_name(p->verdict.bound) : NULL;
	r->finding = k->finding;
}

static const struct finding *comparison_difference(const struct comparison *cmp)
{
	return finding_list_find(&cmp->findings, "target-difference");
}

/* the differences between targets, largest first */
static void differs_fill(const struct run_result *run, struct headline *h)
{
	const struct comparison_list *l = &run->comparisons;
	unsigned int i, j, t;

	for (i = 0; i < l->n; i++) {
		const struct comparison *cmp = &l->v[i];
		const struct finding *f = comparison_difference(cmp);
		double lo = 0, hi = 0;
		struct headline_differ d;

		if (!f || !cmp->n_targets)
			continue;
		lo = hi = cmp->targets[0].wall_s;
		for (t = 1; t < cmp->n_targets; t++) {
			if (cmp->targets[t].wall_s < lo)
				lo = cmp->targets[t].wall_s;
			if (cmp->targets[t].wall_s > hi)
				hi = cmp->targets[t].wall_s;
		}
		memset(&d, 0, sizeof(d));
		snprintf(d.workload, sizeof(d.workload), "%s", cmp->workload);
		d.cmp = cmp;
		d.finding = f;
		d.diff_s = hi - lo;
		/* insertion into the few kept, largest first */
		for (j = h->n_differs;
		     j > 0 && h->differs[j - 1].diff_s < d.diff_s; j--)
			if (j < HEADLINE_MAX_DIFFERS)
				h->differs[j] = h->differs[j - 1];
		if (j < HEADLINE_MAX_DIFFERS) {
			h->differs[j] = d;
			if (h->n_differs < HEADLINE_MAX_DIFFERS)
				h->n_differs++;
		}
	}
}

/* the verified advice: confirmed first, then the larger speed-up */
static bool verified_before(const struct finding *a, const struct finding *b)
{
	bool ca = !strcmp(a->verified.verdict, "confirmed");
	bool cb = !strcmp(b->verified.verdict, "confirmed");

	if (ca != cb)
		return ca;
	return a->verified.ratio > b->verified.ratio;
}

static void verified_sort(struct headline *h)
{
	unsigned int i, j, v;

	for (i = 1; i < h->n_verified; i++) {
		v = h->verified[i];
		for (j = i;
		     j > 0 &&
		     verified_before(h->rows[v].finding,
				     h->rows[h->verified[j - 1]].finding);
		     j--)
			h->verified[j] = h->verified[j - 1];
		h->verified[j] = v;
	}
}

int headline_build(const struct run_result *run, struct headline *h)
{
	unsigned int n, i, n_verified = 0;
	struct choice c = { .run = run };
	struct candidate *k;
	double covered = 0;
	int w;

	memset(h, 0, sizeof(*h));
	n = candidates_collect(run, NULL);
	differs_fill(run, h);
	if (!n)
		return 0;
	k = calloc(n, sizeof(*k));
	if (!k)
		return -ENOMEM;
	candidates_collect(run, k);
	c.k = k;
	c.n = n;
	for (i = 0; i < n; i++)
		h->total_s += k[i].sum_s;
	qsort(k, n, sizeof(*k), by_wall_desc);
	for (i = 0; i < n; i++)
		n_verified += k[i].weight >= 3;
	/* the lines left for rows once the others have theirs */
	c.max_lines = HEADLINE_MAX_LINES - HEADLINE_FIXED_LINES -
		      (n_verified < HEADLINE_MAX_VERIFIED ?
			       n_verified :
			       HEADLINE_MAX_VERIFIED) -
		      h->n_differs;
	/* confirmed advice, advice re-run, then the phases that took the
	 * time, then every phase a warning explains, each the largest first */
	for (w = 4; w >= 3; w--)
		for (i = 0; i < n; i++)
			if (k[i].weight == w)
				choose(&c, i);
	for (i = 0; i < n && covered < HEADLINE_TIME_COVERED * h->total_s; i++)
		if (choose(&c, i))
			covered += k[i].sum_s;
	for (i = 0; i < n; i++)
		if (k[i].weight == 2)
			choose(&c, i);
	h->n_phases_all = n;
	for (i = 0; i < n; i++) {
		if (!k[i].chosen) {
			h->left_out++;
			h->left_out_s += k[i].sum_s;
			continue;
		}
		row_fill(run, &k[i], h->total_s, &h->rows[h->n_rows]);
		h->rows[h->n_rows].weight = k[i].weight;
		if (k[i].weight >= 3)
			h->verified[h->n_verified++] = h->n_rows;
		h->n_rows++;
	}
	free(k);
	verified_sort(h);
	return 0;
}

void headline_speedup(const struct finding *f, char *buf, size_t len)
{
	const struct verification *v = f ? &f->verified : NULL;

	if (!v || !v->done || v->ratio <= 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (v->ratio >= 1)
		snprintf(buf, len, "%.2fx faster (95%% CI %.2fx-%.2fx, %s)",
			 v->ratio, v->ci_lo, v->ci_hi, v->verdict);
	else
		snprintf(buf, len, "%.2fx slower (95%% CI %.2fx-%.2fx, %s)",
			 1 / v->ratio, v->ci_lo, v->ci_hi, v->verdict);
}

bool headline_row_same(const struct headline_row *a,
		       const struct headline_row *b)
{
	if (strcmp(a->workload, b->workload) || strcmp(a->phase, b->phase))
		return false;
	if (!a->finding || !b->finding)
		return !a->finding && !b->finding && a->bound && b->bound &&
		       !strcmp(a->bound, b->bound);
	return !strcmp(a->finding->rule, b->finding->rule);
}

bool headline_row_first(const struct headline *h, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (headline_row_same(&h->rows[j], &h->rows[i]))
			return false;
	return true;
}
