// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/attach.h"
#include "report/classic.h"
#include "report/compare.h"
#include "report/findings.h"
#include "report/format.h"
#include "report/headline_text.h"
#include "report/histo_text.h"
#include "report/members.h"
#include "report/targets.h"
#include "report/procs.h"
#include "report/aging_text.h"
#include "report/text.h"
#include "report/timeline.h"
#include "report/wrap.h"
#include "results/budget_parts.h"
#include "util/log.h"
#include "util/parse.h"

#define PHASE_TOO_SHORT_NS 500000000ULL

/*
 * The model's engine cannot answer faster than its own round trip: say so
 * when the requests the model wanted shorter than that ran over it by more
 * than MODEL_NOT_HELD_SHARE of the modelled time; and where the
 * throttle-not-held rule found a phase's traced device over one of a rate
 * model's limits.
 */
static void report_throttle_check(const struct case_result *c, FILE *out)
{
	const struct model_engine *e = &c->target.model.engine;
	unsigned int i, k;

	if (!model_engine_held(e))
		text_hanging(
			out, 2,
			"device model not held: %llu of the %llu requests it charged were shorter than the engine's round trip of %.0f us, and ran %.3f s over the model's %.3f s: a faster model than this engine can serve",
			(unsigned long long)e->short_requests,
			(unsigned long long)e->charged,
			(double)e->round_trip_ns / 1e3,
			(double)e->short_excess_ns / 1e9,
			(double)e->modelled_ns / 1e9);

	for (i = 0; i < c->n_phases; i++) {
		const struct finding *f = finding_list_find(
			&c->phases[i].findings, "throttle-not-held");

		for (k = 0; f && k < f->n_evidence; k++)
			/* the limits' evidence: the phase's block class counts */
			if (!strncmp(f->ev[k].metric, "block.classes.", 14) ||
			    !strncmp(f->ev[k].metric, "block.members.", 14))
				text_hanging(
					out, 2,
					"throttle not held in %s: %s (see which issuer in the JSON's block.issuers)",
					c->phases[i].name, f->ev[k].text);
	}
}

static void report_device_model(const struct target_result *t, FILE *out)
{
	const struct model_result *mr = &t->model;
	char model[DEVICE_MODEL_TEXT_LEN];

	device_model_describe(&mr->m, model, sizeof(model));
	if (mr->n_members)
		report_model_members(mr, 0, out);
	else if (!strcmp(mr->placement, "lower-loop"))
		text_hanging(
			out, 2,
			"device model: %s, served on %s (%u:%u) below the traced %s",
			model, mr->device, mr->major, mr->minor, t->device);
	else if (!strcmp(mr->placement, "traced-disk"))
		text_hanging(
			out, 2,
			"device model: %s, a throttle on the traced disk %s (%u:%u) itself (an older fsprof): device busy time, latency and issuers were not measured faithfully under it",
			model, mr->device, mr->major, mr->minor);
	else /* a results file from before the placement was recorded */
		text_hanging(out, 2, "device model: %s", model);
}

