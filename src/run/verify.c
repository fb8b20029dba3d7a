// SPDX-License-Identifier: GPL-2.0
/*
 * --verify: for each target, workload and parameters whose warnings advise
 * a mount or mkfs option, run the case again as it was and with each
 * option, interleaved (before, after, before, after, ...: drift of the
 * machine hits both alike), each on a fresh target, and judge each
 * finding's phase wall time before and after (analyze/verify_stats.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/thresholds.h"
#include "run/verify.h"
#include "util/log.h"

#define VERIFY_MAX_KNOBS 8

struct verify_knob {
	enum advice_kind kind;
	char option[128];
	struct fsspec fs; /* the case's target with the option applied */
	unsigned int n_phases;
	unsigned int *n; /* samples per phase */
	double *wall_s; /* [phase * repeats + i] */
	char error[200]; /* why a run of it failed, "" when none did */
};

struct verify_group {
	const struct case_result *first; /* the group's first complete case */
	const struct workload_opt *workload;
	const struct workload_params *params;
	const struct fsspec *fs;
	unsigned int repeats;
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
		f->advice.kind == ADVICE_MKFS);
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
	size_t klen = option_key_len(option);
	const char *p = orig;

	out[0] = '\0';
	while (*p) {
		size_t tok = strcspn(p, ",");

		if (tok && !option_same_key(p, option_key_len(p), option, klen))
			opts_append(out, len, p, tok);
		p += tok;
		if (*p == ',')
			p++;
	}
	opts_append(out, len, option, strlen(option));
}

static void knob_fsspec(const struct fsspec *orig, struct verify_knob *k)
{
	int n;

	k->fs = *orig;
	if (k->kind == ADVICE_MOUNT)
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
		      unsigned int repeats)
{
	k->n_phases = n_phases;
	k->n = calloc(n_phases ? n_phases : 1, sizeof(*k->n));
	k->wall_s = calloc((size_t)(n_phases ? n_phases : 1) * repeats,
			   sizeof(*k->wall_s));
	return k->n && k->wall_s ? 0 : -ENOMEM;
}

static void knob_free(struct verify_knob *k)
{
	free(k->n);
	free(k->wall_s);
	k->n = NULL;
	k->wall_s = NULL;
}

/* the knobs the group's warnings advise, each once */
static void group_collect_knobs(const struct run_result *run,
				struct verify_group *g)
{
	unsigned int i, ph, j, k;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->complete || !same_group(c, g->first))
			continue;
		for (ph = 0; ph < c->n_phases; ph++) {
			const struct finding_list *l = &c->phases[ph].findings;

			for (j = 0; j < l->n; j++) {
				const struct advice *a = &l->v[j].advice;

				if (!verifiable(&l->v[j]))
					continue;
				for (k = 0; k < g->n_knobs; k++)
					if (g->knobs[k].kind == a->kind &&
					    !strcmp(g->knobs[k].option,
						    a->option))
						break;
				if (k < g->n_knobs || k == VERIFY_MAX_KNOBS)
					continue;
				g->knobs[k].kind = a->kind;
				snprintf(g->knobs[k].option,
					 sizeof(g->knobs[k].option), "%s",
					 a->option);
				g->n_knobs++;
			}
		}
	}
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
		     struct verify_knob *k, const struct fsspec *fs,
		     unsigned int repeat)
{
	struct verify_case vc = {
		.workload = g->workload,
		.params = g->params,
		.fs = fs,
		.repeat = repeat,
	};
	struct run_result tmp = { 0 };
	const struct case_result *c;
	unsigned int ph;
	bool ok;

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
		k->wall_s[ph * g->repeats + k->n[ph]++] =
			(double)c->phases[ph].wall_ns / 1e9;
	run_result_free(&tmp);
	return ok;
}

static void group_run(struct run_ctx *ctx, struct verify_group *g)
{
	unsigned int r, k;

	for (r = 1; r <= g->repeats && !run_ctx_stopped(ctx); r++) {
		log_info("verify %u/%u: %s on %s as it was", r, g->repeats,
			 g->first->workload, g->fs->label);
		knob_run(ctx, g, &g->base, g->fs, r);
		for (k = 0; k < g->n_knobs && !run_ctx_stopped(ctx); k++) {
			log_info("verify %u/%u: %s on %s", r, g->repeats,
				 g->first->workload, g->knobs[k].fs.label);
			knob_run(ctx, g, &g->knobs[k], &g->knobs[k].fs, r);
		}
	}
}

