// SPDX-License-Identifier: GPL-2.0
/*
 * The originals beside ours: for each experiment of data/classic.tsv that
 * the run reproduced (a --suite classic run, or any run that has both
 * targets of one of the originals' ratios), our value of every published
 * figure and our value of every published ratio, the ratio's 95% interval
 * (Welch's t on the logarithms, analyze/ratio_ci.h) and whether it meets
 * the original's. Where it does not, the two targets' phase is compared
 * (compare.c's target-difference rule, on those two alone) and each one's
 * bound verdict is cited: what our measurements say differs today.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze_int.h"
#include "analyze/classic_table.h"
#include "analyze/ratio_ci.h"
#include "analyze/thresholds.h"
#include "util/log.h"

/* the level of our intervals: 95% */
#define CLASSIC_ALPHA 0.05

/* the repeats of one target in one group of cases */
struct samples {
	unsigned int n;
	double *v; /* room for every case of the run */
	int first; /* the first case that matched, -1 when none */
};

/* one (workload, parameters, kernel) group: the cases compared */
struct group {
	const struct run_result *run;
	unsigned int first; /* its first case */
};

static bool in_group(const struct group *g, const struct case_result *c)
{
	const struct case_result *c0 = &g->run->cases[g->first];

	return c->complete && !strcmp(c->workload, c0->workload) &&
	       !strcmp(c->params, c0->params) && case_same_kernel(c, c0);
}

/* label is one of the spellings of spec ("a|b") */
static bool target_matches(const char *spec, const char *label)
{
	size_t n, len = strlen(label);

	for (;;) {
		n = strcspn(spec, "|");
		if (n == len && !strncmp(spec, label, n))
			return true;
		if (!spec[n])
			return false;
		spec += n + 1;
	}
}

/* the index of the phase named name (len characters) in c, -1 if none */
static int phase_index(const struct case_result *c, const char *name,
		       size_t len)
{
	unsigned int i;

	for (i = 0; i < c->n_phases; i++)
		if (strlen(c->phases[i].name) == len &&
		    !strncmp(c->phases[i].name, name, len))
			return (int)i;
	return -1;
}

/* metric m of the phases "a+b" in c; false when a phase is missing */
static bool case_value(const struct case_result *c, const char *phases,
		       enum classic_metric m, double *out)
{
	const struct phase_result *p;
	size_t n;
	int ph;

	*out = 0;
	for (;; phases += n + 1) {
		n = strcspn(phases, "+");
		ph = phase_index(c, phases, n);
		if (ph < 0)
			return false;
		p = &c->phases[ph];
		if (m == CLASSIC_WALL_S)
			*out += (double)p->wall_ns / 1e9;
		else if (m == CLASSIC_MB_PER_S)
			*out = phase_mb_per_s(p);
		else if (m == CLASSIC_MIB_PER_S)
			*out = phase_mib_per_s(p);
		else
			*out = phase_files_per_s(p);
		if (!phases[n])
			return true;
	}
}

static void samples_collect(const struct group *g, const char *target,
			    const char *phases, enum classic_metric m,
			    struct samples *s)
{
	unsigned int i;
	double v;

	s->n = 0;
	s->first = -1;
	for (i = g->first; i < g->run->n_cases; i++) {
		const struct case_result *c = &g->run->cases[i];

		if (!in_group(g, c) ||
		    !target_matches(target, c->target_label) ||
		    !case_value(c, phases, m, &v))
			continue;
		if (s->first < 0)
			s->first = (int)i;
		s->v[s->n++] = v;
	}
}

static void figures_fill(const struct group *g, struct classic_experiment *e,
			 struct samples *s)
{
	unsigned int k;

	for (k = 0; k < e->n_figures; k++) {
		struct classic_figure *f = &e->figures[k];

		samples_collect(g, f->target, f->phase, f->metric, s);
		stats_compute(s->v, s->n, &f->ours);
		if (s->first >= 0)
			snprintf(f->ours_target, sizeof(f->ours_target), "%s",
				 g->run->cases[s->first].target_label);
	}
}