static void report_case_header(const struct run_result *run,
			       const struct case_result *c, FILE *out)
{
	const struct target_result *t = &c->target;
	char image[32], where[4352];

	format_bytes(t->image_size, image, sizeof(image));
	if (!strcmp(t->kind, "image"))
		snprintf(where, sizeof(where),
			 ", %s image on %s (%u:%u, direct IO %s)", image,
			 t->device, t->dev_major, t->dev_minor,
			 t->loop_dio ? "on" : "OFF");
	else if (t->device[0])
		snprintf(where, sizeof(where), " (%s), on %s (%u:%u)",
			 t->fstype, t->device, t->dev_major, t->dev_minor);
	else
		snprintf(where, sizeof(where), " (%s), no block device",
			 t->fstype);
	if (c->kernel.guest)
		text_hanging(
			out, 2,
			"%s (%s) on %s%s, kernel %s in a %s guest (%s)%s",
			c->workload, c->params, case_target_name(c), where,
			c->kernel.release, c->kernel.accel, c->kernel.source,
			c->kernel.emulated ?
				": emulated, its times are the emulator's" :
				"");
	else
		text_hanging(out, 2, "%s (%s) on %s%s, kernel %s", c->workload,
			     c->params, case_target_name(c), where,
			     run->kernel_release);
	if (case_fits_in_ram(c))
		text_hanging(
			out, 2,
			"size < 2xRAM: the page cache can hold this data; only phases that drop caches and sync read and write the device");
	if (t->block_untraced[0])
		text_hanging(out, 2, "%s", t->block_untraced);
	report_stack_header(t, out);
	if (device_model_active(&t->model.m))
		report_device_model(t, out);
	report_throttle_check(c, out);
	report_aging(&c->age, out);
	text_hanging(out, 2, "mount: %s (superblock: %s)", t->mount_opts,
		     t->super_opts);
	if (c->programs.n)
		report_attach_summary(&c->programs, out);
	fputc('\n', out);
}

static void report_phase_row(const struct phase_result *p, int width, FILE *out)
{
	const struct block_class_result *r = &p->block.cls[BLK_OPC_READ];
	const struct block_class_result *w = &p->block.cls[BLK_OPC_WRITE];
	const struct block_class_result *f = &p->block.cls[BLK_OPC_FLUSH];
	struct block_class_result all;
	char p50[16], p99[16], shortp[4];

	block_result_total(&p->block, &all);
	format_duration_ns(latency_hist_percentile(&all.lat, 50), p50,
			   sizeof(p50));
	format_duration_ns(latency_hist_percentile(&all.lat, 99), p99,
			   sizeof(p99));
	/* MiB/s is in the JSON; a * at the end marks a phase too short */
	snprintf(shortp, sizeof(shortp), "%s",
		 p->wall_ns < PHASE_TOO_SHORT_NS ? " *" : "");
	fprintf(out, "%-*s %8.3f %7.1f %5.1f", width, p->name,
		(double)p->wall_ns / 1e9, phase_mb_per_s(p),
		phase_cpu_percent(p));
	if (!p->block.traced) {
		fprintf(out, "   (block IO not traced)%s\n", shortp);
		return;
	}
	fprintf(out, " %6llu %6llu %5llu %7.1f %7.1f %8s %8s %5.1f %4.1f%s\n",
		(unsigned long long)r->ios, (unsigned long long)w->ios,
		(unsigned long long)f->ios, (double)r->bytes / 1e6,
		(double)w->bytes / 1e6, p50, p99,
		p->wall_ns ? 100.0 * (double)p->block.device.busy_ns /
				     (double)p->wall_ns :
			     0.0,
		p->wall_ns ? (double)p->block.device.inflight_ns /
				     (double)p->wall_ns :
			     0.0,
		shortp);
	if (p->block.inflight_at_end)
		text_hanging(
			out, 2,
			"  %u request(s) of %s were still in flight 2 s after it ended: their latency is not in it",
			p->block.inflight_at_end, p->name);
}

static const struct block_class_result *
block_io_find(const struct block_result *b, unsigned int ioclass,
	      unsigned int issuer)
{
	unsigned int i;

	for (i = 0; i < b->n_io; i++)
		if (b->io[i].ioclass == ioclass && b->io[i].issuer == issuer)
			return &b->io[i].r;
	return NULL;
}

static bool block_io_seen(const struct case_result *c, unsigned int ioclass,
			  unsigned int issuer)
{
	unsigned int j;

	for (j = 0; j < c->n_phases; j++)
		if (block_io_find(&c->phases[j].block, ioclass, issuer))
			return true;
	return false;
}

/* the phases [from, to) of a table that has a column per phase */
struct phase_span {
	unsigned int from, to;
};

/* the next span of phases whose columns of width fit beside a label */
static bool phase_span_next(const struct case_result *c, int label, int width,
			    struct phase_span *s)
{
	unsigned int per = (unsigned int)((TEXT_WIDTH - label) / (width + 1));

