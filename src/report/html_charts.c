// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/html_charts.h"
#include "results/budget_parts.h"
#include "util/histogram.h"

#define BUDGET_CAUSES 5

/* an IO class keeps its colour in every chart */
static const struct {
	enum blk_ioclass cls;
	const char *series; /* the timeline's series */
	const char *colour;
} io_classes[] = {
	{ BLK_IOC_DATA_READ, "block.data_read_bytes", "#56B4E9" },
	{ BLK_IOC_DATA_WRITE, "block.data_write_bytes", "#0072B2" },
	{ BLK_IOC_META_READ, "block.meta_read_bytes", "#CC79A7" },
	{ BLK_IOC_META_WRITE, "block.meta_write_bytes", "#E69F00" },
	{ BLK_IOC_LOG_READ, "block.log_read_bytes", "#F0E442" },
	{ BLK_IOC_LOG_WRITE, "block.log_write_bytes", "#D55E00" },
};
#define N_IO_CLASSES (sizeof(io_classes) / sizeof(io_classes[0]))

static bool same_workload(const struct summary_group *a,
			  const struct summary_group *b)
{
	return !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params);
}

/* categories = phases of the first group, a series per target */
static void workload_chart(FILE *out, const struct summary *sum,
			   unsigned int first, const char *metric,
			   struct bar_chart *ch, double scale)
{
	const struct summary_group *g0 = &sum->groups[first];
	unsigned int i, p;

	ch->n_cats = g0->n_phases < CHART_MAX_CATS ? g0->n_phases :
						     CHART_MAX_CATS;
	for (p = 0; p < ch->n_cats; p++)
		ch->cats[p] = g0->phases[p].name;
	for (i = first; i < sum->n && ch->n_series < CHART_MAX_SERIES; i++) {
		const struct summary_group *g = &sum->groups[i];
		struct chart_series *s;

		if (!same_workload(g, g0))
			continue;
		s = &ch->series[ch->n_series++];
		s->name = g->target_name;
		for (p = 0; p < ch->n_cats && p < g->n_phases; p++) {
			const struct stats *st =
				summary_stat(&g->phases[p], metric);

			s->v[p] = st ? st->mean / scale : 0;
		}
	}
	/* a rate: only the phases that had some */
	if (strcmp(metric, "wall_ns"))
		chart_bars_drop_empty(ch);
	chart_bars(out, ch);
}

static bool workload_has(const struct summary *sum, unsigned int first,
			 const char *metric)
{
	unsigned int i, p;

	for (i = first; i < sum->n; i++) {
		const struct summary_group *g = &sum->groups[i];

		if (!same_workload(g, &sum->groups[first]))
			continue;
		for (p = 0; p < g->n_phases; p++) {
			const struct stats *st =
				summary_stat(&g->phases[p], metric);

			if (st && st->mean > 0)
				return true;
		}
	}
	return false;
}

void html_charts_workload(FILE *out, const struct summary *sum,
			  unsigned int first)
{
	const struct summary_group *g0 = &sum->groups[first];
	struct bar_chart *ch = calloc(1, sizeof(*ch));
	char title[128];

	if (!ch)
		return;
	snprintf(title, sizeof(title), "%s: wall time per phase%s",
		 g0->workload, g0->repeats > 1 ? " (mean of repeats)" : "");
	ch->title = title;
	ch->x_label = "phase";
	ch->y_label = "wall time (s)";
	ch->unit = "s";
	workload_chart(out, sum, first, "wall_ns", ch, 1e9);
	memset(ch, 0, sizeof(*ch));
	ch->x_label = "phase";
	ch->title = title;
	if (workload_has(sum, first, "mb_per_s")) {
		snprintf(title, sizeof(title),
			 "%s: workload throughput per phase", g0->workload);
		ch->y_label = "throughput (MB/s, 10^6 bytes)";
		ch->unit = "MB/s";
		workload_chart(out, sum, first, "mb_per_s", ch, 1);
	} else if (workload_has(sum, first, "files_per_s")) {
		snprintf(title, sizeof(title), "%s: files per second per phase",
			 g0->workload);
		ch->y_label = "throughput (files/s)";
		ch->unit = "files/s";
		workload_chart(out, sum, first, "files_per_s", ch, 1);
	}
	free(ch);
}

