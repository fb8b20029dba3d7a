// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/phase_values.h"
#include "results/summary.h"

/* one value per metric and phase, gathered across a group's cases */
struct sample_list {
	char name[PHASE_VALUE_NAME_LEN];
	unsigned int n;
	double *v;
};

struct sample_set {
	unsigned int n, cap;
	struct sample_list *lists;
};

static int sample_add(struct sample_set *s, const char *name, double value,
		      unsigned int max_values)
{
	struct sample_list *l = NULL;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->lists[i].name, name))
			l = &s->lists[i];
	if (!l) {
		if (s->n == s->cap) {
			unsigned int cap = s->cap ? s->cap * 2 : 64;
			struct sample_list *bigger =
				realloc(s->lists, cap * sizeof(*bigger));

			if (!bigger)
				return -ENOMEM;
			s->lists = bigger;
			s->cap = cap;
		}
		l = &s->lists[s->n++];
		memset(l, 0, sizeof(*l));
		snprintf(l->name, sizeof(l->name), "%s", name);
		l->v = calloc(max_values, sizeof(double));
		if (!l->v)
			return -ENOMEM;
	}
	if (l->n < max_values)
		l->v[l->n++] = value;
	return 0;
}

struct sample_ctx {
	struct sample_set *set;
	unsigned int max;
};

static int sample_value(void *ctx, const char *name, double value)
{
	struct sample_ctx *c = ctx;

	return sample_add(c->set, name, value, c->max);
}

static int sample_phase(struct sample_set *s, const struct phase_result *p,
			unsigned int max)
{
	struct sample_ctx ctx = { s, max };

	return phase_values(p, sample_value, &ctx) ? -ENOMEM : 0;
}

static int same_group(const struct case_result *a, const struct case_result *b)
{
	return !strcmp(a->target_label, b->target_label) &&
	       case_same_kernel(a, b) &&
	       !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params);
}

static void sample_set_free(struct sample_set *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		free(s->lists[i].v);
	free(s->lists);
	memset(s, 0, sizeof(*s));
}

static int summary_phase_fill(struct summary_phase *sp,
			      const struct sample_set *s)
{
	unsigned int i;

	sp->metrics = calloc(s->n ? s->n : 1, sizeof(*sp->metrics));
	if (!sp->metrics)
		return -ENOMEM;
	sp->cap = s->n;
	for (i = 0; i < s->n; i++) {
		struct summary_metric *m = &sp->metrics[sp->n_metrics++];

		snprintf(m->name, sizeof(m->name), "%s", s->lists[i].name);
		stats_compute(s->lists[i].v, s->lists[i].n, &m->st);
	}
	return 0;
}

/* every complete case like the first one, phase by phase */
static int summary_group_fill(const struct run_result *run,
			      const struct case_result *first,
			      struct summary_group *g)
{
	unsigned int ph, i;
	int err = 0;

	g->target_label = first->target_label;
	g->kernel = first->kernel.guest ? first->kernel.release : NULL;
	g->target_name = first->target_name[0] ? first->target_name :
						   first->target_label;
	if (g->kernel) {
		case_kernel_target_name(first, g->kernel_name,
					sizeof(g->kernel_name));
		g->target_name = g->kernel_name;
	}
	g->workload = first->workload;
	g->params = first->params;
	g->fits_in_ram = case_fits_in_ram(first);
	g->n_phases = first->n_phases;
	g->phases = calloc(first->n_phases ? first->n_phases : 1,
			   sizeof(*g->phases));
	if (!g->phases)
		return -ENOMEM;
	for (i = 0; i < run->n_cases; i++)
		if (run->cases[i].complete && same_group(first, &run->cases[i]))
			g->repeats++;
	for (ph = 0; ph < first->n_phases && !err; ph++) {
		struct sample_set set = { 0 };

		snprintf(g->phases[ph].name, sizeof(g->phases[ph].name), "%s",
			 first->phases[ph].name);
		for (i = 0; i < run->n_cases && !err; i++) {
			const struct case_result *c = &run->cases[i];

			if (c->complete && same_group(first, c) &&
			    ph < c->n_phases)
				err = sample_phase(&set, &c->phases[ph],
						   g->repeats);
		}
		if (!err)
			err = summary_phase_fill(&g->phases[ph], &set);
		sample_set_free(&set);
	}
	return err;
}

int summary_build(const struct run_result *run, struct summary *out)
{
	unsigned int i, j;
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->groups =
		calloc(run->n_cases ? run->n_cases : 1, sizeof(*out->groups));
	if (!out->groups)
		return -ENOMEM;
	for (i = 0; i < run->n_cases && !err; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->complete)
			continue;
		for (j = 0; j < i; j++)
			if (run->cases[j].complete &&
			    same_group(&run->cases[j], c))
				break;
		if (j < i)
			continue; /* its group is made already */
		err = summary_group_fill(run, c, &out->groups[out->n++]);
	}
	if (err)
		summary_free(out);
	return err;
}

void summary_free(struct summary *s)
{
	unsigned int i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->groups[i].n_phases; j++)
			free(s->groups[i].phases[j].metrics);
		free(s->groups[i].phases);
	}
	free(s->groups);
	memset(s, 0, sizeof(*s));
}

const struct stats *summary_stat(const struct summary_phase *p,
				 const char *name)
{
	unsigned int i;

	for (i = 0; i < p->n_metrics; i++)
		if (!strcmp(p->metrics[i].name, name))
			return &p->metrics[i].st;
	return NULL;
}
