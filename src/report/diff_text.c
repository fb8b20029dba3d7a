// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff as text: for each compared phase the wall time and
 * throughput change with its interval and verdict, then the three kernel
 * metrics that changed most (significantly), then findings seen on one
 * side only; the whole table of metrics with -v.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/diff_report.h"

#define TOP_MECHANISMS 3
#define TEXT_WIDTH 100
#define CONT_INDENT "              "

/*
 * Print a line of at most TEXT_WIDTH columns: a longer one is broken at
 * its last "; " or " (" that fits, and continues indented below.
 */
static void line_out(FILE *out, const char *line)
{
	size_t len = strlen(line), cut = 0, i;

	while (len > TEXT_WIDTH) {
		cut = 0;
		for (i = 1; i + 2 < TEXT_WIDTH && i + 1 < len; i++)
			if ((line[i] == ';' || line[i] == ' ') &&
			    line[i + 1] == (line[i] == ';' ? ' ' : '('))
				cut = i;
		if (!cut)
			break;
		fprintf(out, "%.*s\n" CONT_INDENT, (int)cut, line);
		line += cut + (line[cut] == ';' ? 2 : 1);
		len = strlen(line) + strlen(CONT_INDENT);
	}
	fprintf(out, "%s\n", line);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

void diff_format_value(const char *name, double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (isnan(v)) /* absent: a side without the value */
		snprintf(buf, len, "-");
	else if (!strcmp(name, "wall_ns"))
		snprintf(buf, len, "%.3f s", v / 1e9);
	else if (ends_with(name, "_ns") || strstr(name, "_ns."))
		snprintf(buf, len,
			 a >= 1e9 ? "%.2f s" :
			 a >= 1e6 ? "%.2f ms" :
				    "%.1f us",
			 a >= 1e9 ? v / 1e9 :
			 a >= 1e6 ? v / 1e6 :
				    v / 1e3);
	else if (ends_with(name, "_bytes") || !strcmp(name, "block.bytes") ||
		 !strcmp(name, "workload.bytes"))
		snprintf(buf, len, "%.1f MB", v / 1e6);
	else if (ends_with(name, "_per_s") || !strcmp(name, "cpu_percent"))
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
}

/* "x1.27 (CI x1.18-x1.36)", "+12" when A's mean is 0, "-" without a side */
static void change_text(const struct diff_metric *m, char *buf, size_t len)
{
	if (isnan(m->diff))
		snprintf(buf, len, "-");
	else if (!isnan(m->ratio) && m->has_ci)
		snprintf(buf, len, "x%.2f (x%.2f-x%.2f)", m->ratio,
			 fmax(0, (m->a.mean + m->ci_lo) / m->a.mean),
			 fmax(0, (m->a.mean + m->ci_hi) / m->a.mean));
	else if (!isnan(m->ratio))
		snprintf(buf, len, "x%.2f", m->ratio);
	else
		snprintf(buf, len, "%+.4g", m->diff);
}

/* one metric: name as shown, A -> B, the change with its CI, the verdict */
/*
 * Repeats a side that tell a change of twice the noise (its coefficient
 * of variation) from it, two-sided 95% and 80% power: n = 2 (1.96 +
 * 0.84)^2 / 2^2 = 3.9, one more for Student's t with so few: 5
 */
#define DIFF_REPEATS_FOR_TWICE_NOISE 5

/*
 * one run a side: nothing has an interval, so no line gets a verdict;
 * the report says so once (diff_report_text)
 */
static bool one_run_a_side;

static void metric_line_as(const struct diff_metric *m, const char *name,
			   const char *indent, FILE *out)
{
	char a[32], b[32], change[64];

	diff_format_value(m->name, m->a.mean, a, sizeof(a));
	diff_format_value(m->name, m->b.mean, b, sizeof(b));
	change_text(m, change, sizeof(change));
	char line[512];
	size_t len;

	len = (size_t)snprintf(
		line, sizeof(line), "%s%-30s %9s -> %-9s %-21s %s", indent,
		name, a, b, change,
		one_run_a_side ? "" : diff_verdict_name(m->verdict));
	if (one_run_a_side) {
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(out, "%s\n", line);
		return;
	}
	/* the note after the verdict, or below it when the line is full */
	if (m->note[0] && len + strlen(m->note) + 3 <= TEXT_WIDTH)
		fprintf(out, "%s (%s)\n", line, m->note);
	else if (m->note[0])
		fprintf(out, "%s\n" CONT_INDENT "(%s)\n", line, m->note);
	else
		fprintf(out, "%s\n", line);
}

static void metric_line(const struct diff_metric *m, const char *indent,
			FILE *out)
{
	metric_line_as(m, m->name, indent, out);
}

static const struct diff_metric *find(const struct diff_phase *ph,
				      const char *name)
{
	unsigned int i;

	for (i = 0; i < ph->n_metrics; i++)
		if (!strcmp(ph->metrics[i].name, name))
			return &ph->metrics[i];
	return NULL;
}

static bool changed(const struct diff_metric *m)
{
	return diff_verdict_is_change(m->verdict);
}

/* how far it moved, for ranking: |log ratio|, a change from 0 counts big */
static double moved(const struct diff_metric *m)
{
	if (isnan(m->ratio) || m->ratio <= 0)
		return 50;
	return fabs(log(m->ratio));
}

/* not mechanisms: the workload's own counts and the phase's wall again */
static bool is_mechanism(const struct diff_metric *m)
{
	return !m->headline && strncmp(m->name, "workload.", 9) &&
	       strncmp(m->name, "per_op.", 7) && strncmp(m->name, "self.", 5) &&
	       strcmp(m->name, "sched.wall_ns") &&
	       strcmp(m->name, "cpu_percent") && !ends_with(m->name, ".p50") &&
	       !ends_with(m->name, ".p99");
}

/*
 * A metric's family: its domain and first word ("ext4.da" of
 * "ext4.da_flush_blocks"), so that the top list shows three mechanisms,
 * not one mechanism's three counters.
 */
static size_t family_len(const char *name)
{
	const char *dot = strchr(name, '.');
	const char *us = dot ? strpbrk(dot + 1, "_.") : NULL;

	return us ? (size_t)(us - name) : strlen(name);
}

static bool same_family(const char *a, const char *b)
{
	size_t n = family_len(a);

	return n == family_len(b) && !strncmp(a, b, n);
}

/*
 * farthest moved first; of those alike (every change from or to 0 scores
 * the same), the stronger evidence (smaller q), then by name: qsort's order
 * of equals is unspecified, and the list must not change between two
 * renderings of one diff
 */
static int by_moved(const void *x, const void *y)
{
	const struct diff_metric *ma = *(const struct diff_metric *const *)x,
				 *mb = *(const struct diff_metric *const *)y;
	double a = moved(ma), b = moved(mb);
	double qa = isnan(ma->q) ? 2 : ma->q, qb = isnan(mb->q) ? 2 : mb->q;

	if (a != b)
		return a > b ? -1 : 1;
	if (qa != qb)
		return qa < qb ? -1 : 1;
	return strcmp(ma->name, mb->name);
}

static void mechanisms(const struct diff_phase *ph, FILE *out)
{
	const struct diff_metric **all;
	unsigned int i, k, n = 0, shown;

	all = calloc(ph->n_metrics ? ph->n_metrics : 1, sizeof(*all));
	if (!all)
		return;
	for (i = 0; i < ph->n_metrics; i++)
		if (is_mechanism(&ph->metrics[i]) && changed(&ph->metrics[i]))
			all[n++] = &ph->metrics[i];
	qsort(all, n, sizeof(*all), by_moved);
	for (i = 0, shown = 0; i < n && shown < TOP_MECHANISMS; i++) {
		for (k = 0; k < i; k++)
			if (same_family(all[k]->name, all[i]->name))
				break;
		if (k < i)
			continue;
		metric_line(all[i],
			    shown++ ? "           " : "  changed: ", out);
	}
	if (!n && !one_run_a_side)
		fprintf(out,
			"  changed: no kernel metric changed significantly\n");
	free(all);
}

/* the largest gap first; equal gaps by name (see by_moved) */
static int by_gap(const void *x, const void *y)
{
	const struct diff_hist *ha = *(const struct diff_hist *const *)x,
			       *hb = *(const struct diff_hist *const *)y;

	if (ha->ks_d != hb->ks_d)
		return ha->ks_d > hb->ks_d ? -1 : 1;
	return strcmp(ha->name, hb->name);
}

/* the distributions that differ most (all of them with -v) */
static void hists(const struct diff_phase *ph, bool verbose, FILE *out)
{
	const struct diff_hist **all;
	unsigned int i, n = 0;

	all = calloc(ph->n_hists ? ph->n_hists : 1, sizeof(*all));
	if (!all)
		return;
	for (i = 0; i < ph->n_hists; i++)
		if (verbose || ph->hists[i].differs)
			all[n++] = &ph->hists[i];
	qsort(all, n, sizeof(*all), by_gap);
	for (i = 0; i < n && (verbose || i < TOP_MECHANISMS); i++) {
		const struct diff_hist *h = all[i];
		char a50[32], b50[32], a99[32], b99[32], line[512];

		diff_format_value(h->name, h->p50_a, a50, sizeof(a50));
		diff_format_value(h->name, h->p50_b, b50, sizeof(b50));
		diff_format_value(h->name, h->p99_a, a99, sizeof(a99));
		diff_format_value(h->name, h->p99_b, b99, sizeof(b99));
		snprintf(line, sizeof(line),
			 "  %s %s: p50 %s -> %s; p99 %s -> %s; KS D %.2f%s",
			 i ? "            " : "distribution", h->name, a50, b50,
			 a99, b99, h->ks_d, h->differs ? ", differs" : "");
		line_out(out, line);
	}
	if (!verbose && n > TOP_MECHANISMS)
		fprintf(out, "  (%u more distributions differ: -v)\n",
			n - TOP_MECHANISMS);
	free(all);
}

/* the mechanisms per operation (results/per_op.c), each with its CI */
static void per_op(const struct diff_phase *ph, FILE *out)
{
	unsigned int i, shown = 0;

	for (i = 0; i < ph->n_metrics; i++)
		if (!strncmp(ph->metrics[i].name, "per_op.", 7))
			metric_line_as(
				&ph->metrics[i], ph->metrics[i].name + 7,
				shown++ ? "           " : "  per op:  ", out);
}

static void phase_text(const struct diff_phase *ph, bool verbose, FILE *out)
{
	static const char *const heads[] = { "wall_ns", "mb_per_s",
					     "files_per_s",
					     "block.latency_p99_ns" };
	unsigned int i;

	fprintf(out, " %s\n", ph->name);
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		const struct diff_metric *m = find(ph, heads[i]);

		if (m && (i == 0 || m->a.mean > 0 || m->b.mean > 0))
			metric_line(m, "           ", out);
	}
	per_op(ph, out);
	mechanisms(ph, out);
	if (ph->only_a[0])
		fprintf(out, "  findings only in A: %s\n", ph->only_a);
	if (ph->only_b[0])
		fprintf(out, "  findings only in B: %s\n", ph->only_b);
	hists(ph, verbose, out);
	if (verbose)
		for (i = 0; i < ph->n_metrics; i++)
			metric_line(&ph->metrics[i], "    ", out);
}