/* fill one finding's verification from the group's samples */
static void verification_fill(const struct verify_group *g,
			      const struct verify_knob *k, unsigned int ph,
			      const char *phase, struct verification *v)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->done = true;
	snprintf(v->phase, sizeof(v->phase), "%s", phase);
	snprintf(v->applied, sizeof(v->applied), "%s %s",
		 advice_kind_name(k->kind), k->option);
	v->repeats = g->repeats;
	for (i = 0; i < g->base.n[ph] && i < VERIFY_MAX_SAMPLES; i++)
		v->before[v->n_before++] = g->base.wall_s[ph * g->repeats + i];
	for (i = 0; i < k->n[ph] && i < VERIFY_MAX_SAMPLES; i++)
		v->after[v->n_after++] = k->wall_s[ph * g->repeats + i];
	/* a failed run is the note, whatever the numbers say */
	snprintf(v->note, sizeof(v->note), "%s",
		 k->error[0] ? k->error : g->base.error);
	verification_judge(v);
}

static void group_fill(struct run_result *run, const struct verify_group *g,
		       const char *why_not)
{
	unsigned int i, ph, j, k;

	for (i = 0; i < run->n_cases; i++) {
		struct case_result *c = &run->cases[i];

		if (!c->complete || !same_group(c, g->first))
			continue;
		for (ph = 0; ph < c->n_phases; ph++) {
			struct finding_list *l = &c->phases[ph].findings;

			for (j = 0; j < l->n; j++) {
				struct finding *f = &l->v[j];

				if (!verifiable(f))
					continue;
				for (k = 0; k < g->n_knobs; k++)
					if (g->knobs[k].kind ==
						    f->advice.kind &&
					    !strcmp(g->knobs[k].option,
						    f->advice.option))
						break;
				if (k == g->n_knobs)
					continue;
				if (why_not) {
					memset(&f->verified, 0,
					       sizeof(f->verified));
					f->verified.done = true;
					snprintf(f->verified.phase,
						 sizeof(f->verified.phase),
						 "%s", c->phases[ph].name);
					snprintf(f->verified.verdict,
						 sizeof(f->verified.verdict),
						 "inconclusive");
					snprintf(f->verified.note,
						 sizeof(f->verified.note), "%s",
						 why_not);
					continue;
				}
				verification_fill(g, &g->knobs[k], ph,
						  c->phases[ph].name,
						  &f->verified);
			}
		}
	}
}

static unsigned int verify_repeats(const struct run_options *opt)
{
	unsigned int n = opt->verify_repeats ? opt->verify_repeats :
			 opt->repeat > 1     ? opt->repeat :
					       VERIFY_DEFAULT_REPEATS;

	return n > VERIFY_MAX_SAMPLES ? VERIFY_MAX_SAMPLES : n;
}

static void verify_group(struct run_ctx *ctx, struct run_result *run,
			 const struct run_options *opt,
			 const struct workload_params *params,
			 struct verify_group *g)
{
	unsigned int k, n_phases = g->first->n_phases;
	bool alloc_ok;

	group_collect_knobs(run, g);
	if (!g->n_knobs)
		return;
	if (!group_locate(opt, params, g)) {
		group_fill(
			run, g,
			opt->dir ?
				"fsprof neither makes nor mounts a --dir target: the knob cannot be applied" :
				"the case's target or workload could not be found to re-run it");
		return;
	}
	g->repeats = verify_repeats(opt);
	alloc_ok = !knob_alloc(&g->base, n_phases, g->repeats);
	for (k = 0; k < g->n_knobs; k++) {
		knob_fsspec(g->fs, &g->knobs[k]);
		alloc_ok &= !knob_alloc(&g->knobs[k], n_phases, g->repeats);
	}
	if (alloc_ok) {
		group_run(ctx, g);
		group_fill(run, g, run_ctx_stopped(ctx) ? "interrupted" : NULL);
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