	if (s->to >= c->n_phases)
		return false;
	s->from = s->to;
	s->to = s->from + (per ? per : 1);
	if (s->to > c->n_phases)
		s->to = c->n_phases;
	return true;
}

#define BLOCK_LABEL 28
#define BLOCK_CELL 16

static void report_block_io_row(const struct case_result *c,
				unsigned int ioclass, unsigned int issuer,
				const struct phase_span *s, FILE *out)
{
	const struct block_class_result *r;
	char row[48], cell[40];
	unsigned int j;

	snprintf(row, sizeof(row), "%s %s", blk_ioclass_name(ioclass),
		 blk_issuer_name(issuer));
	fprintf(out, "%-*s", BLOCK_LABEL, row);
	for (j = s->from; j < s->to; j++) {
		r = block_io_find(&c->phases[j].block, ioclass, issuer);
		if (r)
			snprintf(cell, sizeof(cell), "%.1f / %llu",
				 (double)r->bytes / 1e6,
				 (unsigned long long)r->ios);
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(out, " %*s", BLOCK_CELL, cell);
	}
	fputc('\n', out);
}

/*
 * block IO by class and issuer: a row per pair any phase saw, MB and IOs;
 * as many phases side by side as fit, the rest in the next block
 */
static void report_block_io(const struct case_result *c, FILE *out)
{
	struct phase_span s = { 0, 0 };
	unsigned int cls, iss, j;

	while (phase_span_next(c, BLOCK_LABEL, BLOCK_CELL, &s)) {
		bool header = false;

		for (cls = 0; cls < BLK_IOC_NR; cls++) {
			for (iss = 0; iss < BLK_ISS_NR; iss++) {
				if (!block_io_seen(c, cls, iss))
					continue;
				if (!header) {
					fprintf(out, "\n%-*s", BLOCK_LABEL,
						"block IO (MB / IOs)");
					for (j = s.from; j < s.to; j++)
						fprintf(out, " %*s", BLOCK_CELL,
							c->phases[j].name);
					fputc('\n', out);
					header = true;
				}
				report_block_io_row(c, cls, iss, &s, out);
			}
		}
		/* a stacked target: the same requests, by member disk */
		if (header)
			report_member_rows(c, s.from, s.to, BLOCK_LABEL,
					   BLOCK_CELL, out);
	}
}

/*
 * The names of the metrics some phase of c has a non-zero value for, in
 * first-seen order: a domain that saw nothing (ext4 on xfs) stays quiet here;
 * the JSON has every metric.
 */
static unsigned int case_metric_names(const struct case_result *c,
				      const char **names, unsigned int max,
				      bool hists)
{
	unsigned int n = 0, i, j, k;

	for (i = 0; i < c->n_phases; i++) {
		const struct metric_set *s = &c->phases[i].metrics;
		unsigned int count = hists ? s->n_hists : s->n;

		for (j = 0; j < count; j++) {
			const char *name = hists ? s->hists[j].name :
						   s->v[j].name;

			if (hists ? !s->hists[j].h.count : !s->v[j].value)
				continue;
			for (k = 0; k < n && strcmp(names[k], name); k++)
				;
			if (k == n && n < max)
				names[n++] = name;
		}
	}
	return n;
}

#define METRIC_LABEL 36
#define METRIC_CELL 12
#define DIST_CELL 20

/* the phases in s of every counter some phase saw */
static void report_metric_rows(const struct case_result *c, const char **names,
			       unsigned int n, const struct phase_span *s,
			       FILE *out)
{
	unsigned int i, j;

	fprintf(out, "\n%-*s", METRIC_LABEL, "kernel metrics");
	for (j = s->from; j < s->to; j++)
		fprintf(out, " %*s", METRIC_CELL, c->phases[j].name);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%-*s", METRIC_LABEL, names[i]);
		for (j = s->from; j < s->to; j++)
			fprintf(out, " %*llu", METRIC_CELL,
				(unsigned long long)metric_value(
					&c->phases[j].metrics, names[i]));
		fputc('\n', out);
	}
}