/* "noise floor 2% (--noise)" or "noise floors 0.1%-10% by metric kind" */
static void noise_text(const struct diff_result *d, char *buf, size_t len)
{
	double lo = INFINITY, hi = -INFINITY;
	unsigned int i, j, k;

	if (d->opt.noise_floor >= 0) {
		snprintf(buf, len, "noise floor %g%% (--noise)",
			 d->opt.noise_floor * 100);
		return;
	}
	for (i = 0; i < d->n_pairs; i++)
		for (j = 0; j < d->pairs[i].n_phases; j++)
			for (k = 0; k < d->pairs[i].phases[j].n_metrics; k++) {
				double f = d->pairs[i]
						   .phases[j]
						   .metrics[k]
						   .noise_floor;

				lo = fmin(lo, f);
				hi = fmax(hi, f);
			}
	if (lo > hi)
		snprintf(buf, len, "noise floors by metric kind");
	else
		snprintf(buf, len, "noise floors %g%%-%g%% by metric kind",
			 lo * 100, hi * 100);
}

void diff_report_text(const struct diff_result *d, bool verbose, FILE *out)
{
	char noise[64];
	unsigned int i, j;

	if (d->same_kernel_twice)
		fprintf(out,
			"the same kernel twice (A/A): every change is noise or drift\n  A: %s\n  B: %s\n",
			d->a_kernel, d->b_kernel);
	else if (d->kernel_variable)
		fprintf(out,
			"the kernel is the variable under test:\n  A: %s\n  B: %s\n",
			d->a_kernel, d->b_kernel);
	if (d->emulated)
		fprintf(out,
			"emulated (TCG): a guest's times are the emulator's, slower by a\n"
			"varying factor; %s.\n"
			"Counts and mechanisms per operation hold.\n\n",
			d->opt.time_verdicts ?
				"--time-verdicts: they are judged anyway" :
				"they are not judged (--time-verdicts judges them)");
	fprintf(out, "A: %s\nB: %s\n", d->a_name, d->b_name);
	one_run_a_side = d->n_pairs > 0;
	for (i = 0; i < d->n_pairs; i++)
		one_run_a_side &= d->pairs[i].a_repeats < 2 ||
				  d->pairs[i].b_repeats < 2;
	if (one_run_a_side)
		fprintf(out,
			"\none run a side: no spread to judge a change by, so nothing here can be\n"
			"decided; the lines give each side's one value. An interval needs --repeat 2\n"
			"or more on both sides; about %u a side tell a change of twice the noise from\n"
			"it (95%% confidence, 80%% power).\n",
			DIFF_REPEATS_FOR_TWICE_NOISE);
	if (d->n_setup)
		fprintf(out, "\nA and B differ in:\n");
	for (i = 0; i < d->n_setup; i++)
		fprintf(out, "  %-20s A: %s\n  %-20s B: %s%s\n",
			d->setup[i].what, d->setup[i].a, "", d->setup[i].b,
			d->setup[i].blocking ?
				"\n  ^ the phases are not comparable: refused (--allow-mismatch compares anyway)" :
				"");
	for (i = 0; i < d->n_pairs; i++) {
		const struct diff_pair *p = &d->pairs[i];

		fprintf(out,
			"\n%s (%s) on %s, %u repeat(s) -> %s, %u repeat(s)\n",
			p->workload, p->params, p->a_target, p->a_repeats,
			p->b_target, p->b_repeats);
		for (j = 0; j < p->n_phases; j++)
			phase_text(&p->phases[j], verbose, out);
	}
	for (i = 0; i < d->n_unpaired; i++)
		fprintf(out, "%s%s\n", i ? "" : "\n", d->unpaired[i]);
	noise_text(d, noise, sizeof(noise));
	if (one_run_a_side)
		fprintf(out, "\nnothing decided: one run a side (see above)\n");
	else
		fprintf(out,
			"\n%u tests, the false discovery rate held at %g%% over all of them\n"
			"(Benjamini-Hochberg); %s: %u changed, %u same, %u inconclusive\n",
			d->n_tests, d->opt.alpha * 100, noise, d->n_changed,
			d->n_same, d->n_inconclusive);
	if (d->n_emulated_times)
		fprintf(out,
			"%u emulated times not judged (TCG; --time-verdicts judges them)\n",
			d->n_emulated_times);
	if (d->n_unmeasured)
		fprintf(out,
			"%u value(s) not measured on one side (a ratio's denominator of 0, a percentile of no samples): not judged\n",
			d->n_unmeasured);
	if (d->opt.fail_above >= 0) {
		if (!d->n_failed)
			fprintf(out,
				"--fail-above %g%%: no headline metric is significantly worse by more\n",
				d->opt.fail_above * 100);
		else
			fprintf(out,
				"--fail-above %g%%: %u headline metric(s) significantly worse by more:\n",
				d->opt.fail_above * 100, d->n_failed);
		for (i = 0; i < d->n_failed && i < 8; i++)
			fprintf(out, "  %s\n", d->failed[i]);
	}
}
