// SPDX-License-Identifier: GPL-2.0
/*
 * The text report's first block (and all of -q): at most
 * HEADLINE_MAX_LINES lines, one per item, each cut to TEXT_WIDTH columns
 * (the details below say it in full).
 */
#include <stdio.h>
#include <string.h>

#include "report/colour.h"
#include "report/format.h"
#include "report/headline_text.h"
#include "report/wrap.h"
#include "results/headline.h"

/*
 * The lines the summary may still spend on continuations: what its 15
 * leave once every item has its line (report_headline sets it)
 */
static unsigned int spare_lines;

/* where a line of at most width columns that starts at text ends: a word */
static size_t cut_at(const char *text, size_t width)
{
	size_t cut = width;

	while (cut > width / 2 && text[cut] != ' ')
		cut--;
	return cut;
}

/*
 * out a line of at most TEXT_WIDTH columns; longer: its rest on a line
 * indented by hang while the summary has lines to spare, else cut at a
 * word with "..."
 */
static void line_cut(FILE *out, const char *text, size_t hang)
{
	size_t len = strlen(text), cut;

	if (len <= TEXT_WIDTH) {
		fprintf(out, "%s\n", text);
		return;
	}
	if (spare_lines && hang + 20 <= TEXT_WIDTH) {
		spare_lines--;
		cut = cut_at(text, TEXT_WIDTH);
		fprintf(out, "%.*s\n", (int)cut, text);
		text += cut + (text[cut] == ' ');
		len = strlen(text);
		if (len + hang <= TEXT_WIDTH) {
			fprintf(out, "%*s%s\n", (int)hang, "", text);
			return;
		}
		cut = cut_at(text, TEXT_WIDTH - hang - 3);
		fprintf(out, "%*s%.*s...\n", (int)hang, "", (int)cut, text);
		return;
	}
	cut = cut_at(text, TEXT_WIDTH - 3);
	fprintf(out, "%.*s...\n", (int)cut, text);
}

/* "fsprof run -w untar:files=20000 ..." as given, quoted for a shell */
void headline_command(const struct run_result *run, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "fsprof");
	unsigned int i;

	for (i = 0; i < run->n_command && n < len; i++) {
		const char *w = run->command[i];

		if (*w && !w[strcspn(w, " \t'\"\\$`&|;<>()*?[]{}~!#")]) {
			n += (size_t)snprintf(buf + n, len - n, " %s", w);
			continue;
		}
		/* 'it'\''s' */
		n += (size_t)snprintf(buf + n, len - n, " '");
		for (; *w && n < len; w++)
			n += (size_t)snprintf(buf + n, len - n,
					      *w == '\'' ? "'\\''" : "%c", *w);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "'");
	}
}

/* "no finding; journal_commit 82%, device busy 60%": the two largest */
static void verdict_top_shares(const struct phase_verdict *v, char *buf,
			       size_t len)
{
	int top[2] = { -1, -1 };
	size_t n;
	unsigned int i, k;

	for (i = 0; i < v->n_shares; i++) {
		if (top[0] < 0 ||
		    v->shares[i].value > v->shares[top[0]].value) {
			top[1] = top[0];
			top[0] = (int)i;
		} else if (top[1] < 0 ||
			   v->shares[i].value > v->shares[top[1]].value)
			top[1] = (int)i;
	}
	n = (size_t)snprintf(buf, len, "no finding");
	for (k = 0; k < 2 && top[k] >= 0 && n < len; k++) {
		const char *name = v->shares[top[k]].name;

		if (!strncmp(name, "offcpu.", 7))
			name += 7;
		if (!strcmp(name, "device_busy"))
			name = "device busy";
		else if (!strcmp(name, "oncpu"))
			name = "on CPU";
		else if (!strcmp(name, "cpu"))
			name = "CPU";
		n += (size_t)snprintf(buf + n, len - n, "%s %s %.0f%%",
				      k ? "," : ";", name,
				      100 * v->shares[top[k]].value);
	}
}

/* the explanation of a row: its finding, else its verdict's first part */
void headline_explains(const struct headline_row *r, char *buf, size_t len)
{
	/* the title: the rule is in the details below and the JSON */
	if (r->finding) {
		snprintf(buf, len, "%s", r->finding->title);
		return;
	}
	if (!r->verdict) {
		snprintf(buf, len, "not analysed");
		return;
	}
	verdict_top_shares(r->verdict, buf, len);
}

/* "ext4 untar rm-sync: mount ...: 1.92x faster (95% CI ...)" */
void headline_verified_text(const struct headline_row *r, char *buf, size_t len)
{
	const struct finding *f = r->finding;
	char speed[128];

	headline_speedup(f, speed, sizeof(speed));
	snprintf(buf, len, "%s %s %s with %s: %s", r->target, r->workload,
		 r->phase, f->verified.applied, speed);
}

