// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "report/classic.h"
#include "report/wrap.h"

void classic_value_text(const struct classic_value *v, int digits, char *buf,
			size_t len)
{
	if (v->lo == v->hi)
		snprintf(buf, len, "%s%.*g", v->approx ? "~" : "", digits,
			 v->lo);
	else
		snprintf(buf, len, "%s%.*g-%.*g", v->approx ? "~" : "", digits,
			 v->lo, digits, v->hi);
}

void classic_ours_text(const struct stats *st, char *buf, size_t len)
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
	fprintf(out, "  %-16s %-24s %-8s %14s  %s\n", "phase", "target", "unit",
		"original", "ours (mean ± half the 95% CI)");
	for (k = 0; k < e->n_figures; k++) {
		const struct classic_figure *f = &e->figures[k];

		classic_target_first(f->target, target, sizeof(target));
		classic_value_text(&f->orig, 6, orig,
				   sizeof(orig)); /* as published */
		classic_ours_text(&f->ours, ours, sizeof(ours));
		fprintf(out, "  %-16s %-24.24s %-8s %14s  %s\n", f->phase,
			target, classic_metric_unit(f->metric), orig, ours);
	}
}

void classic_ratio_ours_text(const struct classic_ratio *r, char *buf,
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

/* a ratio's line; its note unless the ratio above said the same */
static void ratio_print(const struct classic_ratio *r,
			const struct classic_ratio *above, FILE *out)
{
	char orig[48], ours[64];
	unsigned int i;

	classic_value_text(&r->orig, 3, orig, sizeof(orig));
	classic_ratio_ours_text(r, ours, sizeof(ours));
	fprintf(out, "  %-40.40s %14s %24s  %s\n", r->label, orig, ours,
		classic_verdict_name(r->verdict));
	if (r->note[0] && (!above || strcmp(above->note, r->note)))
		text_hanging(out, 6, "    (%s)", r->note);
	if (r->verdict != CLASSIC_DIFFERS)
		return;
	text_hanging(
		out, 6,
		"    the shape differs: ours %.3g, the original's %s; what differs today, from this run:",
		r->ours, orig);
	for (i = 0; i < r->why.n; i++)
		text_hanging(out, 8, "    - %s", r->why.line[i]);
	if (!r->why.n)
		fprintf(out, "    - not explained\n");
}

static void experiment_print(const struct run_result *run,
			     const struct classic_experiment *e, FILE *out)
{
	char model[DEVICE_MODEL_TEXT_LEN];
	unsigned int k;

	fputc('\n', out);
	text_hanging(out, 2, "%s (%s): the original beside ours", e->workload,
		     e->params);
	text_hanging(out, 4, "  source: %s", e->source);
	text_hanging(out, 4, "  it ran: %s", e->conditions);
	text_hanging(
		out, 4,
		"  its targets: %s (what --suite classic runs without --fs)",
		e->targets);
	text_hanging(
		out, 4,
		"  ours ran: device model %s (phases under 0.5 s are too short to trust)",
		device_model_format(&run->cases[0].target.model.m, model,
				    sizeof(model)));
	figures_print(e, out);
	if (!e->n_ratios)
		return;
	fprintf(out, "  %-40s %14s %24s  %s\n", "shape (ratio)", "original",
		"ours (95% CI)", "verdict");
	for (k = 0; k < e->n_ratios; k++)
		ratio_print(&e->ratios[k], k ? &e->ratios[k - 1] : NULL, out);
}

void report_classic(const struct run_result *run, FILE *out)
{
	unsigned int i;

	if (!run->classic.n || !run->n_cases)
		return;
	fprintf(out,
		"\nthe classic experiments: the originals' published figures beside ours. Their disks\n"
		"were not this machine's: compare shapes (ratios between targets), not times. A shape\n"
		"agrees when our 95%% interval meets the original's value or range.\n");
	for (i = 0; i < run->classic.n; i++)
		experiment_print(run, &run->classic.v[i], out);
}