/* the off-CPU causes with the most time over the case's phases */
static unsigned int budget_causes(const struct case_result *c,
				  const char **names, unsigned int max)
{
	uint64_t total[BUDGET_CAUSES] = { 0 };
	unsigned int n = 0, i, j, k;

	for (i = 0; i < c->n_phases; i++) {
		const struct metric_set *m = &c->phases[i].metrics;

		for (j = 0; j < m->n; j++) {
			const char *cause = m->v[j].name;
			uint64_t v = m->v[j].value;

			if (strncmp(cause, BUDGET_OFFCPU_PREFIX,
				    strlen(BUDGET_OFFCPU_PREFIX)) ||
			    !v)
				continue;
			cause += strlen(BUDGET_OFFCPU_PREFIX);
			for (k = 0; k < n && strcmp(names[k], cause); k++)
				;
			if (k < n) {
				total[k] += v;
			} else if (n < max) {
				names[n] = cause;
				total[n++] = v;
			}
		}
	}
	/* largest first */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && total[j] > total[j - 1]; j--) {
			const char *t = names[j];
			uint64_t tv = total[j];

			names[j] = names[j - 1];
			total[j] = total[j - 1];
			names[j - 1] = t;
			total[j - 1] = tv;
		}
	return n;
}

static double share_pct(const struct metric_set *m, const char *name,
			double wall)
{
	return wall > 0 ? 100.0 * (double)metric_value(m, name) / wall : 0;
}

/*
 * A cause keeps its colour in every chart where it can: the common ones
 * have their own; another, or one whose colour is taken in this chart,
 * gets the first palette colour still free.
 */
static const char *cause_colour(const struct bar_chart *ch, unsigned int upto,
				const char *cause)
{
	static const struct {
		const char *cause, *colour;
	} fixed[] = {
		{ "journal_commit", "#D55E00" },
		{ "xfs_log_force", "#D55E00" },
		{ "btrfs_log_sync", "#D55E00" },
		{ "writeback_wait", "#E69F00" },
		{ "dirty_throttle", "#E69F00" },
		{ "read_io", "#009E73" },
		{ "runqueue", "#56B4E9" },
		{ "xfs_buf_lock", "#CC79A7" },
		{ "journal_space", "#CC79A7" },
		{ "xfs_log_space", "#CC79A7" },
		{ "other", "#F0E442" },
	};
	unsigned int i, k;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (strcmp(fixed[i].cause, cause))
			continue;
		for (k = 0; k < upto; k++)
			if (!strcmp(ch->series[k].colour, fixed[i].colour))
				break;
		if (k == upto)
			return fixed[i].colour;
	}
	for (i = 1; i < 8; i++) {
		for (k = 0; k < upto; k++)
			if (!strcmp(ch->series[k].colour, chart_colour(i)))
				break;
		if (k == upto)
			return chart_colour(i);
	}
	return chart_colour(upto);
}

/*
 * stacked: on-CPU, the top off-CPU causes, the rest, unaccounted, and the
 * time taken on its CPUs (stolen, irq) where the kernel keeps it apart
 */
static bool chart_budget(FILE *out, const struct case_result *c,
			 struct bar_chart *ch, char *title, size_t len)
{
	const char *causes[BUDGET_CAUSES * 4];
	unsigned int taken[BUDGET_TAKEN_NR], n_taken = 0;
	unsigned int n, i, k, t, measured = 0;
	char name[METRIC_NAME_LEN + 16];

