// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report/compare.h"
#include "report/format.h"
#include "report/wrap.h"
#include "results/summary.h"
#include "util/log.h"

/* "12.3 ± 0.4" or "12.3" for one sample; scale divides the values */
static void cell(const struct stats *st, double scale, const char *fmt,
		 char *buf, size_t len)
{
	char mean[32], half[32];

	if (!st || !st->n) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(mean, sizeof(mean), fmt, st->mean / scale);
	if (st->n < 2) {
		snprintf(buf, len, "%s", mean);
		return;
	}
	snprintf(half, sizeof(half), fmt, (st->ci95_hi - st->mean) / scale);
	snprintf(buf, len, "%s ± %s", mean, half);
}

/* column widths of the side-by-side table (kept within 100 columns) */
struct compare_cols {
	int phase, target;
};

#define TARGET_COL_MAX 16

/* a cell right-aligned in width columns; "±" is 2 bytes and 1 column */
static void compare_cell(FILE *out, const char *cell, int width)
{
	fprintf(out, " %*s", strstr(cell, "±") ? width + 1 : width, cell);
}

static void compare_row(const struct summary_group *g,
			const struct summary_phase *sp, bool first,
			const struct compare_cols *w, FILE *out)
{
	char wall[80], mbs[80], fps[80], cpu[80], wr[80], p99[80];
	const struct stats *lat = summary_stat(sp, "block.latency_p99_ns");

	cell(summary_stat(sp, "wall_ns"), 1e9, "%.3f", wall, sizeof(wall));
	if (summary_stat(sp, "wall_ns") &&
	    summary_stat(sp, "wall_ns")->mean < 0.5e9)
		strncat(wall, "*", sizeof(wall) - strlen(wall) - 1);
	cell(summary_stat(sp, "mb_per_s"), 1, "%.1f", mbs, sizeof(mbs));
	cell(summary_stat(sp, "files_per_s"), 1, "%.0f", fps, sizeof(fps));
	cell(summary_stat(sp, "cpu_percent"), 1, "%.1f", cpu, sizeof(cpu));
	cell(summary_stat(sp, "block.write_bytes"), 1e6, "%.1f", wr,
	     sizeof(wr));
	cell(lat, 1e6, "%.2f", p99, sizeof(p99));
	fprintf(out, "%-*s %-*.*s", w->phase, first ? sp->name : "", w->target,
		w->target, g->target_name);
	compare_cell(out, wall, 15);
	compare_cell(out, mbs, 13);
	compare_cell(out, fps, 12);
	compare_cell(out, cpu, 11);
	compare_cell(out, wr, 11);
	compare_cell(out, p99, 12);
	fputc('\n', out);
}

/* a metric worth a row: named by a domain, not the workload's own core */
static bool metric_row_wanted(const char *name)
{
	return strchr(name, '.') && strncmp(name, "workload.", 9) &&
	       strncmp(name, "block.", 6);
}

static bool same_workload(const struct summary_group *a,
			  const struct summary_group *b)
{
	return !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params);
}

/* the names some target has non-zero in phase ph, first-seen order */
static unsigned int metric_rows(const struct summary *sum, unsigned int first,
				unsigned int ph, const char **names,
				unsigned int max)
{
	unsigned int i, m, k, n = 0;

	for (i = first; i < sum->n; i++) {
		const struct summary_group *g = &sum->groups[i];

		if (!same_workload(g, &sum->groups[first]) || ph >= g->n_phases)
			continue;
		for (m = 0; m < g->phases[ph].n_metrics; m++) {
			const struct summary_metric *sm =
				&g->phases[ph].metrics[m];

			if (!metric_row_wanted(sm->name) || sm->st.mean == 0)
				continue;
			for (k = 0; k < n && strcmp(names[k], sm->name); k++)
				;
			if (k == n && n < max)
				names[n++] = sm->name;
		}
	}
	return n;
}

/* the named metrics of phase ph, a column per target (means) */
static void compare_metrics(const struct summary *sum, unsigned int first,
			    unsigned int ph, FILE *out)
{
	const struct summary_group *g0 = &sum->groups[first];
	const char *names[512];
	unsigned int n, r, i;
	char val[32];

	n = metric_rows(sum, first, ph, names, 512);
	if (!n)
		return;
	fprintf(out, "\n%-38s", g0->phases[ph].name);
	for (i = first; i < sum->n; i++)
		if (same_workload(&sum->groups[i], g0))
			fprintf(out, " %14.14s", sum->groups[i].target_name);
	fputc('\n', out);
	for (r = 0; r < n; r++) {
		fprintf(out, "  %-36s", names[r]);
		for (i = first; i < sum->n; i++) {
			const struct summary_group *g = &sum->groups[i];
			const struct stats *st = NULL;

			if (!same_workload(g, g0))
				continue;
			if (ph < g->n_phases)
				st = summary_stat(&g->phases[ph], names[r]);
			if (st)
				format_metric_value(names[r], st->mean, val,
						    sizeof(val));
			fprintf(out, " %14s", st ? val : "-");
		}
		fputc('\n', out);
	}
}

