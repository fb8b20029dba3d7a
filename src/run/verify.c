// SPDX-License-Identifier: GPL-2.0
/*
 * --verify: for each target, workload and parameters whose warnings advise
 * a mount or mkfs option or another filesystem type, run the case again as it was and with each
 * option in rounds, interleaved (before, after; after, before; ...: drift
 * of the machine hits both alike), each on a fresh target, and judge each
 * finding's phase wall time before and after after every round
 * (analyze/verify_stats.c) until the verdict is decided or the cap.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/thresholds.h"
#include "run/verify.h"
#include "util/log.h"
#include "util/progress.h"

#define VERIFY_MAX_KNOBS 8

struct verify_knob {
	enum advice_kind kind;
	char option[128];
	struct fsspec fs; /* the case's target with the option applied */
	unsigned int n_phases;
	unsigned int *n; /* samples per phase */
	double *wall_s; /* [phase * max_rounds + i] */
	bool *judged; /* [phase]: a finding there advises this knob */
	struct verification *v; /* [phase]: its verdict, once decided */
	bool running; /* some judged phase is undecided: run it again */
	char error[200]; /* why a run of it failed, "" when none did */
};

struct verify_group {
	const struct case_result *first; /* the group's first complete case */
	const struct workload_opt *workload;
	const struct workload_params *params;
	const struct fsspec *fs;
	struct verify_plan plan;
	unsigned int rounds; /* rounds run so far */
	const char *not_run; /* why it cannot be re-run; NULL when it can */
	unsigned int n_knobs;
	struct verify_knob base; /* the case as it was */
	struct verify_knob knobs[VERIFY_MAX_KNOBS];
};

static bool same_group(const struct case_result *a, const struct case_result *b)
{
	return !strcmp(a->target_label, b->target_label) &&
	       !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params);
}

static bool verifiable(const struct finding *f)
{
	return f->severity == FINDING_WARNING && f->advice.option[0] &&
	       (f->advice.kind == ADVICE_MOUNT ||
		f->advice.kind == ADVICE_MKFS ||
		f->advice.kind == ADVICE_FSTYPE);
}

/* the text before '=' (the whole option without one) */
static size_t option_key_len(const char *opt)
{
	return strcspn(opt, "=,");
}

static bool option_same_key(const char *a, size_t alen, const char *b,
			    size_t blen)
{
	if (alen == blen && !strncmp(a, b, alen))
		return true;
	/* sync / async */
	if ((alen == 4 && blen == 5 && !strncmp(a, "sync", 4) &&
	     !strncmp(b, "async", 5)) ||
	    (alen == 5 && blen == 4 && !strncmp(a, "async", 5) &&
	     !strncmp(b, "sync", 4)))
		return true;
	/* delalloc / nodelalloc, barrier / nobarrier */
	if (alen == blen + 2 && !strncmp(a, "no", 2) &&
	    !strncmp(a + 2, b, blen))
		return true;
	return blen == alen + 2 && !strncmp(b, "no", 2) &&
	       !strncmp(b + 2, a, alen);
}

/* append n bytes of s to the comma-separated list in buf */
static void opts_append(char *buf, size_t len, const char *s, size_t n)
{
	size_t used = strlen(buf);

	if (used && used + 1 < len)
		buf[used++] = ',';
	snprintf(buf + used, len - used, "%.*s", (int)n, s);
}

void mount_opts_apply(const char *orig, const char *option, char *out,
		      size_t len)
{
	/* "-wsync": the advice is to mount without it (no negation exists) */
	bool drop = option[0] == '-';
	size_t klen;
	const char *p = orig;

	option += drop;
	klen = option_key_len(option);

	out[0] = '\0';
	while (*p) {
		size_t tok = strcspn(p, ",");

		if (tok && !option_same_key(p, option_key_len(p), option, klen))
			opts_append(out, len, p, tok);
		p += tok;
		if (*p == ',')
			p++;
	}
	if (!drop)
		opts_append(out, len, option, strlen(option));
}

static void knob_fsspec(const struct fsspec *orig, struct verify_knob *k)
{
	int n;

	k->fs = *orig;
	/* the same options on the other type (ext3 -> ext4: extents) */
	if (k->kind == ADVICE_FSTYPE)
		snprintf(k->fs.fstype, sizeof(k->fs.fstype), "%s", k->option);
	else if (k->kind == ADVICE_MOUNT)
		mount_opts_apply(orig->mount_opts, k->option, k->fs.mount_opts,
				 sizeof(k->fs.mount_opts));
	else if ((n = snprintf(k->fs.mkfs_opts, sizeof(k->fs.mkfs_opts),
			       "%s%s%s", orig->mkfs_opts,
			       orig->mkfs_opts[0] ? " " : "", k->option)) < 0 ||
		 (size_t)n >= sizeof(k->fs.mkfs_opts))
		log_warn("verify: mkfs options too long, cut: %s",
			 k->fs.mkfs_opts);
	n = snprintf(k->fs.label, sizeof(k->fs.label), "%s +%s %s", orig->label,
		     advice_kind_name(k->kind), k->option);
	if (n < 0 || (size_t)n >= sizeof(k->fs.label))
		log_debug("verify: label cut: %s", k->fs.label);
}