	n = budget_causes(c, causes, BUDGET_CAUSES * 4);
	if (n > BUDGET_CAUSES)
		n = BUDGET_CAUSES;
	snprintf(title, len, "%s on %.40s: where the time went (time budget)",
		 c->workload, case_target_name(c));
	ch->title = title;
	ch->x_label = "phase";
	ch->y_label = "share of wall time (%)";
	ch->unit = "%";
	ch->stacked = true;
	ch->y_max = 100;
	ch->n_series = n + 3;
	ch->series[0].name = "on CPU";
	ch->series[0].colour = chart_colour(0);
	for (k = 0; k < n; k++) {
		ch->series[k + 1].name = causes[k];
		ch->series[k + 1].colour = cause_colour(ch, k + 1, causes[k]);
	}
	ch->series[n + 1].name = "other off-CPU";
	ch->series[n + 1].colour = cause_colour(ch, n + 1, "");
	ch->series[n + 2].name = "unaccounted";
	ch->series[n + 2].colour = "#999999";
	/* the parts taken from the workload on its CPUs, where measured */
	for (t = 0; t < BUDGET_TAKEN_NR; t++) {
		for (i = 0; i < c->n_phases; i++)
			if (metric_find(&c->phases[i].metrics,
					budget_taken_parts[t].metric))
				break;
		if (i == c->n_phases || ch->n_series == CHART_MAX_SERIES)
			continue;
		taken[n_taken++] = t;
		ch->series[ch->n_series].name = budget_taken_parts[t].label;
		ch->series[ch->n_series].colour = t ? "#bbbbbb" : "#666666";
		ch->n_series++;
	}
	for (i = 0; i < c->n_phases && i < CHART_MAX_CATS; i++) {
		const struct metric_set *m = &c->phases[i].metrics;
		double wall = (double)metric_value(m, "sched.wall_ns"), top = 0;

		ch->cats[ch->n_cats++] = c->phases[i].name;
		if (!metric_find(m, "sched.wall_ns"))
			continue;
		measured++;
		ch->series[0].v[i] = share_pct(m, "sched.oncpu_ns", wall);
		for (k = 0; k < n; k++) {
			snprintf(name, sizeof(name), BUDGET_OFFCPU_PREFIX "%s",
				 causes[k]);
			ch->series[k + 1].v[i] = share_pct(m, name, wall);
			top += ch->series[k + 1].v[i];
		}
		ch->series[n + 1].v[i] =
			share_pct(m, "sched.offcpu_ns", wall) - top;
		/* rounding leaves a residue of 1e-14 where the causes are all */
		if (ch->series[n + 1].v[i] < 0.01)
			ch->series[n + 1].v[i] = 0;
		ch->series[n + 2].v[i] =
			share_pct(m, "sched.unaccounted_ns", wall);
		for (t = 0; t < n_taken; t++)
			ch->series[n + 3 + t].v[i] = share_pct(
				m, budget_taken_parts[taken[t]].metric, wall);
	}
	if (!measured)
		return false;
	/* thread time of several tasks can add up to more than wall */
	for (i = 0; i < ch->n_cats; i++) {
		double sum = 0;

		for (k = 0; k < ch->n_series; k++)
			sum += ch->series[k].v[i];
		if (sum > ch->y_max * 1.001)
			ch->y_max = ceil(sum / 25) * 25;
	}
	chart_bars(out, ch);
	return true;
}

/* stacked bytes by IO class per phase */
static bool chart_io_classes(FILE *out, const struct case_result *c,
			     struct bar_chart *ch, char *title, size_t len)
{
	unsigned int i, k, j;
	bool any = false;

	snprintf(title, len, "%s on %.40s: device IO by class", c->workload,
		 case_target_name(c));
	ch->title = title;
	ch->x_label = "phase";
	ch->y_label = "bytes issued to the device (MB)";
	ch->unit = "MB";
	ch->stacked = true;
	ch->n_series = N_IO_CLASSES;
	for (k = 0; k < N_IO_CLASSES; k++) {
		ch->series[k].name = blk_ioclass_name(io_classes[k].cls);
		ch->series[k].colour = io_classes[k].colour;
	}
	for (i = 0; i < c->n_phases && i < CHART_MAX_CATS; i++) {
		const struct block_result *b = &c->phases[i].block;

		ch->cats[ch->n_cats++] = c->phases[i].name;
		for (j = 0; j < b->n_io; j++)
			for (k = 0; k < N_IO_CLASSES; k++)
				if (b->io[j].ioclass == io_classes[k].cls) {
					ch->series[k].v[i] +=
						(double)b->io[j].r.bytes / 1e6;
					any |= b->io[j].r.bytes > 0;
				}
	}
	if (!any)
		return false;
	chart_bars(out, ch);
	return true;
}

/* "524 us", "2.1 ms": a power-of-two bucket's lower bound */
static void bucket_label(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		double div;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	unsigned int i = 0;

	while (i + 1 < 4 && (double)ns < units[i].div)
		i++;
	snprintf(buf, len, "%.3g %s", (double)ns / units[i].div, units[i].unit);
}

/* block request latency (issue -> complete), a series per phase */
static bool chart_latency(FILE *out, const struct case_result *c,
			  struct bar_chart *ch, char *title, size_t len,
			  char (*labels)[16])
{
	unsigned int lo = HIST_LOG2_BUCKETS, hi = 0, p, k, b;
	uint64_t fold[HIST_LOG2_BUCKETS];

	/* power-of-two buckets, as bcc's log2 histograms */
	for (p = 0; p < c->n_phases; p++) {
		struct block_class_result all;

		block_result_total(&c->phases[p].block, &all);
		hist_fold_log2(all.lat.slot, HIST_NSLOTS, fold);
		for (k = 0; k < HIST_LOG2_BUCKETS; k++) {
			if (!fold[k])
				continue;
			lo = k < lo ? k : lo;
			hi = k > hi ? k : hi;
		}
	}
	if (lo > hi)
		return false;
	if (hi - lo + 1 > CHART_MAX_CATS)
		lo = hi + 1 - CHART_MAX_CATS;
	snprintf(title, len,
		 "%s on %.40s: block IO latency (issue to complete)",
		 c->workload, case_target_name(c));
	ch->title = title;
	ch->x_label = "latency, at least (power-of-two buckets)";
	ch->y_label = "requests";
	ch->unit = "requests";
	ch->n_cats = hi - lo + 1;
	for (b = 0; b < ch->n_cats; b++) {
		bucket_label(hist_log2_low(lo + b), labels[b], 16);
		ch->cats[b] = labels[b];
	}
	for (p = 0; p < c->n_phases && ch->n_series < CHART_MAX_SERIES; p++) {
		struct block_class_result all;
		struct chart_series *ser;

		block_result_total(&c->phases[p].block, &all);
		if (!all.lat.count)
			continue;
		ser = &ch->series[ch->n_series++];
		ser->name = c->phases[p].name;
		hist_fold_log2(all.lat.slot, HIST_NSLOTS, fold);
		for (k = lo; k <= hi; k++)
			ser->v[k - lo] = (double)fold[k];
	}
	chart_bars(out, ch);
	return true;
}