/* "12 us / 3.4 ms": a histogram's p50 and p99 in its unit */
static void dist_cell(const char *name, const struct latency_hist *h,
		      char *cell, size_t len)
{
	char p50[16], p99[16];

	if (!h || !h->count) {
		snprintf(cell, len, "-");
		return;
	}
	format_metric_value(name, latency_hist_percentile(h, 50), p50,
			    sizeof(p50));
	format_metric_value(name, latency_hist_percentile(h, 99), p99,
			    sizeof(p99));
	snprintf(cell, len, "%s / %s", p50, p99);
}

static void report_dist_rows(const struct case_result *c, const char **names,
			     unsigned int n, const struct phase_span *s,
			     FILE *out)
{
	unsigned int i, j;
	char cell[48];

	fprintf(out, "\n%-*s", METRIC_LABEL, "distributions (p50 / p99)");
	for (j = s->from; j < s->to; j++)
		fprintf(out, " %*s", DIST_CELL, c->phases[j].name);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%-*s", METRIC_LABEL, names[i]);
		for (j = s->from; j < s->to; j++) {
			dist_cell(names[i],
				  metric_hist_find(&c->phases[j].metrics,
						   names[i]),
				  cell, sizeof(cell));
			fprintf(out, " %*s", DIST_CELL, cell);
		}
		fputc('\n', out);
	}
}

/* every named metric as a row, a column per phase (as many as fit) */
static void report_case_metrics(const struct case_result *c, FILE *out)
{
	struct phase_span s = { 0, 0 };
	const char *names[256];
	unsigned int n;

	n = case_metric_names(c, names, 256, false);
	while (n && phase_span_next(c, METRIC_LABEL, METRIC_CELL, &s))
		report_metric_rows(c, names, n, &s, out);
	n = case_metric_names(c, names, 256, true);
	s.from = s.to = 0;
	while (n && phase_span_next(c, METRIC_LABEL, DIST_CELL, &s))
		report_dist_rows(c, names, n, &s, out);
}

#define BUDGET_CAUSES 3

/* the phase's off-CPU causes, largest first (at most max) */
static unsigned int budget_causes(const struct metric_set *m,
				  const struct metric **top, unsigned int max)
{
	unsigned int n = 0, i, j;

	for (i = 0; i < m->n; i++) {
		const struct metric *v = &m->v[i];

		if (strncmp(v->name, BUDGET_OFFCPU_PREFIX,
			    strlen(BUDGET_OFFCPU_PREFIX)) ||
		    !v->value)
			continue;
		for (j = n; j > 0 && top[j - 1]->value < v->value; j--)
			if (j < max)
				top[j] = top[j - 1];
		if (j < max) {
			top[j] = v;
			n += n < max;
		}
	}
	return n;
}

/* "1.80 s (71%)" */
static void budget_part(FILE *out, const char *what, uint64_t ns, uint64_t wall)
{
	char d[16];

	format_duration_ns((double)ns, d, sizeof(d));
	fprintf(out, "%s%s%s (%.0f%%)", what, *what ? " " : "", ns ? d : "0",
		wall ? 100.0 * (double)ns / (double)wall : 0.0);
}

/* the innermost frames worth reading: past the scheduler's own */
static void budget_stack(const struct stack_record *r, FILE *out)
{
	unsigned int f = 0, shown = 0;
	char lead[64], frames[512];
	size_t n = 0;

	while (f < r->n_frames && (!strncmp(r->frame[f], "schedule", 8) ||
				   !strncmp(r->frame[f], "io_schedule", 11)))
		f++;
	frames[0] = '\0';
	for (; f < r->n_frames && shown < 4 && n < sizeof(frames); f++, shown++)
		n += (size_t)snprintf(frames + n, sizeof(frames) - n, "%s%.*s",
				      shown ? " < " : "",
				      (int)strcspn(r->frame[f], "+"),
				      r->frame[f]);
	snprintf(lead, sizeof(lead), "heaviest stack (%s): ", r->cause);
	text_wrapped(out, 9, lead, frames);
}