static int knob_alloc(struct verify_knob *k, unsigned int n_phases,
		      unsigned int max_rounds)
{
	unsigned int slots = n_phases ? n_phases : 1;

	k->n_phases = n_phases;
	k->running = true;
	k->n = calloc(slots, sizeof(*k->n));
	k->wall_s = calloc((size_t)slots * max_rounds, sizeof(*k->wall_s));
	k->judged = calloc(slots, sizeof(*k->judged));
	k->v = calloc(slots, sizeof(*k->v));
	return k->n && k->wall_s && k->judged && k->v ? 0 : -ENOMEM;
}

static void knob_free(struct verify_knob *k)
{
	free(k->n);
	free(k->wall_s);
	free(k->judged);
	free(k->v);
	k->n = NULL;
	k->wall_s = NULL;
	k->judged = NULL;
	k->v = NULL;
}

/* the group's knob a finding advises; NULL when none */
static struct verify_knob *group_knob(struct verify_group *g,
				      const struct finding *f)
{
	unsigned int k;

	for (k = 0; k < g->n_knobs; k++)
		if (g->knobs[k].kind == f->advice.kind &&
		    !strcmp(g->knobs[k].option, f->advice.option))
			return &g->knobs[k];
	return NULL;
}

typedef void (*finding_fn)(struct verify_group *g, struct case_result *c,
			   unsigned int ph, struct finding *f);

/* fn for every verifiable finding of the group's complete cases */
static void group_each_finding(struct run_result *run, struct verify_group *g,
			       finding_fn fn)
{
	unsigned int i, ph, j;

	for (i = 0; i < run->n_cases; i++) {
		struct case_result *c = &run->cases[i];

		if (!c->complete || !same_group(c, g->first))
			continue;
		for (ph = 0; ph < c->n_phases; ph++) {
			struct finding_list *l = &c->phases[ph].findings;

			for (j = 0; j < l->n; j++)
				if (verifiable(&l->v[j]))
					fn(g, c, ph, &l->v[j]);
		}
	}
}

/* the knobs the group's warnings advise, each once */
static void knob_collect(struct verify_group *g, struct case_result *c,
			 unsigned int ph, struct finding *f)
{
	struct verify_knob *k;

	(void)c;
	(void)ph;
	if (group_knob(g, f) || g->n_knobs == VERIFY_MAX_KNOBS)
		return;
	k = &g->knobs[g->n_knobs++];
	k->kind = f->advice.kind;
	snprintf(k->option, sizeof(k->option), "%s", f->advice.option);
}

/* the phases each knob is judged on */
static void knob_mark_phase(struct verify_group *g, struct case_result *c,
			    unsigned int ph, struct finding *f)
{
	struct verify_knob *k = group_knob(g, f);

	(void)c;
	if (k && ph < k->n_phases)
		k->judged[ph] = true;
}

/* the -w option and target the group's cases ran with */
static bool group_locate(const struct run_options *opt,
			 const struct workload_params *params,
			 struct verify_group *g)
{
	unsigned int w, t;
	char formatted[256];

	for (w = 0; w < opt->n_workloads && !g->workload; w++) {
		params_format(&params[w], formatted, sizeof(formatted));
		if (!strcmp(opt->workloads[w].name, g->first->workload) &&
		    !strcmp(formatted, g->first->params)) {
			g->workload = &opt->workloads[w];
			g->params = &params[w];
		}
	}
	for (t = 0; t < opt->n_fs && !g->fs; t++)
		if (!strcmp(opt->fs[t].label, g->first->target_label))
			g->fs = &opt->fs[t];
	return g->workload && g->fs && !opt->dir;
}

/* run one case and keep its phases' wall times; false when it failed */
static bool knob_run(struct run_ctx *ctx, const struct verify_group *g,
		     struct verify_knob *k, const struct fsspec *fs)
{
	struct verify_case vc = {
		.workload = g->workload,
		.params = g->params,
		.fs = fs,
		.repeat = g->rounds + 1,
	};
	struct run_result tmp = { 0 };
	const struct case_result *c;
	unsigned int ph;
	char what[300];
	bool ok;