/* the event times of kind in phase p, seconds since the phase started */
static unsigned int marker_times(const struct case_result *c,
				 const struct phase_result *p,
				 unsigned int kind, double **out)
{
	unsigned int n = 0;
	size_t i;

	*out = calloc(c->events.n ? c->events.n : 1, sizeof(double));
	if (!*out)
		return 0;
	for (i = 0; i < c->events.n; i++) {
		const struct event_record *e = &c->events.v[i];

		/* a log force fires twice: draw the caller's half only */
		if (e->kind != kind || e->phase != p->id ||
		    (kind == FSPROF_EV_XFS_LOG_FORCE &&
		     !strcmp(e->s[0], "cil")))
			continue;
		if (e->t_ns < p->start_mono_ns)
			continue;
		(*out)[n++] = (double)(e->t_ns - p->start_mono_ns) / 1e9;
	}
	return n;
}

/* bytes by class over the phase, in MB/s per bin */
static bool chart_timeline(FILE *out, const struct case_result *c,
			   const struct phase_result *p)
{
	const struct series_set *set = &p->timeline;
	unsigned int bins = series_set_bins(set), k, b;
	double *v[N_IO_CLASSES] = { NULL }, *commits, *forces;
	double bin_s = (double)set->bin_ns / 1e9;
	struct line_chart ch;
	char title[256];
	bool any = false;

	if (!set->bin_ns || bins < 2)
		return false;
	memset(&ch, 0, sizeof(ch));
	for (k = 0; k < N_IO_CLASSES; k++) {
		const struct series *s = series_find(set, io_classes[k].series);

		if (!s || !series_sum(s))
			continue;
		v[k] = calloc(s->n, sizeof(double));
		if (!v[k])
			continue;
		for (b = 0; b < s->n; b++)
			v[k][b] = (double)s->v[b] / bin_s / 1e6;
		ch.series[ch.n_series++] = (struct line_series){
			blk_ioclass_name(io_classes[k].cls),
			io_classes[k].colour, s->n, v[k]
		};
		any = true;
	}
	if (any) {
		snprintf(title, sizeof(title),
			 "%s on %.40s, phase %s: device IO over time",
			 c->workload, case_target_name(c), p->name);
		ch.title = title;
		ch.x_label = "time since the phase started (s)";
		ch.y_label = "issued (MB/s, per bin)";
		ch.dx = bin_s;
		ch.x_max = bin_s * bins;
		ch.markers[0] = (struct chart_markers){
			"jbd2 commit", "#000000",
			marker_times(c, p, FSPROF_EV_JBD2_COMMIT, &commits),
			commits
		};
		ch.markers[1] = (struct chart_markers){
			"xfs log force", "#009E73",
			marker_times(c, p, FSPROF_EV_XFS_LOG_FORCE, &forces),
			forces
		};
		ch.n_markers = 2;
		chart_lines(out, &ch);
		free(commits);
		free(forces);
	}
	for (k = 0; k < N_IO_CLASSES; k++)
		free(v[k]);
	return any;
}

unsigned int html_charts_case(FILE *out, const struct case_result *c)
{
	struct bar_chart *ch = calloc(1, sizeof(*ch));
	char title[256], (*labels)[16] = calloc(CHART_MAX_CATS, 16);
	unsigned int n = 0, i;

	if (ch && labels) {
		n += chart_budget(out, c, ch, title, sizeof(title));
		memset(ch, 0, sizeof(*ch));
		n += chart_io_classes(out, c, ch, title, sizeof(title));
		memset(ch, 0, sizeof(*ch));
		n += chart_latency(out, c, ch, title, sizeof(title), labels);
		for (i = 0; i < c->n_phases; i++)
			n += chart_timeline(out, c, &c->phases[i]);
	}
	free(ch);
	free(labels);
	return n;
}
