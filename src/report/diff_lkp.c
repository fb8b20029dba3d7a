// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff in the layout of lkp-tests' compare (the 0-day robot's
 * reports, which kernel developers read): per pair a header naming what
 * is common and what is compared, then per metric
 *
 *   A-mean ±%stddev  %change  B-mean ±%stddev  fsprof effect lkp  metric
 *
 * the KPIs first (data/kpi.tsv), the columns as wide as lkp's. Our
 * verdict (Welch and Benjamini-Hochberg), the change's effect and lkp's
 * own criterion (compare/diff_lkp.c) sit between the numbers and the
 * name, so that the name stays last as in lkp (docs/diff.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/diff_report.h"

/* lkp's widths: a mean, a %change, a ±%stddev */
#define LKP_ABS_WIDTH 10
#define LKP_REL_WIDTH 10
#define LKP_ERR_WIDTH 6
/* lkp's rules: a stddev is shown above 2% of the mean; a change of a mean
 * of 0 is taken against 1e-100; a change of 100000% and more in %g */
#define LKP_STDDEV_SHOWN 2.0
#define LKP_ZERO_MEAN 1e-100
#define LKP_CHANGE_G 100000.0
#define LKP_RULE_WIDTH 89

/* a mean as lkp prints it: %.2f below 1000, %.4g above 1e8, else whole */
static void lkp_mean(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v)) /* absent on this side */
		snprintf(buf, len, "%*s", LKP_ABS_WIDTH, "-");
	else if (a < 1000)
		snprintf(buf, len, "%*.2f", LKP_ABS_WIDTH, v);
	else if (a > 1e8)
		snprintf(buf, len, "%*.4g", LKP_ABS_WIDTH, v);
	else
		snprintf(buf, len, "%*lld", LKP_ABS_WIDTH, (long long)v);
}

/* " ±  3%": the sample sd over the mean, whole percent, blank up to 2% */
static void lkp_stddev(char *buf, size_t len, const struct diff_side *s)
{
	double pct = s->mean != 0 ? 100 * s->sd / s->mean : s->sd;

	if (isnan(pct)) /* absent: blank, as a steady value's */
		pct = 0;
	if (pct > 999999) /* whole, and within a long long */
		pct = 999999;
	if (pct > LKP_STDDEV_SHOWN)
		snprintf(buf, len, " ±%*lld%%", LKP_ERR_WIDTH - 3,
			 (long long)pct);
	else
		snprintf(buf, len, "%*s", LKP_ERR_WIDTH, "");
}

/* "    +45.1% ": B's mean against A's, as lkp computes it */
static void lkp_change(char *buf, size_t len, const struct diff_metric *m)
{
	double a = m->a.mean != 0 ? m->a.mean : LKP_ZERO_MEAN;
	double pct = 100 * (m->b.mean - a) / a;

	if (isnan(pct)) /* a side without the value */
		snprintf(buf, len, "%*s  ", LKP_REL_WIDTH, "-");
	else if (fabs(pct) < LKP_CHANGE_G)
		snprintf(buf, len, "%+*.1f%% ", LKP_REL_WIDTH, pct);
	else
		snprintf(buf, len, "%+*.2g%% ", LKP_REL_WIDTH, pct);
}

const char *diff_lkp_verdict(const struct diff_metric *m)
{
	if (m->emulated_time)
		return "emulated";
	if (diff_verdict_is_change(m->verdict))
		return "changed";
	return diff_verdict_name(m->verdict);
}

const char *diff_lkp_effect(const struct diff_metric *m)
{
	switch (m->verdict) {
	case DIFF_BETTER:
		return "improvement";
	case DIFF_WORSE:
		return "regression";
	case DIFF_HIGHER:
		return "higher";
	case DIFF_LOWER:
		return "lower";
	default:
		return "-";
	}
}

