// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "report/classic.h"
#include "report/wrap.h"

/* "7.5-8.6", "~21" or "184", in %.3g */
static void value_text(const struct classic_value *v, char *buf, size_t len)
{
	if (v->lo == v->hi)
		snprintf(buf, len, "%s%.3g", v->approx ? "~" : "", v->lo);
	else
		snprintf(buf, len, "%s%.3g-%.3g", v->approx ? "~" : "", v->lo,
			 v->hi);
}

/* our mean, "± half the interval" with repeats, "(n)"; "-" when not run */
static void ours_text(const struct stats *st, char *buf, size_t len)
{
	if (!st->n)
		snprintf(buf, len, "not run");
	else if (st->n < 2)
		snprintf(buf, len, "%.4g (1 run)", st->mean);
	else
		snprintf(buf, len, "%.4g ± %.2g (%u runs)", st->mean,
			 st->ci95_hi - st->mean, st->n);
}

static void figures_print(const struct classic_experiment *e, FILE *out)
{
	char target[CLASSIC_TARGET_LEN], orig[48], ours[64];
	unsigned int k;

	if (!e->n_figures)
		return;
	fprintf(out, "  %-16s %-24s %-8s %14s  %s\n", "phase", "target",
		"unit", "original", "ours (mean ± half the 95% CI)");
	for (k = 0; k < e->n_figures; k++) {
		const struct classic_figure *f = &e->figures[k];

		classic_target_first(f->target, target, sizeof(target));
		value_text(&f->orig, orig, sizeof(orig));
		ours_text(&f->ours, ours, sizeof(ours));
		fprintf(out, "  %-16s %-24.24s %-8s %14s  %s\n", f->phase,
			target, classic_metric_unit(f->metric), orig, ours);
	}
}

static void ratio_ours_text(const struct classic_ratio *r, char *buf,
			    size_t len)
{
	if (r->verdict == CLASSIC_NOT_RUN)
		snprintf(buf, len, "-");
	else if (r->has_ci)
		snprintf(buf, len, "%.3g (%.3g-%.3g)", r->ours, r->ci_lo,
			 r->ci_hi);
	else
		snprintf(buf, len, "%.3g", r->ours);
}

static void ratio_print(const struct classic_ratio *r, FILE *out)
{
	char orig[48], ours[64];
	unsigned int i;

	value_text(&r->orig, orig, sizeof(orig));
	ratio_ours_text(r, ours, sizeof(ours));
	fprintf(out, "  %-40.40s %14s %22s  %s\n", r->label, orig, ours,
		classic_verdict_name(r->verdict));
	if (r->note[0])
		text_hanging(out, 6, "    (%s)", r->note);
	if (r->verdict != CLASSIC_DIFFERS)
		return;
	text_hanging(out, 6,
		     "    the shape differs: ours %.3g, the original's %s; what differs today, from this run:",
		     r->ours, orig);
	for (i = 0; i < r->why.n; i++)
		text_hanging(out, 8, "    - %s", r->why.line[i]);
	if (!r->why.n)
		fprintf(out, "    - not explained\n");
}

static void experiment_print(const struct classic_experiment *e, FILE *out)
{
	unsigned int k;

	fprintf(out, "\n%s (%s): the original beside ours\n", e->workload,
		e->params);
	text_hanging(out, 4, "  source: %s", e->source);
	text_hanging(out, 4, "  it ran: %s", e->conditions);
	figures_print(e, out);
	if (!e->n_ratios)
		return;
	fprintf(out, "  %-40s %14s %22s  %s\n", "shape (ratio)", "original",
		"ours (95% CI)", "verdict");
	for (k = 0; k < e->n_ratios; k++)
		ratio_print(&e->ratios[k], out);
}

void report_classic(const struct run_result *run, FILE *out)
{
	unsigned int i;

	if (!run->classic.n)
		return;
	fprintf(out,
		"\nthe classic experiments: the originals' published figures beside ours. Their disks\n"
		"were not this machine's: compare shapes (ratios between targets), not times. A shape\n"
		"agrees when our 95%% interval meets the original's value or range.\n");
	for (i = 0; i < run->classic.n; i++)
		experiment_print(&run->classic.v[i], out);
}