	snprintf(what, sizeof(what), "verify round %u (at most %u): %s on %s",
		 g->rounds + 1, g->plan.max_rounds, g->first->workload,
		 fs->label);
	progress_case(0, 0, what);
	run_verify_case(ctx, &tmp, &vc);
	c = tmp.n_cases ? &tmp.cases[0] : NULL;
	ok = c && c->complete && c->n_phases == k->n_phases;
	if (!ok) {
		log_warn("verify: %s on %s did not complete%s%s",
			 g->first->workload, fs->label,
			 c && c->error[0] ? ": " : "",
			 c && c->error[0] ? c->error : "");
		snprintf(k->error, sizeof(k->error),
			 "a run on %.60s failed: %.120s", fs->label,
			 c && c->error[0] ? c->error : "it did not complete");
	}
	for (ph = 0; ok && ph < k->n_phases; ph++)
		k->wall_s[ph * g->plan.max_rounds + k->n[ph]++] =
			(double)c->phases[ph].wall_ns / 1e9;
	run_result_free(&tmp);
	return ok;
}

/* knob k's verification of phase ph: the samples so far, not judged */
static void verification_fill(const struct verify_group *g,
			      const struct verify_knob *k, unsigned int ph,
			      struct verification *v)
{
	unsigned int i, cap = g->plan.max_rounds;

	memset(v, 0, sizeof(*v));
	v->done = true;
	snprintf(v->phase, sizeof(v->phase), "%s", g->first->phases[ph].name);
	snprintf(v->applied, sizeof(v->applied), "%s %s",
		 advice_kind_name(k->kind), k->option);
	v->repeats = g->rounds;
	v->max_repeats = cap;
	v->look_alpha = g->plan.look_alpha;
	for (i = 0; i < g->base.n[ph] && i < VERIFY_MAX_SAMPLES; i++)
		v->before[v->n_before++] = g->base.wall_s[ph * cap + i];
	for (i = 0; i < k->n[ph] && i < VERIFY_MAX_SAMPLES; i++)
		v->after[v->n_after++] = k->wall_s[ph * cap + i];
}

/*
 * The look after a round: each undecided phase of a running knob is
 * judged; a decided one keeps that verdict (a later look would be another
 * chance to err), and a knob with none undecided runs no more.
 */
static void group_look(struct verify_group *g)
{
	unsigned int k, ph;

	for (k = 0; k < g->n_knobs; k++) {
		struct verify_knob *kn = &g->knobs[k];
		bool undecided = false;

		for (ph = 0; kn->running && ph < kn->n_phases; ph++) {
			if (!kn->judged[ph] || kn->v[ph].done)
				continue;
			verification_fill(g, kn, ph, &kn->v[ph]);
			if (verify_look(&g->plan, g->rounds, &kn->v[ph]))
				snprintf(kn->v[ph].stopped,
					 sizeof(kn->v[ph].stopped), "decided");
			else {
				kn->v[ph].done = false;
				undecided = true;
			}
		}
		kn->running = kn->running && undecided;
	}
}

static bool group_running(const struct verify_group *g)
{
	unsigned int k;

	for (k = 0; k < g->n_knobs; k++)
		if (g->knobs[k].running)
			return true;
	return false;
}

/* run knob k of the round (k == n_knobs: the case as it was) */
static void round_run_one(struct run_ctx *ctx, struct verify_group *g,
			  unsigned int k)
{
	unsigned int i;

	if (k < g->n_knobs) {
		if (g->knobs[k].running &&
		    !knob_run(ctx, g, &g->knobs[k], &g->knobs[k].fs))
			g->knobs[k].running = false;
		return;
	}
	if (knob_run(ctx, g, &g->base, g->fs))
		return;
	/* nothing to compare with: every knob still running stops */
	for (i = 0; i < g->n_knobs; i++)
		if (g->knobs[i].running) {
			g->knobs[i].running = false;
			snprintf(g->knobs[i].error, sizeof(g->knobs[i].error),
				 "%s", g->base.error);
		}
}

/*
 * Rounds until every knob is decided or the cap: the case as it was, then
 * the knobs; the next round the knobs, then the case (A B B A ...), so a
 * drift of the machine through the rounds hits both sides alike.
 */
static void group_run(struct run_ctx *ctx, struct verify_group *g)
{
	unsigned int i, n = g->n_knobs + 1;

	while (g->rounds < g->plan.max_rounds && group_running(g) &&
	       !run_ctx_stopped(ctx)) {
		for (i = 0; i < n && group_running(g) && !run_ctx_stopped(ctx);
		     i++)
			round_run_one(ctx, g,
				      g->rounds % 2 ? (2 * n - 2 - i) % n :
						      (i + n - 1) % n);
		if (run_ctx_stopped(ctx))
			break;
		g->rounds++;
		group_look(g);
	}
}