/* "untar ex-sync: xfs 1.5x as long as ext4 (18.3 s, 12.1 s); ..." */
void headline_differ_text(const struct headline_differ *d, char *buf,
			  size_t len)
{
	const struct finding *f = d->finding;
	unsigned int i;

	/* the signed parts that add up, when the budget gave them */
	for (i = 0; i < f->n_evidence; i++)
		if (!strcmp(f->ev[i].metric, "sched.offcpu_ns")) {
			snprintf(buf, len, "%s %s: %s", d->workload,
				 d->cmp->phase, f->ev[i].text);
			return;
		}
	snprintf(buf, len, "%s %s%s%s", d->workload, f->title,
		 f->n_evidence > 1 ? "; " : "",
		 f->n_evidence > 1 ? f->ev[1].text : "");
}

/* the columns of the summary's rows: what is wider is wrapped or cut */
#define PHASE_COL_MAX 24
#define LIST_COL_MAX 22

/* the targets and wall times of row i's line: the rows that say the same */
struct row_line {
	unsigned int n;
	const char *target[HEADLINE_MAX_ROWS];
	char wall[HEADLINE_MAX_ROWS][16];
	double share;
};

static void row_merge(const struct headline *h, unsigned int i,
		      struct row_line *l)
{
	unsigned int j;

	l->n = 0;
	l->share = 0;
	for (j = i; j < h->n_rows; j++) {
		const struct headline_row *r = &h->rows[j];

		if (j != i && !headline_row_same(&h->rows[i], r))
			continue;
		l->share += r->share;
		l->target[l->n] = r->target;
		snprintf(l->wall[l->n++], sizeof(l->wall[0]), "%.3g",
			 r->wall_s);
	}
}

/*
 * "ext4, xfs" and "18.5, 16.4": items from..to-1 of l, to as many as
 * fit in width (one at least); a "," ends them when more follow
 */
static unsigned int row_chunk(const struct row_line *l, unsigned int from,
			      size_t width, char *targets, size_t tlen,
			      char *walls, size_t wlen)
{
	unsigned int to = from;
	size_t nt = 0, nw = 0;

	targets[0] = walls[0] = '\0';
	while (to < l->n) {
		size_t item = (to > from ? 2 : 0) + strlen(l->target[to]);

		/* one at least; room for the "," when more follow */
		if (to > from && nt + item + (to + 1 < l->n) > width)
			break;
		nt += (size_t)snprintf(targets + nt, tlen - nt, "%s%s",
				       to > from ? ", " : "", l->target[to]);
		nw += (size_t)snprintf(walls + nw, wlen - nw, "%s%s",
				       to > from ? ", " : "", l->wall[to]);
		if (nt >= tlen || nw >= wlen)
			break;
		to++;
	}
	if (to < l->n) {
		snprintf(targets + nt, tlen - nt, ",");
		snprintf(walls + nw, wlen - nw, ",");
	}
	return to;
}

/* the widest first chunk of every row, and what is left of the line */
static void row_widths(const struct headline *h, int *wp, int *wt, int *ww)
{
	char targets[256], walls[128], phase[72];
	struct row_line l;
	unsigned int i, from, to;
	int n;

	for (i = 0; i < h->n_rows; i++) {
		if (!headline_row_first(h, i))
			continue;
		row_merge(h, i, &l);
		n = snprintf(phase, sizeof(phase), "%s %s", h->rows[i].workload,
			     h->rows[i].phase);
		*wp = n > *wp ? n : *wp;
		for (from = 0; from < l.n; from = to) {
			to = row_chunk(&l, from, LIST_COL_MAX, targets,
				       sizeof(targets), walls, sizeof(walls));
			n = (int)strlen(targets);
			*wt = n > *wt ? n : *wt;
			n = (int)strlen(walls);
			*ww = n > *ww ? n : *ww;
		}
	}
	*wp = *wp > PHASE_COL_MAX ? PHASE_COL_MAX : *wp;
	*wt = *wt > LIST_COL_MAX ? LIST_COL_MAX : *wt;
	*ww = *ww > LIST_COL_MAX ? LIST_COL_MAX : *ww;
}

/*
 * A row per phase and explanation; its targets and wall times, when more
 * than their columns hold, go on in them on the next lines while the
 * summary has lines to spare, else end with "..."
 */
