// SPDX-License-Identifier: GPL-2.0
/*
 * Building a diff: the cases of A and B grouped (one workload on one target,
 * its repeats), groups paired, and each paired phase's metrics and
 * histograms tested (docs/diff.md).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff_int.h"
#include "compare/diff_stats.h"
#include "compare/kpi.h"
#include "results/per_op.h"
#include "results/phase_values.h"

#define GROUP_MAX_CASES 64

/* the complete cases of one workload, parameters and target */
struct group {
	const struct case_result *c[GROUP_MAX_CASES];
	unsigned int n;
	bool paired;
};

struct value {
	char name[PHASE_VALUE_NAME_LEN];
	double v;
};

struct value_vec {
	unsigned int n, cap;
	struct value *e;
};

static int vec_emit(void *ctx, const char *name, double v)
{
	struct value_vec *vec = ctx;

	if (vec->n == vec->cap) {
		unsigned int cap = vec->cap ? vec->cap * 2 : 128;
		struct value *bigger = realloc(vec->e, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		vec->e = bigger;
		vec->cap = cap;
	}
	snprintf(vec->e[vec->n].name, sizeof(vec->e[0].name), "%s", name);
	vec->e[vec->n++].v = v;
	return 0;
}

static const struct value *vec_find(const struct value_vec *vec,
				    const char *name)
{
	unsigned int i;

	for (i = 0; i < vec->n; i++)
		if (!strcmp(vec->e[i].name, name))
			return &vec->e[i];
	return NULL;
}

/* did the case measure name's domain at all ("jbd2." of "jbd2.commits")? */
static bool vec_has_domain(const struct value_vec *vec, const char *name)
{
	const char *dot = strchr(name, '.');
	unsigned int i;

	if (!dot)
		return false;
	for (i = 0; i < vec->n; i++)
		if (!strncmp(vec->e[i].name, name, (size_t)(dot - name + 1)))
			return true;
	return false;
}

static unsigned int groups_make(const struct run_result *run, struct group *g,
				unsigned int max)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->complete)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(g[j].c[0]->workload, c->workload) &&
			    !strcmp(g[j].c[0]->params, c->params) &&
			    !strcmp(g[j].c[0]->target_label, c->target_label) &&
			    case_same_kernel(g[j].c[0], c))
				break;
		if (j == n) {
			if (n == max)
				continue;
			memset(&g[n++], 0, sizeof(*g));
		}
		if (g[j].n < GROUP_MAX_CASES)
			g[j].c[g[j].n++] = c;
	}
	return n;
}

static int phase_index(const struct case_result *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n_phases; i++)
		if (!strcmp(c->phases[i].name, name))
			return (int)i;
	return -1;
}

/* a percentile of a distribution (phase_values): undefined without samples */
static bool is_percentile(const char *name)
{
	static const char *const ends[] = { ".p50", ".p99", "_p50_ns",
					    "_p99_ns" };
	size_t len = strlen(name), n;
	unsigned int i;

	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		n = strlen(ends[i]);
		if (len > n && !strcmp(name + len - n, ends[i]))
			return true;
	}
	return false;
}

/*
 * A value a case lacks because it could not be formed there - a ratio
 * whose denominator was 0, a percentile of no samples - never stands as 0
 */
static bool undefined_when_absent(const char *name)
{
	return per_op_is_ratio(name) || is_percentile(name);
}

/*
 * Could a case have had name? A count it lacks is 0 when the case measured
 * the count's domain at all ("jbd2." of "jbd2.commits"). A ratio it lacks
 * (per_op.*) was undefined there, its denominator 0 or unmeasured: no 0
 * stands in for it, but the case measured it when it measured the
 * ratio's domain ("ext4." of "per_op.ext4.da_extents_per_flush").
 */
static bool vec_measured(const struct value_vec *vec, const char *name)
{
	if (per_op_is_ratio(name))
		name += sizeof(PER_OP_PREFIX) - 1;
	return vec_has_domain(vec, name);
}