/* an undecided phase's verdict: inconclusive, saying why it stopped */
static void knob_undecided(const struct verify_group *g, struct verify_knob *k,
			   unsigned int ph, bool interrupted)
{
	struct verification *v = &k->v[ph];
	const char *why = interrupted ? "interrupted" :
			  k->error[0] ? "failed" :
					"cap";

	verification_fill(g, k, ph, v);
	verification_judge(v); /* its numbers, for the record */
	snprintf(v->stopped, sizeof(v->stopped), "%s", why);
	snprintf(v->verdict, sizeof(v->verdict), "inconclusive");
	if (k->error[0])
		snprintf(v->note, sizeof(v->note), "%s", k->error);
	else if (interrupted)
		snprintf(v->note, sizeof(v->note),
			 "interrupted after %u round(s)", g->rounds);
	else if (v->ratio > 0)
		snprintf(
			v->note, sizeof(v->note),
			"undecided after %u rounds (the cap): the interval holds 1 or %.1f; --verify=N runs more",
			g->rounds, VERIFY_MIN_SPEEDUP);
}

static void group_finish(struct run_ctx *ctx, struct verify_group *g)
{
	unsigned int k, ph;

	for (k = 0; k < g->n_knobs; k++)
		for (ph = 0; ph < g->knobs[k].n_phases; ph++)
			if (g->knobs[k].judged[ph] && !g->knobs[k].v[ph].done)
				knob_undecided(g, &g->knobs[k], ph,
					       run_ctx_stopped(ctx));
}

static void finding_fill(struct verify_group *g, struct case_result *c,
			 unsigned int ph, struct finding *f)
{
	struct verify_knob *k = group_knob(g, f);

	(void)c;
	if (k && ph < k->n_phases && k->v[ph].done)
		f->verified = k->v[ph];
}

static void finding_not_run(struct verify_group *g, struct case_result *c,
			    unsigned int ph, struct finding *f)
{
	struct verification *v = &f->verified;

	if (!group_knob(g, f))
		return;
	memset(v, 0, sizeof(*v));
	v->done = true;
	snprintf(v->phase, sizeof(v->phase), "%s", c->phases[ph].name);
	snprintf(v->verdict, sizeof(v->verdict), "inconclusive");
	snprintf(v->stopped, sizeof(v->stopped), "not run");
	snprintf(v->note, sizeof(v->note), "%s", g->not_run);
}

static unsigned int verify_max_rounds(const struct run_options *opt)
{
	if (opt->verify_repeats)
		return opt->verify_repeats;
	return opt->repeat > VERIFY_DEFAULT_ROUNDS ? opt->repeat :
						     VERIFY_DEFAULT_ROUNDS;
}

static void verify_group(struct run_ctx *ctx, struct run_result *run,
			 const struct run_options *opt,
			 const struct workload_params *params,
			 struct verify_group *g)
{
	unsigned int k, n_phases = g->first->n_phases;
	bool alloc_ok;

	group_each_finding(run, g, knob_collect);
	if (!g->n_knobs)
		return;
	if (!group_locate(opt, params, g)) {
		g->not_run =
			opt->dir ?
				"fsprof neither makes nor mounts a --dir target: the knob cannot be applied" :
				"the case's target or workload could not be found to re-run it";
		group_each_finding(run, g, finding_not_run);
		return;
	}
	verify_plan_make(verify_max_rounds(opt), &g->plan);
	alloc_ok = !knob_alloc(&g->base, n_phases, g->plan.max_rounds);
	for (k = 0; k < g->n_knobs; k++) {
		knob_fsspec(g->fs, &g->knobs[k]);
		alloc_ok &=
			!knob_alloc(&g->knobs[k], n_phases, g->plan.max_rounds);
	}
	if (alloc_ok) {
		group_each_finding(run, g, knob_mark_phase);
		group_run(ctx, g);
		group_finish(ctx, g);
		group_each_finding(run, g, finding_fill);
	}
	knob_free(&g->base);
	for (k = 0; k < g->n_knobs; k++)
		knob_free(&g->knobs[k]);
}

void verify_findings(struct run_ctx *ctx, struct run_result *run,
		     const struct run_options *opt,
		     const struct workload_params *params)
{
	unsigned int i, j;

	for (i = 0; i < run->n_cases && !run_ctx_stopped(ctx); i++) {
		struct verify_group g;

		if (!run->cases[i].complete)
			continue;
		for (j = 0; j < i; j++)
			if (run->cases[j].complete &&
			    same_group(&run->cases[j], &run->cases[i]))
				break;
		if (j < i)
			continue; /* verified with its group's first case */
		memset(&g, 0, sizeof(g));
		g.first = &run->cases[i];
		verify_group(ctx, run, opt, params, &g);
	}
}