/* one phase's budget: "wall 1.2 s: on-CPU ... (5%), off-CPU ...: cause ..." */
static void budget_line(const struct metric_set *m, FILE *line)
{
	const struct metric *top[BUDGET_CAUSES];
	uint64_t wall = metric_value(m, "sched.wall_ns"), shown = 0;
	uint64_t off = metric_value(m, "sched.offcpu_ns");
	unsigned int j, n;
	char d[16];

	format_duration_ns((double)wall, d, sizeof(d));
	fprintf(line, "wall %s", d);
	budget_part(line, ": on-CPU", metric_value(m, "sched.oncpu_ns"), wall);
	budget_part(line, ", off-CPU", off, wall);
	n = budget_causes(m, top, BUDGET_CAUSES);
	for (j = 0; j < n; j++) {
		char label[METRIC_NAME_LEN + 2];

		snprintf(label, sizeof(label), "%s %s", j ? "," : ":",
			 top[j]->name + strlen(BUDGET_OFFCPU_PREFIX));
		budget_part(line, label, top[j]->value, wall);
		shown += top[j]->value;
	}
	/* the smaller causes, when they add up to a visible share */
	if (off > shown && (off - shown) * 100 >= wall)
		budget_part(line, ", the rest", off - shown, wall);
	/* taken from it on its CPUs, when it is a visible share */
	for (j = 0; j < BUDGET_TAKEN_NR; j++) {
		uint64_t ns = metric_value(m, budget_taken_parts[j].metric);
		char label[64];

		if (ns * 100 < wall || !ns)
			continue;
		snprintf(label, sizeof(label), "; %s",
			 budget_taken_parts[j].label);
		budget_part(line, label, ns, wall);
	}
	budget_part(line, "; unaccounted",
		    metric_value(m, "sched.unaccounted_ns"), wall);
	if (metric_value(m, "sched.tasks") > 1)
		fprintf(line, "; thread-time of %llu tasks",
			(unsigned long long)metric_value(m, "sched.tasks"));
	/* a remembered stack found to be another when walked again */
	if (metric_value(m, "sched.stack_memo_wrong"))
		fprintf(line,
			"; caution: %llu of %llu re-walked stack memos named another stack, some waits may be under the wrong cause (FSPROF_SCHED_STACK_MEMO=0 walks every stack)",
			(unsigned long long)metric_value(
				m, "sched.stack_memo_wrong"),
			(unsigned long long)metric_value(
				m, "sched.stack_memo_checks"));
}

/*
 * Where each phase's time went (the sched domain): wall = on-CPU +
 * off-CPU by cause + unaccounted, with each part's share of wall; a line
 * per phase, wrapped under its text.
 */
static void report_time_budget(const struct case_result *c, FILE *out)
{
	bool header = false;
	unsigned int i;

	for (i = 0; i < c->n_phases; i++) {
		const struct phase_result *p = &c->phases[i];
		char lead[40], *text = NULL;
		size_t len = 0;
		FILE *line;

		if (!metric_find(&p->metrics, "sched.wall_ns"))
			continue;
		if (!header)
			fprintf(out,
				"\nwhere the time went (wall = on-CPU + off-CPU + unaccounted; off-CPU by kernel cause)\n");
		header = true;
		line = open_memstream(&text, &len);
		if (!line)
			continue;
		budget_line(&p->metrics, line);
		fclose(line);
		snprintf(lead, sizeof(lead), "%-8s ", p->name);
		text_wrapped(out, 0, lead, text);
		free(text);
		if (p->sched_stacks.n)
			budget_stack(&p->sched_stacks.v[0], out);
	}
}