static void why_add(struct classic_why *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void why_add(struct classic_why *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n == CLASSIC_WHY_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(w->line[w->n++], CLASSIC_WHY_LEN, fmt, ap);
	va_end(ap);
}

/* the pair finding says no measured resource explains the difference */
static bool finding_unexplained(const struct finding *f)
{
	unsigned int i;

	for (i = 0; i < f->n_evidence; i++)
		if (!strcmp(f->ev[i].metric, COMPARE_UNEXPLAINED_METRIC))
			return true;
	return false;
}

/* why the pair comparison named no mechanism */
static const char *unexplained_reason(const struct comparison *cmp,
				      const struct finding *f)
{
	unsigned int t;

	if (f)
		return "no measured resource grew by half the difference";
	for (t = 0; t < cmp->n_targets; t++)
		if (cmp->targets[t].wall_s >= (double)SHORT_PHASE_NS / 1e9)
			return "they do not differ beyond the noise";
	return "both phases are under 0.5 s: too short to compare";
}

/* what the two targets' phase ph shows: their difference, or none */
static int why_phase(const struct group *g, const struct case_result *cn,
		     const struct case_result *cd, unsigned int ph,
		     struct classic_why *w)
{
	const struct finding *f;
	struct comparison cmp;
	unsigned int i;
	int err;

	err = compare_pair(g->run, g->first, ph, cn->target_label,
			   cd->target_label, &cmp);
	if (err)
		return err;
	f = finding_list_find(&cmp.findings, "target-difference");
	if (!f || finding_unexplained(f))
		why_add(w, "not explained: %s, %s against %s: %s",
			cn->phases[ph].name, case_target_name(cn),
			case_target_name(cd), unexplained_reason(&cmp, f));
	if (f) {
		why_add(w, "%s", f->title);
		for (i = 0; i < f->n_evidence; i++)
			why_add(w, "  %s", f->ev[i].text);
		if (!finding_unexplained(f))
			why_add(w, "  %s", f->mechanism);
	}
	finding_list_free(&cmp.findings);
	return 0;
}

/*
 * "meta_read 1.02, log_write 0.10; most device time: meta_read, 0.06 ms
 * a request": device requests per file by class, and the class whose
 * requests took the longest in all with their mean latency (what a
 * request costs on this device, where the originals' disks differ most)
 */
static void requests_per_file(const struct phase_result *p, char *buf,
			      size_t len)
{
	double ios[BLK_IOC_NR] = { 0 }, lat[BLK_IOC_NR] = { 0 };
	double files = (double)p->work.files;
	unsigned int i, top = BLK_IOC_NR;
	size_t off = 0;

	buf[0] = '\0';
	for (i = 0; i < p->block.n_io; i++) {
		ios[p->block.io[i].ioclass] += (double)p->block.io[i].r.ios;
		lat[p->block.io[i].ioclass] +=
			(double)p->block.io[i].r.lat.sum_ns;
	}
	for (i = 0; i < BLK_IOC_NR && off < len; i++) {
		if (ios[i] <= 0)
			continue;
		if (top == BLK_IOC_NR || lat[i] > lat[top])
			top = i;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.*f",
					off ? ", " : "", blk_ioclass_name(i),
					files > 0 ? 2 : 0,
					files > 0 ? ios[i] / files : ios[i]);
	}
	if (top == BLK_IOC_NR)
		snprintf(buf, len, "none");
	else if (off < len && lat[top] > 0)
		snprintf(buf + off, len - off,
			 "; most device time: %s, %.2f ms a request",
			 blk_ioclass_name(top), lat[top] / ios[top] / 1e6);
}

/* each target's conditions, device requests and bound verdict of ph */
static void why_verdicts(const struct case_result *cn,
			 const struct case_result *cd, unsigned int ph,
			 struct classic_why *w)
{
	const struct case_result *c[2] = { cn, cd };
	char reqs[256];
	const struct phase_result *p;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (ph >= c[i]->n_phases)
			continue;
		p = &c[i]->phases[ph];
		requests_per_file(p, reqs, sizeof(reqs));
		why_add(w,
			"%s %s (first run; cache %s, device model %s): device requests per %s: %s; %s",
			case_target_name(c[i]), p->name, p->cache,
			c[i]->target.model.m.name[0] ?
				c[i]->target.model.m.name :
				"none",
			p->work.files ? "file" : "phase", reqs,
			p->verdict.done ? p->verdict.text : "no verdict");
	}
}

/* what our measurements say of each phase of a ratio that differs */
static int ratio_explain(const struct group *g, struct classic_ratio *r,
			 int num_case, int den_case)
{
	const struct case_result *cn = &g->run->cases[num_case];
	const struct case_result *cd = &g->run->cases[den_case];
	const char *phases = r->phase;
	size_t n;
	int ph, err;

	for (;; phases += n + 1) {
		n = strcspn(phases, "+");
		ph = phase_index(cn, phases, n);
		if (ph >= 0) {
			err = why_phase(g, cn, cd, (unsigned int)ph, &r->why);
			if (err)
				return err;
			why_verdicts(cn, cd, (unsigned int)ph, &r->why);
		}
		if (!phases[n])
			return 0;
	}
}