/* one side's values of name in a phase: absent counts as 0 (see above) */
static void side_stats(const struct value_vec *vecs, unsigned int n,
		       const char *name, struct diff_side *s)
{
	double sum = 0, sq = 0, v[GROUP_MAX_CASES];
	unsigned int i;

	s->n = 0;
	for (i = 0; i < n; i++) {
		const struct value *e = vec_find(&vecs[i], name);

		if (e)
			v[s->n++] = e->v;
		else if (!undefined_when_absent(name) &&
			 vec_has_domain(&vecs[i], name))
			v[s->n++] = 0;
	}
	if (!s->n) { /* nothing: absent, not 0 */
		s->mean = s->sd = NAN;
		s->lkp.min = s->lkp.mid = s->lkp.max = NAN;
		return;
	}
	for (i = 0; i < s->n; i++)
		sum += v[i];
	s->mean = sum / s->n;
	for (i = 0; i < s->n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = s->n > 1 ? sqrt(sq / (s->n - 1)) : 0;
	diff_lkp_side(v, s->n, &s->lkp);
}

/* did any of a side's n cases measure name (vec_measured)? */
static bool side_measured(const struct value_vec *vecs, unsigned int n,
			  const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (vec_measured(&vecs[i], name))
			return true;
	return false;
}

/* which way is better, and whether the metric is a KPI (data/kpi.tsv) */
static int metric_kind(struct diff_metric *m)
{
	const struct kpi_table *t = kpi_builtin();
	const struct kpi_row *row;

	if (!t)
		return -ENOMEM;
	row = kpi_lookup(t, m->name);
	m->dir = row->dir;
	m->headline = row->key;
	m->discrete = diff_materiality_floor(m->name, 0, 0) > 0;
	return 0;
}

static struct diff_metric *phase_metric_add(struct diff_phase *ph)
{
	if (ph->n_metrics == ph->metrics_cap) {
		unsigned int cap = ph->metrics_cap ? ph->metrics_cap * 2 : 64;
		struct diff_metric *bigger =
			realloc(ph->metrics, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		ph->metrics = bigger;
		ph->metrics_cap = cap;
	}
	memset(&ph->metrics[ph->n_metrics], 0, sizeof(ph->metrics[0]));
	return &ph->metrics[ph->n_metrics++];
}

struct sides {
	const struct value_vec *va, *vb;
	unsigned int na, nb;
};

/*
 * A ratio one side has and the other measured the domain of but could not
 * form (its denominator 0 there, or a count of it not measured): shown,
 * with no verdict and outside the tests
 */
static void metric_unmeasured(struct diff_metric *m)
{
	m->diff = m->ratio = NAN;
	m->p = m->q = m->noise_floor = NAN;
	m->ci_lo = m->ci_hi = NAN;
	m->lkp.ratio = m->lkp.min_ratio = NAN;
	m->verdict = DIFF_UNMEASURED;
	snprintf(
		m->note, sizeof(m->note),
		"not measured in %s: undefined there (a denominator of 0, no samples)",
		m->a.n ? "B" : "A");
}

/*
 * name's statistics on both sides into m: -ENOMEM; 1 when there is
 * nothing to compare (a side without it, or 0 throughout on both); 0
 */
static int metric_fill(struct diff_metric *m, const char *name,
		       const struct sides *s)
{
	snprintf(m->name, sizeof(m->name), "%s", name);
	side_stats(s->va, s->na, name, &m->a);
	side_stats(s->vb, s->nb, name, &m->b);
	if (metric_kind(m))
		return -ENOMEM;
	if (!m->a.n != !m->b.n && undefined_when_absent(name) &&
	    side_measured(m->a.n ? s->vb : s->va, m->a.n ? s->nb : s->na,
			  name)) {
		metric_unmeasured(m);
		return 0;
	}
	if (!m->a.n || !m->b.n ||
	    (m->a.mean == 0 && m->b.mean == 0 && m->a.sd == 0 && m->b.sd == 0))
		return 1;
	diff_welch(m);
	diff_lkp_judge(m);
	return 0;
}

static bool phase_has_metric(const struct diff_phase *ph, const char *name)
{
	unsigned int j;

	for (j = 0; j < ph->n_metrics; j++)
		if (!strcmp(ph->metrics[j].name, name))
			return true;
	return false;
}

static int phase_metrics(struct diff_phase *ph, const struct sides *s,
			 const struct diff_options *opt)
{
	unsigned int side, i, k;

	for (side = 0; side < 2; side++) {
		const struct value_vec *vecs = side ? s->vb : s->va;
		unsigned int n = side ? s->nb : s->na;

		for (i = 0; i < n; i++)
			for (k = 0; k < vecs[i].n; k++) {
				const char *name = vecs[i].e[k].name;
				struct diff_metric *m;
				int ret;

				if ((opt->metric_glob &&
				     fnmatch(opt->metric_glob, name, 0)) ||
				    phase_has_metric(ph, name))
					continue;
				m = phase_metric_add(ph);
				if (!m)
					return -ENOMEM;
				ret = metric_fill(m, name, s);
				if (ret < 0)
					return ret;
				if (ret)
					ph->n_metrics--; /* nothing to compare */
			}
	}
	return 0;
}

/* a histogram of phase ph merged over a side's cases; false if none has it */
static bool hist_merge(const struct group *g, const char *phase,
		       const char *name, struct latency_hist *out)
{
	unsigned int i;
	bool any = false;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < g->n; i++) {
		int p = phase_index(g->c[i], phase);
		const struct latency_hist *h =
			p < 0 ? NULL :
				metric_hist_find(&g->c[i]->phases[p].metrics,
						 name);

		if (h) {
			latency_hist_add(out, h);
			any = true;
		}
	}
	return any;
}

static int phase_hists(struct diff_phase *ph, const struct group *ga,
		       const struct group *gb, const struct diff_options *opt)
{
	const struct phase_result *first;
	unsigned int i;
	int p = phase_index(ga->c[0], ph->name);

	if (p < 0)
		return 0;
	first = &ga->c[0]->phases[p];
	for (i = 0; i < first->metrics.n_hists; i++) {
		const char *name = first->metrics.hists[i].name;
		struct latency_hist ha, hb;
		struct diff_hist *d;

		if (opt->metric_glob && fnmatch(opt->metric_glob, name, 0))
			continue;
		if (!hist_merge(ga, ph->name, name, &ha) ||
		    !hist_merge(gb, ph->name, name, &hb) || !ha.count ||
		    !hb.count)
			continue;
		if (ph->n_hists == ph->hists_cap) {
			unsigned int cap = ph->hists_cap ? ph->hists_cap * 2 :
							   8;
			struct diff_hist *bigger =
				realloc(ph->hists, cap * sizeof(*bigger));

			if (!bigger)
				return -ENOMEM;
			ph->hists = bigger;
			ph->hists_cap = cap;
		}
		d = &ph->hists[ph->n_hists++];
		memset(d, 0, sizeof(*d));
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->n_a = ha.count;
		d->n_b = hb.count;
		d->p50_a = latency_hist_percentile(&ha, 50);
		d->p50_b = latency_hist_percentile(&hb, 50);
		d->p99_a = latency_hist_percentile(&ha, 99);
		d->p99_b = latency_hist_percentile(&hb, 99);
		diff_ks(ha.slot, hb.slot, HIST_NSLOTS, &d->ks_d, &d->p);
	}
	return 0;
}

/* rule is one of the ", "-separated ids in list (as a whole id) */
bool diff_rule_listed(const char *list, const char *rule)
{
	size_t len = strlen(rule);
	const char *p = list;

	while (*p) {
		size_t tok = strcspn(p, ",");

		if (tok == len && !strncmp(p, rule, len))
			return true;
		p += tok;
		p += strspn(p, ", ");
	}
	return false;
}

/* rule ids of findings in one group's phase and in none of the other's */
static void findings_only(const struct group *g, const struct group *other,
			  const char *phase, char *out, size_t len)
{
	unsigned int i, j, k, o;

	out[0] = '\0';
	for (i = 0; i < g->n; i++) {
		int p = phase_index(g->c[i], phase);
		const struct finding_list *l;

		if (p < 0)
			continue;
		l = &g->c[i]->phases[p].findings;
		for (j = 0; j < l->n; j++) {
			const char *rule = l->v[j].rule;
			bool seen = false;

			if (l->v[j].severity == FINDING_OK)
				continue;
			for (o = 0; o < other->n && !seen; o++) {
				int q = phase_index(other->c[o], phase);

				if (q >= 0)
					for (k = 0;
					     k <
					     other->c[o]->phases[q].findings.n;
					     k++)
						if (!strcmp(other->c[o]
								    ->phases[q]
								    .findings
								    .v[k]
								    .rule,
							    rule))
							seen = true;
			}
			if (!seen && !diff_rule_listed(out, rule))
				snprintf(out + strlen(out), len - strlen(out),
					 "%s%s", out[0] ? ", " : "", rule);
		}
	}
}

static void vecs_free(struct value_vec *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(v[i].e);
}

static int pair_fill(struct diff_pair *pr, const struct group *ga,
		     const struct group *gb, const struct diff_options *opt)
{
	const struct case_result *a0 = ga->c[0], *b0 = gb->c[0];
	unsigned int ph, i;
	int err = 0;

	snprintf(pr->workload, sizeof(pr->workload), "%s", a0->workload);
	snprintf(pr->params, sizeof(pr->params), "%s", a0->params);
	snprintf(pr->a_target, sizeof(pr->a_target), "%s", a0->target_label);
	snprintf(pr->b_target, sizeof(pr->b_target), "%s", b0->target_label);
	pr->a_repeats = ga->n;
	pr->b_repeats = gb->n;
	pr->a_case = a0;
	pr->b_case = b0;
	pr->phases =
		calloc(a0->n_phases ? a0->n_phases : 1, sizeof(*pr->phases));
	if (!pr->phases)
		return -ENOMEM;
	for (ph = 0; ph < a0->n_phases && !err; ph++) {
		struct value_vec va[GROUP_MAX_CASES] = { 0 },
				 vb[GROUP_MAX_CASES] = { 0 };
		const char *name = a0->phases[ph].name;
		struct diff_phase *dp;

		if (phase_index(b0, name) < 0)
			continue;
		dp = &pr->phases[pr->n_phases++];
		snprintf(dp->name, sizeof(dp->name), "%s", name);
		for (i = 0; i < ga->n && !err; i++) {
			int p = phase_index(ga->c[i], name);

			if (p >= 0)
				err = phase_values(&ga->c[i]->phases[p],
						   vec_emit, &va[i]);
		}
		for (i = 0; i < gb->n && !err; i++) {
			int p = phase_index(gb->c[i], name);

			if (p >= 0)
				err = phase_values(&gb->c[i]->phases[p],
						   vec_emit, &vb[i]);
		}
		if (!err) {
			struct sides sd = { va, vb, ga->n, gb->n };

			err = phase_metrics(dp, &sd, opt);
		}
		if (!err)
			err = phase_hists(dp, ga, gb, opt);
		findings_only(ga, gb, name, dp->only_a, sizeof(dp->only_a));
		findings_only(gb, ga, name, dp->only_b, sizeof(dp->only_b));
		vecs_free(va, ga->n);
		vecs_free(vb, gb->n);
	}
	return err;
}

#define DIFF_MAX_GROUPS 64

/* same workload and target first; then the one left of a workload each side */
static int pairs_make(struct diff_result *d, struct group *ga, unsigned int na,
		      struct group *gb, unsigned int nb)
{
	unsigned int i, j, pass;
	int err;

	d->pairs = calloc(na ? na : 1, sizeof(*d->pairs));
	if (!d->pairs)
		return -ENOMEM;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < na; i++) {
			unsigned int left_a = 0, left_b = 0, match = nb;

			if (ga[i].paired)
				continue;
			for (j = 0; j < nb; j++) {
				if (gb[j].paired ||
				    strcmp(ga[i].c[0]->workload,
					   gb[j].c[0]->workload))
					continue;
				left_b++;
				if (pass == 0 &&
				    !strcmp(ga[i].c[0]->target_label,
					    gb[j].c[0]->target_label))
					match = j;
				if (pass == 1)
					match = j;
			}
			for (j = 0; j < na; j++)
				left_a += !ga[j].paired &&
					  !strcmp(ga[i].c[0]->workload,
						  ga[j].c[0]->workload);
			if (match == nb ||
			    (pass == 1 && (left_a != 1 || left_b != 1)))
				continue;
			ga[i].paired = gb[match].paired = true;
			err = pair_fill(&d->pairs[d->n_pairs++], &ga[i],
					&gb[match], &d->opt);
			if (err)
				return err;
		}
	for (i = 0; i < na + nb; i++) {
		const struct group *g = i < na ? &ga[i] : &gb[i - na];

		if (g->paired || d->n_unpaired == DIFF_UNPAIRED_MAX)
			continue;
		snprintf(d->unpaired[d->n_unpaired++], sizeof(d->unpaired[0]),
			 "only in %s: %s on %s", i < na ? "A" : "B",
			 g->c[0]->workload, g->c[0]->target_label);
	}
	return d->n_pairs ? 0 : -EINVAL;
}

