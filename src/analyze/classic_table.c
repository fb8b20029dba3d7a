// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/classic_table.h"
#include "util/tsv.h"

/* a non-negative number that is all of s */
static bool parse_number(const char *s, double *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	*out = strtod(s, &end);
	return end != s && !*end && isfinite(*out) && *out >= 0;
}

/* "184", "~21" or "7.5-8.6" */
static bool parse_value(const char *s, struct classic_value *v)
{
	const char *dash = strchr(s, '-');
	char lo[64];

	v->approx = s[0] == '~';
	if (v->approx)
		s++;
	if (!dash || v->approx) {
		if (!parse_number(s, &v->lo))
			return false;
		v->hi = v->lo;
		return true;
	}
	if ((size_t)(dash - s) >= sizeof(lo))
		return false;
	snprintf(lo, sizeof(lo), "%.*s", (int)(dash - s), s);
	return parse_number(lo, &v->lo) && parse_number(dash + 1, &v->hi) &&
	       v->lo <= v->hi;
}

static struct classic_experiment *find_experiment(struct classic_list *l,
						  const char *workload)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].workload, workload))
			return &l->v[i];
	return NULL;
}

static const struct classic_figure *
find_figure(const struct classic_experiment *e, const char *phase,
	    enum classic_metric m, const char *target)
{
	unsigned int i;

	for (i = 0; i < e->n_figures; i++)
		if (!strcmp(e->figures[i].phase, phase) &&
		    e->figures[i].metric == m &&
		    !strcmp(e->figures[i].target, target))
			return &e->figures[i];
	return NULL;
}

/* the fields every row kind shares a check of */
static const char *check_fields(const struct tsv_row *r, unsigned int want)
{
	unsigned int i;

	if (r->n != want)
		return "wrong number of tab-separated fields for its kind (experiment: 4, figure and ratio: 7)";
	for (i = 0; i < r->n; i++)
		if (!r->f[i][0])
			return "an empty field";
	return NULL;
}

static const char *add_experiment(struct classic_list *l, const struct tsv_row *r)
{
	struct classic_experiment *e;
	const char *why = check_fields(r, 4);

	if (why)
		return why;
	if (find_experiment(l, r->f[1]))
		return "the experiment is given twice";
	e = classic_list_add(l);
	if (!e)
		return "out of memory";
	snprintf(e->workload, sizeof(e->workload), "%s", r->f[1]);
	snprintf(e->source, sizeof(e->source), "%s", r->f[2]);
	snprintf(e->conditions, sizeof(e->conditions), "%s", r->f[3]);
	return NULL;
}

/* the experiment, phase and metric of a figure or ratio row */
static const char *row_head(struct classic_list *l, const struct tsv_row *r,
			    struct classic_experiment **e,
			    enum classic_metric *m)
{
	const char *why = check_fields(r, 7);

	if (why)
		return why;
	*e = find_experiment(l, r->f[1]);
	if (!*e)
		return "no experiment row of this workload above it";
	*m = classic_metric_parse(r->f[3]);
	if (*m == CLASSIC_METRIC_NR)
		return "the metric is not wall_s, mb_per_s, mib_per_s or files_per_s";
	if (strchr(r->f[2], '+') && *m != CLASSIC_WALL_S)
		return "phases are added (a+b) only for wall_s";
	if (strlen(r->f[2]) >= CLASSIC_PHASE_LEN ||
	    strlen(r->f[4]) >= CLASSIC_TARGET_LEN)
		return "a phase or target too long";
	return NULL;
}

static const char *add_figure(struct classic_list *l, const struct tsv_row *r)
{
	struct classic_experiment *e;
	struct classic_figure *f;
	enum classic_metric m;
	const char *why = row_head(l, r, &e, &m);

	if (why)
		return why;
	if (strcmp(r->f[6], classic_metric_unit(m)))
		return "the unit is not the metric's (wall_s: s, mb_per_s: MB/s, mib_per_s: MiB/s, files_per_s: files/s)";
	if (e->n_figures == CLASSIC_MAX_FIGURES)
		return "too many figures for one experiment";
	f = &e->figures[e->n_figures];
	if (!parse_value(r->f[5], &f->orig))
		return "the value is not N, ~N or LO-HI (LO <= HI)";
	snprintf(f->phase, sizeof(f->phase), "%s", r->f[2]);
	snprintf(f->target, sizeof(f->target), "%s", r->f[4]);
	f->metric = m;
	e->n_figures++;
	return NULL;
}

static const char *add_ratio(struct classic_list *l, const struct tsv_row *r)
{
	const struct classic_figure *num, *den;
	struct classic_experiment *e;
	struct classic_ratio *q;
	enum classic_metric m;
	const char *why = row_head(l, r, &e, &m);

	if (why)
		return why;
	if (strlen(r->f[5]) >= CLASSIC_TARGET_LEN)
		return "a target too long";
	num = find_figure(e, r->f[2], m, r->f[4]);
	den = find_figure(e, r->f[2], m, r->f[5]);
	if (!num || !den)
		return "a ratio of figures not given above it";
	if (den->orig.lo <= 0)
		return "a ratio over a figure of 0";
	if (e->n_ratios == CLASSIC_MAX_RATIOS)
		return "too many ratios for one experiment";
	q = &e->ratios[e->n_ratios++];
	snprintf(q->phase, sizeof(q->phase), "%s", r->f[2]);
	q->metric = m;
	snprintf(q->num, sizeof(q->num), "%s", r->f[4]);
	snprintf(q->den, sizeof(q->den), "%s", r->f[5]);
	snprintf(q->label, sizeof(q->label), "%s", r->f[6]);
	/* the widest ratio the original's ranges allow */
	q->orig.lo = num->orig.lo / den->orig.hi;
	q->orig.hi = num->orig.hi / den->orig.lo;
	q->orig.approx = num->orig.approx || den->orig.approx;
	return NULL;
}

static const char *parse_line(void *ctx, const struct tsv_row *r)
{
	struct classic_list *l = ctx;

	if (!strcmp(r->f[0], "experiment"))
		return add_experiment(l, r);
	if (!strcmp(r->f[0], "figure"))
		return add_figure(l, r);
	if (!strcmp(r->f[0], "ratio"))
		return add_ratio(l, r);
	return "a row is experiment, figure or ratio";
}

int classic_table_parse(const char *text, struct classic_list *l, char *err,
			size_t errlen)
{
	int ret;

	memset(l, 0, sizeof(*l));
	ret = tsv_each_row(text, parse_line, l, err, errlen);
	if (ret) {
		classic_list_free(l);
		return ret;
	}
	if (!l->n) {
		snprintf(err, errlen, "no experiment rows");
		return -EINVAL;
	}
	return 0;
}
