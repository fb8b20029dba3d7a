// SPDX-License-Identifier: GPL-2.0
/*
 * The top of the HTML report: the command line and kernel, the summary's
 * table (the text report's first block), and a small chart per phase it
 * names, each on an axis of its own: the phase's wall time on every
 * target, the targets the row is about in colour, and what --verify
 * measured with the advice applied.
 */
#include <string.h>

#include "report/chart.h"
#include "report/format.h"
#include "report/headline_text.h"
#include "report/html_summary.h"
#include "report/html_table.h"

#define COLOUR_HEADLINE "#D55E00"
#define COLOUR_VERIFIED "#009E73"
#define COLOUR_OTHER "#999999"
#define SUMMARY_CHARTS 4

/* the targets row i's line merges, as the text prints them */
static void row_targets(const struct headline *h, unsigned int i, char *buf,
			size_t len, double *share)
{
	size_t n = 0;
	unsigned int j;

	buf[0] = '\0';
	*share = 0;
	for (j = i; j < h->n_rows; j++) {
		if (j != i && !headline_row_same(&h->rows[i], &h->rows[j]))
			continue;
		*share += h->rows[j].share;
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "", h->rows[j].target);
	}
}

static void summary_table(const struct headline *h, FILE *out)
{
	static const struct html_cell heads[] = {
		HTML_TEXT("phase"), HTML_TEXT("targets"),
		HTML_NUM("wall s"), HTML_NUM("share"),
		HTML_TEXT("bound"), HTML_TEXT("what explains it"),
	};
	char targets[256], walls[128], share[16], explains[400], phase[72];
	unsigned int i, j;
	size_t n;
	double sh;

	html_table_start(out, heads, sizeof(heads) / sizeof(heads[0]));
	for (i = 0; i < h->n_rows; i++) {
		const struct headline_row *r = &h->rows[i];

		if (!headline_row_first(h, i))
			continue;
		row_targets(h, i, targets, sizeof(targets), &sh);
		for (j = i, n = 0, walls[0] = '\0'; j < h->n_rows; j++)
			if ((j == i || headline_row_same(r, &h->rows[j])) &&
			    n < sizeof(walls))
				n += (size_t)snprintf(walls + n,
						      sizeof(walls) - n,
						      "%s%.3g", n ? ", " : "",
						      h->rows[j].wall_s);
		snprintf(share, sizeof(share), "%.0f%%", 100 * sh);
		snprintf(phase, sizeof(phase), "%s %s", r->workload, r->phase);
		headline_explains(r, explains, sizeof(explains));
		{
			struct html_cell row[] = {
				HTML_TEXT(phase),
				HTML_TEXT(targets),
				HTML_NUM(walls),
				HTML_NUM(share),
				HTML_TEXT(r->bound ? r->bound : "-"),
				{ explains, HTML_CELL_TEXT,
				  r->finding && r->finding->severity ==
							  FINDING_WARNING ?
					  "differs" :
					  NULL },
			};

			html_row(out, "td", row, sizeof(row) / sizeof(row[0]));
		}
	}
	fputs("</table>\n", out);
}

static void summary_lines(const struct headline *h, FILE *out)
{
	char text[800];
	unsigned int i;

	if (!h->n_verified && !h->n_differs && !h->left_out)
		return;
	fputs("<ul>\n", out);
	for (i = 0; i < h->n_verified && i < HEADLINE_MAX_VERIFIED; i++) {
		headline_verified_text(&h->rows[h->verified[i]], text,
				       sizeof(text));
		fputs("<li><b>verified:</b> ", out);
		html_text(out, text);
		fputs("</li>\n", out);
	}
	for (i = 0; i < h->n_differs; i++) {
		headline_differ_text(&h->differs[i], text, sizeof(text));
		fputs("<li><b>differs:</b> ", out);
		html_text(out, text);
		fputs("</li>\n", out);
	}
	if (h->left_out)
		fprintf(out,
			"<li>%u more phase%s (%.0f%% of the time): in the findings and tables below</li>\n",
			h->left_out, h->left_out == 1 ? "" : "s",
			h->total_s > 0 ? 100 * h->left_out_s / h->total_s :
					 0.0);
	fputs("</ul>\n", out);
}