static void ratio_judge(struct classic_ratio *r, const struct samples *num,
			const struct samples *den)
{
	struct ratio_ci rc;

	r->n_num = num->n;
	r->n_den = den->n;
	if (!num->n || !den->n) {
		r->verdict = CLASSIC_NOT_RUN;
		snprintf(r->note, sizeof(r->note), "no complete run of %.80s",
			 !num->n ? r->num : r->den);
		return;
	}
	ratio_ci_compute(num->v, num->n, den->v, den->n, CLASSIC_ALPHA, &rc);
	r->ours = rc.ratio;
	r->has_ci = rc.has_ci;
	r->ci_lo = rc.lo;
	r->ci_hi = rc.hi;
	if (!rc.has_ci) {
		r->verdict = CLASSIC_NO_INTERVAL;
		snprintf(
			r->note, sizeof(r->note),
			"%u and %u run(s): an interval needs 2 of each (--repeat 3)",
			num->n, den->n);
	} else if (rc.hi < r->orig.lo || rc.lo > r->orig.hi) {
		r->verdict = CLASSIC_DIFFERS;
	} else if (rc.hi > CLASSIC_CI_SPAN_MAX * rc.lo) {
		r->verdict = CLASSIC_INCONCLUSIVE;
		snprintf(
			r->note, sizeof(r->note),
			"our interval spans %.0fx, more than %.0fx: more repeats (or a longer phase) would narrow it",
			rc.hi / rc.lo, CLASSIC_CI_SPAN_MAX);
	} else {
		r->verdict = CLASSIC_AGREES;
	}
}

static int ratios_fill(const struct group *g, struct classic_experiment *e,
		       struct samples *num, struct samples *den)
{
	unsigned int k;
	int err;

	for (k = 0; k < e->n_ratios; k++) {
		struct classic_ratio *r = &e->ratios[k];

		samples_collect(g, r->num, r->phase, r->metric, num);
		samples_collect(g, r->den, r->phase, r->metric, den);
		ratio_judge(r, num, den);
		if (r->verdict != CLASSIC_DIFFERS)
			continue;
		err = ratio_explain(g, r, num->first, den->first);
		if (err)
			return err;
	}
	return 0;
}

/* printed for a classic suite, or when one of its shapes could be had */
static bool experiment_wanted(const struct run_result *run,
			      const struct classic_experiment *e)
{
	unsigned int k;

	if (!strcmp(run->suite, "classic"))
		return true;
	for (k = 0; k < e->n_ratios; k++)
		if (e->ratios[k].n_num && e->ratios[k].n_den)
			return true;
	return false;
}

/* the table's experiment t for the group starting at case first */
static int experiment_add(struct run_result *run, unsigned int first,
			  const struct classic_experiment *t, struct samples *s)
{
	struct group g = { .run = run, .first = first };
	struct classic_experiment *e = classic_list_add(&run->classic);
	int err;

	if (!e)
		return -ENOMEM;
	*e = *t;
	snprintf(e->params, sizeof(e->params), "%s", run->cases[first].params);
	figures_fill(&g, e, &s[0]);
	err = ratios_fill(&g, e, &s[0], &s[1]);
	if (!err && !experiment_wanted(run, e))
		run->classic.n--;
	return err;
}

/* case i starts a group of t's workload: no earlier case is in it */
static bool group_starts(const struct run_result *run, unsigned int i,
			 const char *workload)
{
	struct group g = { .run = run, .first = i };
	unsigned int j;

	if (!run->cases[i].complete || strcmp(run->cases[i].workload, workload))
		return false;
	for (j = 0; j < i; j++)
		if (in_group(&g, &run->cases[j]))
			return false;
	return true;
}

static int classic_fill(struct run_result *run, const struct classic_list *t,
			struct samples *s)
{
	unsigned int k, i;
	int err;

	for (k = 0; k < t->n; k++)
		for (i = 0; i < run->n_cases; i++) {
			if (!group_starts(run, i, t->v[k].workload))
				continue;
			err = experiment_add(run, i, &t->v[k], s);
			if (err)
				return err;
		}
	return 0;
}

int analyze_classic(struct run_result *run)
{
	struct samples s[2] = { { 0 } };
	struct classic_list table;
	char why[256];
	int err;

	classic_list_free(&run->classic);
	if (!run->n_cases)
		return 0;
	err = classic_table_parse(classic_tsv, &table, why, sizeof(why));
	if (err) {
		/* the build checked the file: only a broken build gets here */
		log_warn("data/classic.tsv (built in): %s", why);
		return err == -ENOMEM ? err : 0;
	}
	s[0].v = calloc(run->n_cases, sizeof(double));
	s[1].v = calloc(run->n_cases, sizeof(double));
	err = s[0].v && s[1].v ? classic_fill(run, &table, s) : -ENOMEM;
	free(s[0].v);
	free(s[1].v);
	classic_list_free(&table);
	return err;
}
