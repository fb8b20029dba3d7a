// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <time.h>

#include "report/findings.h"
#include "report/format.h"
#include "report/html.h"
#include "report/html_charts.h"
#include "report/html_classic.h"
#include "report/html_summary.h"
#include "report/html_table.h"
#include "report/targets.h"
#include "results/summary.h"

static const char html_style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;color:#222;line-height:1.4}"
	"h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
	"th{background:#f3f3f3}td.l,th.l{text-align:left}"
	".finding{border-left:5px solid #999;padding:.2em .8em;margin:.4em 0;background:#fafafa}"
	"summary{cursor:pointer}"
	".warning{border-color:#D55E00}.info{border-color:#0072B2}.ok{border-color:#009E73}"
	".sev{font-weight:bold;text-transform:uppercase;font-size:.85em}"
	".verdict{margin:.3em 0}.mech{color:#444}code{background:#f3f3f3;padding:0 3px}"
	"td:not(.l){white-space:nowrap}td.differs{color:#D55E00;font-weight:bold}td.agrees{color:#009E73}"
	"svg{display:block;margin:.8em 0;border:1px solid #eee;background:#fff}";

static void html_head(const struct run_result *run, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>fsprof report",
	      out);
	if (run->n_cases) {
		fputs(": ", out);
		html_text(out, run->cases[0].workload);
		if (run->n_cases > 1)
			fputs(" and more", out);
	}
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n",
		html_style);
}

static void html_run_summary(const struct run_result *run, FILE *out)
{
	time_t started = (time_t)(run->started_real_ns / 1000000000ULL);
	char when[64];
	struct tm tm;

	gmtime_r(&started, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("<h1>fsprof report</h1>\n<p>", out);
	fprintf(out, "fsprof %s, kernel ", run->tool_version);
	html_text(out, run->kernel_release);
	fprintf(out, ", started %s; %u case%s%s.</p>\n", when, run->n_cases,
		run->n_cases == 1 ? "" : "s",
		run_result_complete(run) ? "" :
					   " &mdash; <b>incomplete run</b>");
}

static void html_evidence(const struct finding *f, FILE *out)
{
	unsigned int i;

	if (!f->n_evidence)
		return;
	fputs("<ul>\n", out);
	for (i = 0; i < f->n_evidence; i++) {
		fputs("<li>", out);
		html_text(out, f->ev[i].text);
		fputs(" <code>", out);
		html_text(out, f->ev[i].metric);
		fputs("</code></li>\n", out);
	}
	fputs("</ul>\n", out);
}

static void html_verification(const struct verification *v, FILE *out)
{
	char line[1024];

	if (!v->done)
		return;
	verification_line(v, line, sizeof(line));
	fputs("<p><b>verified:</b> ", out);
	html_text(out, line);
	fputs("</p>\n", out);
}

static void html_finding_body(const struct finding *f, FILE *out)
{
	html_evidence(f, out);
	if (f->severity == FINDING_WARNING && f->mechanism[0]) {
		fputs("<p class=\"mech\"><b>why:</b> ", out);
		html_text(out, f->mechanism);
		fputs("</p>\n", out);
	}
	if (f->advice.text[0]) {
		fputs("<p><b>advice:</b> ", out);
		html_text(out, f->advice.text);
		if (f->advice.option[0]) {
			fprintf(out, " <code>%s: ",
				advice_kind_name(f->advice.kind));
			html_text(out, f->advice.option);
			fputs("</code>", out);
		}
		fputs("</p>\n", out);
	}
	html_verification(&f->verified, out);
}

/* a warning in full; an info folded to its title, evidence on a click */
static void html_finding(const struct finding *f, FILE *out)
{
	const char *sev = finding_severity_name(f->severity);
	bool fold = f->severity != FINDING_WARNING;

	fprintf(out,
		"<div class=\"finding %s\">%s<span class=\"sev\">%s</span> ",
		sev, fold ? "<details><summary>" : "", sev);
	fputs("<b>", out);
	html_text(out, f->title);
	fputs("</b> <code>", out);
	html_text(out, f->rule);
	fprintf(out, "</code>%s\n", fold ? "</summary>" : "");
	html_finding_body(f, out);
	fprintf(out, "%s</div>\n", fold ? "</details>" : "");
}

static void html_findings(const struct run_result *run, FILE *out)
{
	unsigned int i, p, k;

	fputs("<h2 id=\"findings\">Findings and verdicts</h2>\n", out);
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		fputs("<h3>", out);
		html_text(out, c->workload);
		fputs(" on ", out);
		html_text(out, case_target_name(c));
		if (c->repeat > 1)
			fprintf(out, ", repeat %u", c->repeat);
		fputs("</h3>\n", out);
		for (p = 0; p < c->n_phases; p++) {
			const struct phase_result *ph = &c->phases[p];

			fputs("<div class=\"verdict\"><b>", out);
			html_text(out, ph->name);
			fputs("</b>: ", out);
			html_text(out, ph->verdict.done ? ph->verdict.text :
							  "not analysed");
			fputs("</div>\n", out);
			for (k = 0; k < ph->findings.n; k++)
				if (ph->findings.v[k].severity != FINDING_OK)
					html_finding(&ph->findings.v[k], out);
		}
	}
	for (i = 0; i < run->comparisons.n; i++) {
		const struct comparison *cmp = &run->comparisons.v[i];

		for (k = 0; k < cmp->findings.n; k++)
			html_finding(&cmp->findings.v[k], out);
	}
}