/* the phase column fits the longest phase, the target column its name */
static void compare_cols_size(const struct summary *sum, unsigned int first,
			      struct compare_cols *w)
{
	unsigned int i, p;

	w->phase = 5;
	w->target = 6;
	for (i = first; i < sum->n; i++) {
		const struct summary_group *g = &sum->groups[i];
		int n = (int)strlen(g->target_name);

		if (!same_workload(g, &sum->groups[first]))
			continue;
		if (n > w->target)
			w->target = n < TARGET_COL_MAX ? n : TARGET_COL_MAX;
		for (p = 0; p < g->n_phases; p++) {
			int len = (int)strlen(g->phases[p].name);

			if (len > w->phase)
				w->phase = len;
		}
	}
}

static void compare_workload(const struct summary *sum, unsigned int first,
			     FILE *out)
{
	const struct summary_group *g0 = &sum->groups[first];
	struct compare_cols w;
	unsigned int ph, i;

	fputc('\n', out);
	text_hanging(out, 2, "%s (%s), %u repeat%s per target%s", g0->workload,
		     g0->params, g0->repeats, g0->repeats == 1 ? "" : "s",
		     g0->repeats > 1 ?
			     ": mean ± half the 95% confidence interval" :
			     "");
	if (g0->fits_in_ram)
		fprintf(out,
			"size < 2xRAM: the page cache can hold this data\n");
	compare_cols_size(sum, first, &w);
	fprintf(out, "%-*s %-*s %15s %13s %12s %11s %11s %12s\n", w.phase,
		"phase", w.target, "target", "wall s", "MB/s", "files/s",
		"CPU %", "dev wr MB", "lat p99 ms");
	for (ph = 0; ph < g0->n_phases; ph++) {
		bool firstrow = true;

		for (i = first; i < sum->n; i++) {
			const struct summary_group *g = &sum->groups[i];

			if (strcmp(g->workload, g0->workload) ||
			    strcmp(g->params, g0->params) || ph >= g->n_phases)
				continue;
			compare_row(g, &g->phases[ph], firstrow, &w, out);
			firstrow = false;
		}
	}
	/* the full dump is for -v; the JSON always has everything */
	if (log_get_level() < LOG_VERBOSE)
		return;
	fprintf(out,
		"\nmetrics per phase (mean over repeats; zero everywhere: not shown)\n");
	for (ph = 0; ph < g0->n_phases; ph++)
		compare_metrics(sum, first, ph, out);
}

/*
 * The device model the cases ran under: one line when they all share it,
 * else one a target (a target's own model= in --fs)
 */
static void compare_device_models(const struct run_result *run, FILE *out)
{
	char model[DEVICE_MODEL_TEXT_LEN], first[DEVICE_MODEL_TEXT_LEN] = "";
	const struct case_result *c;
	bool same = true, any = false;
	unsigned int i, j;

	for (i = 0; i < run->n_cases; i++) {
		c = &run->cases[i];
		device_model_format(&c->target.model.m, model, sizeof(model));
		any |= device_model_active(&c->target.model.m);
		if (!i)
			snprintf(first, sizeof(first), "%s", model);
		same &= !strcmp(first, model);
	}
	if (!any)
		return;
	if (same) {
		fprintf(out, "device model: %s\n", first);
		return;
	}
	fprintf(out, "device models:\n");
	for (i = 0; i < run->n_cases; i++) {
		c = &run->cases[i];
		/* once a target, at its first case */
		for (j = 0; j < i; j++)
			if (!strcmp(case_target_name(&run->cases[j]),
				    case_target_name(c)))
				break;
		if (j < i)
			continue;
		fprintf(out, "  %s: %s\n", case_target_name(c),
			device_model_format(&c->target.model.m, model,
					    sizeof(model)));
	}
}

void report_compare(const struct run_result *run, FILE *out)
{
	struct summary sum;
	unsigned int i, j;

	if (summary_build(run, &sum))
		return;
	compare_device_models(run, out);
	for (i = 0; i < sum.n; i++) {
		/* one table per workload: start at its first group */
		for (j = 0; j < i; j++)
			if (!strcmp(sum.groups[j].workload,
				    sum.groups[i].workload) &&
			    !strcmp(sum.groups[j].params, sum.groups[i].params))
				break;
		if (j == i)
			compare_workload(&sum, i, out);
	}
	summary_free(&sum);
}