static unsigned int summary_rows(const struct headline *h, FILE *out)
{
	char line[768], explains[400], targets[256], walls[128], phase[72];
	int wp = 5, wt = 7, ww = 6;
	unsigned int i, from, lines = 1;
	struct row_line l;

	row_widths(h, &wp, &wt, &ww);
	fprintf(out, "%-*s %-*s %-*s %5s %-8s %s\n", wp, "phase", wt, "targets",
		ww, "wall s", "share", "bound", "what explains it");
	for (i = 0; i < h->n_rows; i++) {
		const struct headline_row *r = &h->rows[i];
		unsigned int spare;

		if (!headline_row_first(h, i))
			continue;
		row_merge(h, i, &l);
		from = row_chunk(&l, 0, (size_t)wt, targets, sizeof(targets),
				 walls, sizeof(walls));
		if (from < l.n && !spare_lines)
			snprintf(targets + strlen(targets) - 1,
				 sizeof(targets) - strlen(targets) + 1, "...");
		snprintf(phase, sizeof(phase), "%s %s", r->workload, r->phase);
		headline_explains(r, explains, sizeof(explains));
		snprintf(line, sizeof(line), "%-*s %-*s %-*s %4.0f%% %-8s %s",
			 wp, phase, wt, targets, ww, walls, 100 * l.share,
			 r->bound ? r->bound : "-", explains);
		/* a continuation starts under "what explains it"; a row whose
		 * targets go on keeps its spare lines for them */
		spare = spare_lines;
		if (from < l.n)
			spare_lines = 0;
		line_cut(out, line, (size_t)(wp + wt + ww + 5 + 8 + 5));
		if (from < l.n)
			spare_lines = spare;
		lines++;
		while (from < l.n && spare_lines) {
			spare_lines--;
			from = row_chunk(&l, from, (size_t)wt, targets,
					 sizeof(targets), walls, sizeof(walls));
			if (from < l.n && !spare_lines)
				snprintf(targets + strlen(targets) - 1,
					 sizeof(targets) - strlen(targets) + 1,
					 "...");
			snprintf(line, sizeof(line), "%-*s %-*s %s", wp, "", wt,
				 targets, walls);
			fprintf(out, "%s\n", line);
		}
	}
	return lines;
}

/* the summary's lines with one an item: what report_headline prints */
static unsigned int planned_lines(const struct run_result *run,
				  const struct headline *h)
{
	unsigned int n = 2 + (run->n_command > 0), i;

	for (i = 0; i < h->n_rows; i++)
		n += headline_row_first(h, i);
	n += h->n_verified < HEADLINE_MAX_VERIFIED ? h->n_verified :
						     HEADLINE_MAX_VERIFIED;
	return n + h->n_differs + (h->left_out > 0);
}

void report_headline(const struct run_result *run, FILE *out)
{
	char line[1024], cmd[700], total[16];
	unsigned int i, used, n_cases = 0;
	struct headline h;

	if (headline_build(run, &h) || !h.n_rows)
		return;
	for (i = 0; i < run->n_cases; i++)
		n_cases += run->cases[i].n_phases > 0;
	headline_command(run, cmd, sizeof(cmd));
	format_duration_ns(h.total_s * 1e9, total, sizeof(total));
	fprintf(out, "%ssummary%s: %u case%s, %s of phases, Linux %s\n",
		colour_start(out, COLOUR_HEADING), colour_end(out), n_cases,
		n_cases == 1 ? "" : "s", total, run->kernel_release);
	/* every item's line first; what is left continues long ones */
	spare_lines = HEADLINE_MAX_LINES - planned_lines(run, &h);
	if (spare_lines > HEADLINE_MAX_LINES)
		spare_lines = 0;
	used = 1;
	if (run->n_command) {
		line_cut(out, cmd, TEXT_WIDTH);
		used++;
	}
	used += summary_rows(&h, out);
	/* the left-out line, when there is one, is the last */
	for (i = 0; i < h.n_verified && i < HEADLINE_MAX_VERIFIED &&
		    used + 1 + (h.left_out > 0) <= HEADLINE_MAX_LINES;
	     i++, used++) {
		char text[600];

		headline_verified_text(&h.rows[h.verified[i]], text,
				       sizeof(text));
		snprintf(line, sizeof(line), "verified: %s", text);
		line_cut(out, line, 10);
	}
	for (i = 0; i < h.n_differs &&
		    used + 1 + (h.left_out > 0) <= HEADLINE_MAX_LINES;
	     i++, used++) {
		char text[700];

		headline_differ_text(&h.differs[i], text, sizeof(text));
		snprintf(line, sizeof(line), "differs: %s", text);
		line_cut(out, line, 9);
	}
	if (h.left_out)
		fprintf(out,
			"%u more phase%s (%.0f%% of the time), and every number: in the full report and the JSON\n",
			h.left_out, h.left_out == 1 ? "" : "s",
			h.total_s > 0 ? 100 * h.left_out_s / h.total_s : 0.0);
}