int diff_build(const struct run_result *a, const struct run_result *b,
	       const struct diff_options *opt, struct diff_result *d)
{
	struct group *ga, *gb;
	unsigned int na, nb;
	int err = -ENOMEM;

	memset(d, 0, sizeof(*d));
	d->opt = *opt;
	ga = calloc(DIFF_MAX_GROUPS, sizeof(*ga));
	gb = calloc(DIFF_MAX_GROUPS, sizeof(*gb));
	if (ga && gb) {
		na = groups_make(a, ga, DIFF_MAX_GROUPS);
		nb = groups_make(b, gb, DIFF_MAX_GROUPS);
		err = pairs_make(d, ga, na, gb, nb);
	}
	free(ga);
	free(gb);
	if (!err) {
		diff_setup_compare(a, b, d);
		diff_kernels(d);
		err = diff_judge(d);
	}
	return err;
}

void diff_free(struct diff_result *d)
{
	unsigned int i, j;

	for (i = 0; i < d->n_pairs; i++) {
		for (j = 0; j < d->pairs[i].n_phases; j++) {
			free(d->pairs[i].phases[j].metrics);
			free(d->pairs[i].phases[j].hists);
		}
		free(d->pairs[i].phases);
	}
	free(d->pairs);
	memset(d, 0, sizeof(*d));
}