/* is the target named in row i's line? */
static bool row_names(const struct headline *h, unsigned int i,
		      const char *target)
{
	unsigned int j;

	for (j = i; j < h->n_rows; j++)
		if ((j == i || headline_row_same(&h->rows[i], &h->rows[j])) &&
		    !strcmp(h->rows[j].target, target))
			return true;
	return false;
}

/* the phase of row i on every target, a bar a target (mean of repeats) */
static void phase_chart(const struct run_result *run, const struct headline *h,
			unsigned int i, FILE *out)
{
	static char labels[CHART_MAX_CATS][200];
	const struct headline_row *r = &h->rows[i];
	struct hbar_chart ch = { .x_label = "wall time (s)", .unit = "s" };
	unsigned int k[CHART_MAX_CATS] = { 0 }, c, ph, b, j;
	char title[160];

	snprintf(title, sizeof(title), "%s %s: wall time by target",
		 r->workload, r->phase);
	ch.title = title;
	for (c = 0; c < run->n_cases; c++) {
		const struct case_result *cs = &run->cases[c];
		char name[200];

		if (strcmp(cs->workload, r->workload))
			continue;
		for (ph = 0;
		     ph < cs->n_phases && strcmp(cs->phases[ph].name, r->phase);
		     ph++)
			;
		if (ph == cs->n_phases)
			continue;
		case_kernel_target_name(cs, name, sizeof(name));
		for (b = 0; b < ch.n && strcmp(labels[b], name); b++)
			;
		if (b == ch.n) {
			if (ch.n == CHART_MAX_CATS - 2)
				continue;
			snprintf(labels[b], sizeof(labels[b]), "%s", name);
			ch.bars[b].label = labels[b];
			ch.bars[b].colour = row_names(h, i, name) ?
						    COLOUR_HEADLINE :
						    COLOUR_OTHER;
			ch.n++;
		}
		ch.bars[b].v += (double)cs->phases[ph].wall_ns / 1e9;
		k[b]++;
	}
	for (b = 0; b < ch.n; b++)
		ch.bars[b].v /= k[b] ? k[b] : 1;
	/* the verified advice: the phase with it applied, after the target */
	for (j = i; j < h->n_rows && ch.n < CHART_MAX_CATS; j++) {
		const struct finding *f = h->rows[j].finding;

		if ((j != i && !headline_row_same(r, &h->rows[j])) || !f ||
		    !f->verified.done || !(f->verified.after_s > 0))
			continue;
		snprintf(labels[ch.n], sizeof(labels[ch.n]), "%s, %s",
			 h->rows[j].target, f->verified.applied);
		ch.bars[ch.n].label = labels[ch.n];
		ch.bars[ch.n].v = f->verified.after_s;
		ch.bars[ch.n].colour = COLOUR_VERIFIED;
		ch.n++;
	}
	if (ch.n)
		chart_hbars(out, &ch);
}

/* the row whose line comes first: the top verified advice, else row 0 */
static unsigned int headline_first(const struct headline *h)
{
	unsigned int v = h->n_verified ? h->verified[0] : 0, i;

	/* the first row of its line */
	for (i = 0; i < v; i++)
		if (headline_row_same(&h->rows[i], &h->rows[v]))
			return i;
	return v;
}

void html_summary(const struct run_result *run, FILE *out)
{
	unsigned int i, first, charts = 0;
	char cmd[2048];
	struct headline h;

	if (run->n_command) {
		headline_command(run, cmd, sizeof(cmd));
		fputs("<p><code>", out);
		html_text(out, cmd);
		fputs("</code></p>\n", out);
	}
	if (headline_build(run, &h) || !h.n_rows)
		return;
	fputs("<h2 id=\"summary\">Summary</h2>\n", out);
	summary_table(&h, out);
	summary_lines(&h, out);
	/* the headline phase first, then the others, each its own axis */
	first = headline_first(&h);
	phase_chart(run, &h, first, out);
	charts++;
	for (i = 0; i < h.n_rows && charts < SUMMARY_CHARTS; i++) {
		if (i == first || !headline_row_first(&h, i) ||
		    headline_row_same(&h.rows[i], &h.rows[first]))
			continue;
		phase_chart(run, &h, i, out);
		charts++;
	}
}