/* lkp's criterion: "changed", "-" (not, or not judged), "<3" (too few) */
const char *diff_lkp_criterion(const struct diff_metric *m)
{
	if (m->verdict == DIFF_UNMEASURED)
		return "-";
	if (!m->lkp.enough)
		return "<3";
	return m->lkp.changed ? "changed" : "-";
}

void diff_lkp_line(const struct diff_metric *m, const char *name, char *buf,
		   size_t len)
{
	char a[32], a_sd[16], change[32], b[32], b_sd[16];

	lkp_mean(a, sizeof(a), m->a.mean);
	lkp_stddev(a_sd, sizeof(a_sd), &m->a);
	lkp_change(change, sizeof(change), m);
	lkp_mean(b, sizeof(b), m->b.mean);
	lkp_stddev(b_sd, sizeof(b_sd), &m->b);
	snprintf(buf, len, "%s%s%s%s%s  %-12s %-11s %-7s  %s", a, a_sd, change,
		 b, b_sd, diff_lkp_verdict(m), diff_lkp_effect(m),
		 diff_lkp_criterion(m), name);
}

/*
 * what the pair's sides differ in ("kernel", "target", "run"), A's and B's
 * values in full, and as the columns name them (a kernel by its release)
 */
struct compared {
	char keys[32];
	char a[4096 + 168], b[4096 + 168];
	char col_a[4096 + 168], col_b[4096 + 168];
};

/* "6.1.0-57-amd64 (linux-image-...)": the release, up to " (" */
static void release_of(const char *full, char *out, size_t len)
{
	const char *paren = strstr(full, " (");

	snprintf(out, len, "%.*s", paren ? (int)(paren - full) : (int)len,
		 full);
}

/* one side's value of the compared axes: "KERNEL/TARGET", either, or the run */
static void side_value(const char *kernel, const char *target, const char *run,
		       char *out, size_t len)
{
	if (kernel && target)
		snprintf(out, len, "%s/%s", kernel, target);
	else
		snprintf(out, len, "%s",
			 kernel ? kernel :
			 target ? target :
				  run);
}

static void compared(const struct diff_result *d, const struct diff_pair *p,
		     struct compared *c)
{
	bool kernel = d->kernel_variable || d->same_kernel_twice;
	bool target = strcmp(p->a_target, p->b_target) != 0;
	char ka[256], kb[256];

	snprintf(c->keys, sizeof(c->keys), "%s%s%s", kernel ? "kernel" : "",
		 kernel && target ? "/" : "", target ? "target" : "");
	if (!kernel && !target)
		snprintf(c->keys, sizeof(c->keys), "run");
	side_value(kernel ? d->a_kernel : NULL, target ? p->a_target : NULL,
		   d->a_name, c->a, sizeof(c->a));
	side_value(kernel ? d->b_kernel : NULL, target ? p->b_target : NULL,
		   d->b_name, c->b, sizeof(c->b));
	release_of(d->a_kernel, ka, sizeof(ka));
	release_of(d->b_kernel, kb, sizeof(kb));
	side_value(kernel ? ka : NULL, target ? p->a_target : NULL, d->a_name,
		   c->col_a, sizeof(c->col_a));
	side_value(kernel ? kb : NULL, target ? p->b_target : NULL, d->b_name,
		   c->col_b, sizeof(c->col_b));
}