static void report_case(const struct run_result *run,
			const struct case_result *c, FILE *out)
{
	struct block_class_result spill;
	unsigned int i;
	int width = 8;

	report_case_header(run, c, out);
	/* the phase column as wide as the longest name */
	for (i = 0; i < c->n_phases; i++)
		if ((int)strlen(c->phases[i].name) > width)
			width = (int)strlen(c->phases[i].name);
	fprintf(out, "%-*s %8s %7s %5s %6s %6s %5s %7s %7s %8s %8s %5s %4s\n",
		width, "phase", "wall s", "MB/s", "CPU %", "rd IOs", "wr IOs",
		"flush", "rd MB", "wr MB", "lat p50", "lat p99", "busy%", "qd");
	for (i = 0; i < c->n_phases; i++)
		report_phase_row(&c->phases[i], width, out);
	report_block_io(c, out);
	report_time_budget(c, out);
	report_proc_top(c, out);

	/* the full dump is for -v; the JSON always has everything */
	if (log_get_level() >= LOG_VERBOSE) {
		report_case_metrics(c, out);
		report_case_histograms(c, out);
		report_timeline(c, out);
		report_events(c, out);
	}
	block_result_total(&c->spill.block, &spill);
	if (spill.ios)
		fprintf(out,
			"\nbetween phases (spill-over): %llu IOs, %.1f MB on the device\n",
			(unsigned long long)spill.ios,
			(double)spill.bytes / 1e6);
	if (!c->complete)
		fprintf(out,
			"incomplete: phases after %s did not run or did not finish\n",
			c->n_phases ? c->phases[c->n_phases - 1].name :
				      "setup");
}

static void report_case_failed(const struct case_result *c, FILE *out)
{
	fprintf(out, "%s on %s, repeat %u: failed: %s\n", c->workload,
		case_target_name(c), c->repeat,
		c->error[0] ? c->error : "interrupted");
}

void report_text(const struct run_result *run, FILE *out)
{
	unsigned int i;

	/* the answer first; -q prints it alone */
	report_headline(run, out);
	if (log_get_level() == LOG_QUIET)
		return;
	fputc('\n', out);
	/* the targets' specs once, findings and verdicts, then the tables */
	report_target_list(run, out);
	report_kernel_list(run, out);
	report_findings(run, out);
	if (run->n_cases == 1) {
		report_case(run, &run->cases[0], out);
	} else {
		/* many cases: side by side; every case in full is in the JSON */
		for (i = 0; i < run->n_cases; i++)
			if (!run->cases[i].complete)
				report_case_failed(&run->cases[i], out);
		report_compare(run, out);
		report_stacks(run, out);
		for (i = 0; log_get_level() >= LOG_VERBOSE && i < run->n_cases;
		     i++)
			report_case_histograms(&run->cases[i], out);
	}
	/* the originals beside ours: asked for (--suite classic), or -v */
	if (!strcmp(run->suite, "classic") || log_get_level() >= LOG_VERBOSE)
		report_classic(run, out);
	else if (run->classic.n)
		fprintf(out,
			"\n%u classic experiment%s compare%s with this run's targets: fsprof report -v, or --suite classic\n",
			run->classic.n, run->classic.n == 1 ? "" : "s",
			run->classic.n == 1 ? "s" : "");
	if (log_get_level() < LOG_VERBOSE)
		fprintf(out,
			"\nevery kernel metric, distribution, timeline and rare event per phase: -v, or the JSON (--json)\n");
	if (run->n_cases == 1)
		fprintf(out,
			"\nMB = 10^6 bytes; IOs and bytes are what the device saw (block_rq_issue), latency is\n"
			"issue -> complete; busy%% = time with >= 1 request in flight / wall, qd = average requests\n"
			"in flight; * = a phase under 0.5 s, too short to trust; MiB/s is in the JSON.\n");
	else
		fprintf(out,
			"\nMB = 10^6 bytes; dev wr MB is what the device saw; * = a phase under 0.5 s, too short to trust;\n"
			"every case in full (per-phase block classes, histograms, timelines) is in the JSON.\n");
	if (run->interrupted)
		fprintf(out, "run interrupted by signal %d\n", run->signal);
}