/* every target's short name and full spec, listed once */
static void html_targets(const struct run_result *run, FILE *out)
{
	static const struct html_cell heads[] = {
		HTML_TEXT("name"),	   HTML_TEXT("spec"),
		HTML_TEXT("mkfs"),	   HTML_TEXT("mount options"),
		HTML_TEXT("device model"), HTML_TEXT("aged (--age)")
	};
	char model[DEVICE_MODEL_TEXT_LEN];
	unsigned int i, j;

	fputs("<h2 id=\"targets\">Targets</h2>\n", out);
	html_table_start(out, heads, sizeof(heads) / sizeof(heads[0]));
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];
		const struct target_result *t = &c->target;
		const struct html_cell row[] = {
			HTML_TEXT(case_target_name(c)),
			HTML_CODE(c->target_label),
			HTML_CODE(t->mkfs_cmd),
			HTML_TEXT(t->mount_opts),
			HTML_TEXT(device_model_format(&t->model.m, model,
						      sizeof(model))),
			HTML_TEXT(c->age.on ? c->age.spec : "no"),
		};

		for (j = 0; j < i; j++)
			if (!strcmp(run->cases[j].target_label,
				    c->target_label))
				break;
		if (j == i)
			html_row(out, "td", row, sizeof(row) / sizeof(row[0]));
	}
	fputs("</table>\n", out);
}

/* the guest kernels of run --kernel, listed once; nothing without */
static void html_kernels(const struct run_result *run, FILE *out)
{
	static const struct html_cell heads[] = {
		HTML_TEXT("release"), HTML_TEXT("source"), HTML_TEXT("BTF id"),
		HTML_TEXT("guest"), HTML_TEXT("cases in the run's order")
	};
	char orders[256], guest[160];
	unsigned int i;
	bool header = false;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_kernel *k = &run->cases[i].kernel;
		const struct html_cell row[] = {
			HTML_TEXT(k->release),	HTML_CODE(k->source),
			HTML_CODE(k->btf_hash), HTML_TEXT(guest),
			HTML_TEXT(orders),
		};

		if (!kernel_first(run, i))
			continue;
		if (!header) {
			fputs("<h2 id=\"kernels\">Kernels</h2>\n", out);
			html_table_start(out, heads,
					 sizeof(heads) / sizeof(heads[0]));
		}
		header = true;
		kernel_case_orders(run, i, orders, sizeof(orders));
		snprintf(guest, sizeof(guest), "%s%s", k->accel,
			 k->emulated ? ": emulated, times are the emulator's" :
				       "");
		html_row(out, "td", row, sizeof(row) / sizeof(row[0]));
	}
	if (header)
		fputs("</table>\n", out);
}