/* lkp's group header: the common axes, the compared ones, two columns */
static void pair_header(const struct diff_result *d, const struct diff_pair *p,
			FILE *out)
{
	const int first = LKP_ABS_WIDTH + LKP_ERR_WIDTH;
	const int width = first + LKP_REL_WIDTH + 1;
	bool target = strcmp(p->a_target, p->b_target) != 0;
	struct compared c;

	compared(d, p, &c);
	fprintf(out, "%.*s\n", LKP_RULE_WIDTH,
		"================================================"
		"================================================");
	fprintf(out, "workload/params%s:\n  %s/%s%s%s\n\n",
		target ? "" : "/target", p->workload,
		p->params[0] ? p->params : "-", target ? "" : "/",
		target ? "" : p->a_target);
	fprintf(out, "%s:\n  %s (%u repeats)\n  %s (%u repeats)\n\n", c.keys,
		c.a, p->a_repeats, c.b, p->b_repeats);
	fprintf(out, "%*.*s %*.*s\n", first, first, c.col_a, width, width,
		c.col_b);
	fprintf(out, "%.*s %.*s\n", first, "------------------------------",
		width, "------------------------------");
	fprintf(out,
		"%*s%%stddev     %%change         %%stddev  "
		"%-12s %-11s %s\n",
		first - 7, "", "fsprof", "effect", "lkp");
	fprintf(out,
		"%*s\\          |                \\    "
		"%-12s %-11s %s\n",
		first - 3, "", "|", "|", "|");
}

/* shown: every KPI; another when either criterion calls it changed; -v all */
static bool shown(const struct diff_metric *m, bool verbose)
{
	return verbose || m->headline || m->lkp.changed ||
	       diff_verdict_is_change(m->verdict);
}

/* the pair's metrics of one kind (KPIs or not) as lkp lines */
static void pair_lines(const struct diff_pair *p, bool kpi, bool verbose,
		       FILE *out)
{
	unsigned int j, k;

	for (j = 0; j < p->n_phases; j++) {
		const struct diff_phase *ph = &p->phases[j];

		for (k = 0; k < ph->n_metrics; k++) {
			const struct diff_metric *m = &ph->metrics[k];
			char name[128], line[512];

			if (m->headline != kpi || !shown(m, verbose))
				continue;
			snprintf(name, sizeof(name), "%s.%s", ph->name,
				 m->name);
			diff_lkp_line(m, name, line, sizeof(line));
			fprintf(out, "%s\n", line);
		}
	}
}

/* how many metrics lkp's criterion calls changed, over every pair */
static unsigned int lkp_changed(const struct diff_result *d)
{
	unsigned int i, j, k, n = 0;

	for (i = 0; i < d->n_pairs; i++)
		for (j = 0; j < d->pairs[i].n_phases; j++) {
			const struct diff_phase *ph = &d->pairs[i].phases[j];

			for (k = 0; k < ph->n_metrics; k++)
				n += ph->metrics[k].lkp.changed;
		}
	return n;
}

void diff_report_lkp(const struct diff_result *d, bool verbose, FILE *out)
{
	unsigned int i;

	for (i = 0; i < d->n_pairs; i++) {
		pair_header(d, &d->pairs[i], out);
		pair_lines(&d->pairs[i], true, verbose, out);
		pair_lines(&d->pairs[i], false, verbose, out);
		fprintf(out, "\n");
	}
	for (i = 0; i < d->n_unpaired; i++)
		fprintf(out, "%s\n", d->unpaired[i]);
	fprintf(out,
		"fsprof: %u tests, false discovery rate %g%% (Benjamini-Hochberg): "
		"%u changed, %u same, %u inconclusive\n"
		"lkp: %u changed (ranges apart, 3 samples on a side at least, "
		"above 1%% for a KPI, 5%% otherwise)\n",
		d->n_tests, d->opt.alpha * 100, d->n_changed, d->n_same,
		d->n_inconclusive, lkp_changed(d));
	if (d->n_emulated_times)
		fprintf(out,
			"emulated (TCG): %u times not judged by fsprof "
			"(--time-verdicts judges them)\n",
			d->n_emulated_times);
	if (d->n_unmeasured)
		fprintf(out,
			"%u value(s) not measured on one side (a ratio's "
			"denominator of 0, a percentile of no samples): not "
			"judged\n",
			d->n_unmeasured);
	if (!verbose)
		fprintf(out, "(KPIs, and what either calls changed: -v shows "
			     "every metric)\n");
}
