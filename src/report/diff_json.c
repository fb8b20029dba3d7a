// SPDX-License-Identifier: GPL-2.0
/* fsprof diff as JSON (docs/diff.md). */
#include <errno.h>
#include <jansson.h>
#include <math.h>

#include "compare/kpi.h"
#include "compare/noise_floors.h"
#include "report/diff_report.h"

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *side_json(const struct diff_side *s)
{
	return json_pack("{s:i, s:o, s:o, s:{s:o, s:o, s:o}}", "n", (int)s->n,
			 "mean", num(s->mean), "sd", num(s->sd), "lkp", "min",
			 num(s->lkp.min), "mid", num(s->lkp.mid), "max",
			 num(s->lkp.max));
}

/* lkp-tests' criterion beside ours (compare/diff_lkp.c) */
static json_t *lkp_json(const struct diff_lkp *l)
{
	return json_pack("{s:b, s:b, s:o, s:o, s:b}", "enough_samples",
			 l->enough, "separated", l->separated, "ratio",
			 num(l->ratio), "min_ratio", num(l->min_ratio),
			 "changed", l->changed);
}

static json_t *metric_json(const struct diff_metric *m)
{
	json_t *o = json_pack("{s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
			      "metric", m->name, "headline", m->headline, "a",
			      side_json(&m->a), "b", side_json(&m->b), "diff",
			      num(m->diff), "ratio", num(m->ratio), "p",
			      num(m->p), "q", num(m->q), "verdict",
			      diff_verdict_name(m->verdict));

	json_object_set_new(o, "ci95",
			    m->has_ci ? json_pack("[o, o]", num(m->ci_lo),
						  num(m->ci_hi)) :
					json_null());
	json_object_set_new(o, "more_repeats",
			    m->more_repeats ? json_integer(m->more_repeats) :
					      json_null());
	json_object_set_new(o, "noise_floor", num(m->noise_floor));
	json_object_set_new(o, "direction", json_string(kpi_dir_name(m->dir)));
	json_object_set_new(o, "emulated_time", json_boolean(m->emulated_time));
	json_object_set_new(o, "lkp", lkp_json(&m->lkp));
	json_object_set_new(o, "note",
			    m->note[0] ? json_string(m->note) : json_null());
	return o;
}

static json_t *hist_json(const struct diff_hist *h)
{
	return json_pack(
		"{s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
		"histogram", h->name, "n_a", (json_int_t)h->n_a, "n_b",
		(json_int_t)h->n_b, "p50_a", num(h->p50_a), "p50_b",
		num(h->p50_b), "p99_a", num(h->p99_a), "p99_b", num(h->p99_b),
		"ks_d", num(h->ks_d), "p", num(h->p), "q", num(h->q), "differs",
		h->differs);
}

static json_t *phase_json(const struct diff_phase *ph)
{
	json_t *metrics = json_array(), *hists = json_array();
	unsigned int i;

	for (i = 0; i < ph->n_metrics; i++)
		json_array_append_new(metrics, metric_json(&ph->metrics[i]));
	for (i = 0; i < ph->n_hists; i++)
		json_array_append_new(hists, hist_json(&ph->hists[i]));
	return json_pack("{s:s, s:o, s:o, s:s, s:s}", "name", ph->name,
			 "metrics", metrics, "histograms", hists,
			 "findings_only_in_a", ph->only_a, "findings_only_in_b",
			 ph->only_b);
}

/* the floors file's rows the metrics were judged by; null under --noise */
static json_t *floors_json(const struct diff_result *d)
{
	const struct noise_floors *nf = noise_floors_builtin();
	json_t *rows;
	unsigned int i;

	if (d->opt.noise_floor >= 0 || !nf)
		return json_null();
	rows = json_array();
	for (i = 0; i < nf->n; i++)
		json_array_append_new(rows,
				      json_pack("{s:s, s:f, s:s}", "glob",
						nf->rows[i].glob, "floor",
						nf->rows[i].floor, "derived",
						nf->rows[i].how));
	return rows;
}

int diff_report_json(const struct diff_result *d, FILE *out)
{
	json_t *root, *pairs = json_array(), *setup = json_array(),
		      *unpaired = json_array(), *failed = json_array();
	unsigned int i, j;
	int err = 0;

	for (i = 0; i < d->n_pairs; i++) {
		const struct diff_pair *p = &d->pairs[i];
		json_t *phases = json_array();

		for (j = 0; j < p->n_phases; j++)
			json_array_append_new(phases,
					      phase_json(&p->phases[j]));
		json_array_append_new(
			pairs, json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:o}",
					 "workload", p->workload, "params",
					 p->params, "a_target", p->a_target,
					 "b_target", p->b_target, "a_repeats",
					 (int)p->a_repeats, "b_repeats",
					 (int)p->b_repeats, "phases", phases));
	}
	for (i = 0; i < d->n_setup; i++)
		json_array_append_new(
			setup, json_pack("{s:s, s:s, s:s, s:b}", "what",
					 d->setup[i].what, "a", d->setup[i].a,
					 "b", d->setup[i].b, "blocking",
					 d->setup[i].blocking));
	for (i = 0; i < d->n_unpaired; i++)
		json_array_append_new(unpaired, json_string(d->unpaired[i]));
	for (i = 0; i < d->n_failed && i < 8; i++)
		json_array_append_new(failed, json_string(d->failed[i]));
	root = json_pack(
		"{s:s, s:s, s:f, s:o, s:o, s:s, s:i, s:{s:i, s:i, s:i, s:i}, s:o, s:o, s:o, s:o}",
		"a", d->a_name, "b", d->b_name, "alpha", d->opt.alpha,
		"noise_floor",
		d->opt.noise_floor >= 0 ? json_real(d->opt.noise_floor) :
					  json_null(),
		"noise_floors", floors_json(d), "multiple_testing",
		"benjamini-hochberg", "tests", (int)d->n_tests, "verdicts",
		"changed", (int)d->n_changed, "same", (int)d->n_same,
		"inconclusive", (int)d->n_inconclusive, "unmeasured",
		(int)d->n_unmeasured, "setup_differences", setup, "unpaired",
		unpaired, "pairs", pairs, "failed_above", failed);
	if (!root)
		return -ENOMEM;
	json_object_set_new(
		root, "kernel",
		d->kernel_variable ?
			json_pack("{s:s, s:s, s:b, s:b, s:b, s:i}", "a",
				  d->a_kernel, "b", d->b_kernel, "same_twice",
				  d->same_kernel_twice, "emulated", d->emulated,
				  "time_verdicts", d->opt.time_verdicts,
				  "times_not_judged",
				  (int)d->n_emulated_times) :
			json_null());
	json_object_set_new(root, "fail_above",
			    d->opt.fail_above >= 0 ?
				    json_real(d->opt.fail_above) :
				    json_null());
	if (json_dumpf(root, out, JSON_INDENT(2) | JSON_SORT_KEYS) ||
	    fputc('\n', out) == EOF)
		err = -EIO;
	json_decref(root);
	return err;
}