static void html_phase_table(const struct case_result *c, FILE *out)
{
	unsigned int i;

	fputs("<table>\n<tr><th class=\"l\">phase</th><th>wall (s)</th><th>MB/s</th><th>files/s</th><th>CPU %</th>"
	      "<th>device IOs</th><th>device MB</th><th>lat p50</th><th>lat p99</th><th>busy %</th><th class=\"l\">bound</th></tr>\n",
	      out);
	for (i = 0; i < c->n_phases; i++) {
		const struct phase_result *p = &c->phases[i];
		struct block_class_result all;
		char p50[16], p99[16];
		double wall = (double)p->wall_ns;

		block_result_total(&p->block, &all);
		format_duration_ns(latency_hist_percentile(&all.lat, 50), p50,
				   sizeof(p50));
		format_duration_ns(latency_hist_percentile(&all.lat, 99), p99,
				   sizeof(p99));
		fputs("<tr><td class=\"l\">", out);
		html_text(out, p->name);
		fputs("</td>", out);
		html_cell_num(out, "%.3f", wall / 1e9);
		html_cell_num(out, "%.1f", phase_mb_per_s(p));
		html_cell_num(out, "%.0f", phase_files_per_s(p));
		html_cell_num(out, "%.1f", phase_cpu_percent(p));
		html_cell_num(out, "%.0f", (double)all.ios);
		html_cell_num(out, "%.1f", (double)all.bytes / 1e6);
		fprintf(out, "<td>%s</td><td>%s</td>", p50, p99);
		html_cell_num(out, "%.0f",
			      wall > 0 ?
				      100.0 * (double)p->block.device.busy_ns /
					      wall :
				      0);
		fputs("<td class=\"l\">", out);
		html_text(out, p->verdict.done ?
				       bound_kind_name(p->verdict.bound) :
				       "-");
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* wall time per phase and target: mean, and ± half the 95% CI with repeats */
static void html_compare_table(const struct summary *sum, unsigned int first,
			       FILE *out)
{
	const struct summary_group *g0 = &sum->groups[first];
	unsigned int i, p;

	fputs("<table>\n<tr><th class=\"l\">wall time (s)</th>", out);
	for (i = first; i < sum->n; i++)
		if (!strcmp(sum->groups[i].workload, g0->workload) &&
		    !strcmp(sum->groups[i].params, g0->params)) {
			fputs("<th>", out);
			html_text(out, sum->groups[i].target_name);
			fputs("</th>", out);
		}
	fputs("</tr>\n", out);
	for (p = 0; p < g0->n_phases; p++) {
		fputs("<tr><td class=\"l\">", out);
		html_text(out, g0->phases[p].name);
		fputs("</td>", out);
		for (i = first; i < sum->n; i++) {
			const struct summary_group *g = &sum->groups[i];
			const struct stats *st;

			if (strcmp(g->workload, g0->workload) ||
			    strcmp(g->params, g0->params))
				continue;
			st = p < g->n_phases ?
				     summary_stat(&g->phases[p], "wall_ns") :
				     NULL;
			if (!st || !st->n)
				fputs("<td>-</td>", out);
			else if (st->n < 2)
				fprintf(out, "<td>%.3f</td>", st->mean / 1e9);
			else
				fprintf(out, "<td>%.3f &plusmn; %.3f</td>",
					st->mean / 1e9,
					(st->ci95_hi - st->mean) / 1e9);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void html_comparisons(const struct run_result *run, FILE *out)
{
	struct summary sum;
	unsigned int i, j;

	if (summary_build(run, &sum))
		return;
	if (sum.n > 1)
		fputs("<h2 id=\"compare\">Across targets</h2>\n", out);
	for (i = 0; sum.n > 1 && i < sum.n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(sum.groups[j].workload,
				    sum.groups[i].workload) &&
			    !strcmp(sum.groups[j].params, sum.groups[i].params))
				break;
		if (j < i)
			continue;
		fputs("<h3>", out);
		html_text(out, sum.groups[i].workload);
		fputs(" <small><code>", out);
		html_text(out, sum.groups[i].params);
		fputs("</code></small></h3>\n", out);
		html_compare_table(&sum, i, out);
		html_charts_workload(out, &sum, i);
	}
	summary_free(&sum);
}

static void html_case(const struct case_result *c, unsigned int index,
		      bool fold, FILE *out)
{
	fprintf(out, "<h2 id=\"case%u\">", index + 1);
	html_text(out, c->workload);
	fputs(" on ", out);
	html_text(out, case_target_name(c));
	if (c->kernel.guest) {
		fputs(", Linux ", out);
		html_text(out, c->kernel.release);
	}
	if (c->repeat > 1)
		fprintf(out, ", repeat %u", c->repeat);
	fputs("</h2>\n<p><code>", out);
	html_text(out, c->params);
	fputs("</code></p>\n", out);
	if (!c->complete) {
		fputs("<p><b>incomplete:</b> ", out);
		html_text(out, c->error[0] ? c->error : "interrupted");
		fputs("</p>\n", out);
	}
	html_phase_table(c, out);
	/* several cases: each one's charts folded under its table, so that
	 * the page is the summary, the findings and the tables at a glance */
	fprintf(out,
		"<details%s><summary>charts: time budget, device IO by class, latency, timelines</summary>\n",
		fold ? "" : " open");
	html_charts_case(out, c);
	fputs("</details>\n", out);
}

void report_html(const struct run_result *run, FILE *out)
{
	unsigned int i;

	html_head(run, out);
	html_run_summary(run, out);
	html_summary(run, out);
	html_findings(run, out);
	html_targets(run, out);
	html_kernels(run, out);
	html_comparisons(run, out);
	html_classic(run, out);
	for (i = 0; i < run->n_cases; i++)
		html_case(&run->cases[i], i, run->n_cases > 1, out);
	html_el(out, "p",
		"MB = 10^6 bytes. Device IO is what the block layer issued (block_rq_issue); latency is issue to complete. Every number is also in the results JSON (--json).");
	fputs("</body>\n</html>\n", out);
}
