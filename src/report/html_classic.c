// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>

#include "report/classic.h"
#include "report/html_classic.h"
#include "report/html_table.h"

/* <p><b>what:</b> text</p> */
static void html_labelled(FILE *out, const char *what, const char *text)
{
	fprintf(out, "<p><b>%s:</b> ", what);
	html_text(out, text);
	fputs("</p>\n", out);
}

static void html_classic_figures(const struct classic_experiment *e, FILE *out)
{
	static const struct html_cell heads[] = {
		HTML_TEXT("phase"), HTML_TEXT("target"), HTML_TEXT("unit"),
		HTML_NUM("original"), HTML_NUM("ours (mean ± half the 95% CI)")
	};
	char target[CLASSIC_TARGET_LEN], orig[48], ours[64];
	unsigned int k;

	if (!e->n_figures)
		return;
	html_table_start(out, heads, sizeof(heads) / sizeof(heads[0]));
	for (k = 0; k < e->n_figures; k++) {
		const struct classic_figure *f = &e->figures[k];
		const struct html_cell row[] = {
			HTML_TEXT(f->phase),
			HTML_CODE(target),
			HTML_TEXT(classic_metric_unit(f->metric)),
			HTML_NUM(orig),
			HTML_NUM(ours),
		};

		classic_target_first(f->target, target, sizeof(target));
		classic_value_text(&f->orig, 6, orig, sizeof(orig));
		classic_ours_text(&f->ours, ours, sizeof(ours));
		html_row(out, "td", row, sizeof(row) / sizeof(row[0]));
	}
	fputs("</table>\n", out);
}

/* the shape table: a row a ratio, its verdict a class of its own; a note
 * the row above has said already is not said again */
static void html_classic_shapes(const struct classic_experiment *e, FILE *out)
{
	static const struct html_cell heads[] = { HTML_TEXT("shape (ratio)"),
						  HTML_NUM("original"),
						  HTML_NUM("ours (95% CI)"),
						  HTML_TEXT("verdict"),
						  HTML_TEXT("note") };
	char orig[48], ours[64];
	unsigned int k;

	html_table_start(out, heads, sizeof(heads) / sizeof(heads[0]));
	for (k = 0; k < e->n_ratios; k++) {
		const struct classic_ratio *r = &e->ratios[k];
		const char *verdict = classic_verdict_name(r->verdict);
		bool said = k && !strcmp(e->ratios[k - 1].note, r->note);
		const struct html_cell row[] = {
			HTML_TEXT(r->label),
			HTML_NUM(orig),
			HTML_NUM(ours),
			{ verdict, HTML_CELL_TEXT,
			  r->verdict == CLASSIC_DIFFERS ? "differs" :
			  r->verdict == CLASSIC_AGREES	? "agrees" :
							  NULL },
			HTML_TEXT(said ? "" : r->note),
		};

		classic_value_text(&r->orig, 3, orig, sizeof(orig));
		classic_ratio_ours_text(r, ours, sizeof(ours));
		html_row(out, "td", row, sizeof(row) / sizeof(row[0]));
	}
	fputs("</table>\n", out);
}

/* under the table, each shape that differs: what differs today */
static void html_classic_why(const struct classic_experiment *e, FILE *out)
{
	char orig[48], line[256];
	unsigned int k, i;

	for (k = 0; k < e->n_ratios; k++) {
		const struct classic_ratio *r = &e->ratios[k];

		if (r->verdict != CLASSIC_DIFFERS)
			continue;
		classic_value_text(&r->orig, 3, orig, sizeof(orig));
		snprintf(
			line, sizeof(line),
			"the shape differs: ours %.3g, the original's %s; what differs today, from this run:",
			r->ours, orig);
		fputs("<div class=\"finding warning\"><b>", out);
		html_text(out, r->label);
		fputs("</b>: ", out);
		html_text(out, line);
		fputs("\n<ul>\n", out);
		for (i = 0; i < r->why.n; i++)
			html_el(out, "li", r->why.line[i]);
		if (!r->why.n)
			html_el(out, "li", "not explained");
		fputs("</ul></div>\n", out);
	}
}

static void html_classic_experiment(const struct run_result *run,
				    const struct classic_experiment *e,
				    unsigned int index, FILE *out)
{
	char model[DEVICE_MODEL_TEXT_LEN], ran[DEVICE_MODEL_TEXT_LEN + 16];

	fprintf(out, "<h3 id=\"classic%u\">", index + 1);
	html_text(out, e->workload);
	fputs(" (", out);
	html_text(out, e->params);
	fputs("): the original beside ours</h3>\n", out);
	html_labelled(out, "source", e->source);
	html_labelled(out, "it ran", e->conditions);
	fputs("<p><b>its targets:</b> <code>", out);
	html_text(out, e->targets);
	fputs("</code> (what <code>--suite classic</code> runs without <code>--fs</code>)</p>\n",
	      out);
	snprintf(ran, sizeof(ran), "device model %s",
		 device_model_format(&run->cases[0].target.model.m, model,
				     sizeof(model)));
	html_labelled(out, "ours ran", ran);
	html_classic_figures(e, out);
	if (!e->n_ratios)
		return;
	html_classic_shapes(e, out);
	html_classic_why(e, out);
}

void html_classic(const struct run_result *run, FILE *out)
{
	unsigned int i;

	if (!run->classic.n || !run->n_cases)
		return;
	fputs("<h2 id=\"classic\">The originals beside ours</h2>\n", out);
	html_el(out, "p",
		"The originals' published figures beside ours. Their disks were not this machine's: compare shapes (ratios between targets), not times. A shape agrees when our 95% interval meets the original's value or range; phases under 0.5 s are too short to trust.");
	for (i = 0; i < run->classic.n; i++)
		html_classic_experiment(run, &run->classic.v[i], i, out);
}
