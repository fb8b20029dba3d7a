// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "results/classic_json.h"

/* a number, or null when it is not one (json_real refuses NAN) */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *value_json(const struct classic_value *v)
{
	return json_pack("{s:o, s:o, s:b}", "low", num(v->lo), "high",
			 num(v->hi), "approx", v->approx);
}

static json_t *figure_json(const struct classic_figure *f)
{
	json_t *ours = json_null();

	if (f->ours.n)
		ours = json_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "target",
				 f->ours_target, "n", (int)f->ours.n, "mean",
				 num(f->ours.mean), "stddev",
				 num(f->ours.stddev), "ci95_low",
				 num(f->ours.n > 1 ? f->ours.ci95_lo : NAN),
				 "ci95_high",
				 num(f->ours.n > 1 ? f->ours.ci95_hi : NAN));
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "phase", f->phase,
			 "metric", classic_metric_name(f->metric), "unit",
			 classic_metric_unit(f->metric), "target", f->target,
			 "original", value_json(&f->orig), "ours", ours);
}

static json_t *ratio_json(const struct classic_ratio *r)
{
	json_t *why = json_array(), *ours = json_null();
	unsigned int i;

	for (i = 0; i < r->why.n; i++)
		json_array_append_new(why, json_string(r->why.line[i]));
	if (r->n_num && r->n_den)
		ours = json_pack("{s:o, s:i, s:i, s:o, s:o}", "ratio",
				 num(r->ours), "n_numerator", (int)r->n_num,
				 "n_denominator", (int)r->n_den, "ci95_low",
				 num(r->has_ci ? r->ci_lo : NAN), "ci95_high",
				 num(r->has_ci ? r->ci_hi : NAN));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:s, s:o}",
			 "label", r->label, "phase", r->phase, "metric",
			 classic_metric_name(r->metric), "numerator", r->num,
			 "denominator", r->den, "original",
			 value_json(&r->orig), "ours", ours, "verdict",
			 classic_verdict_name(r->verdict), "note", r->note,
			 "explanation", why);
}

json_t *classic_to_json(const struct classic_list *l)
{
	json_t *arr = json_array();
	unsigned int i, k;

	for (i = 0; i < l->n; i++) {
		const struct classic_experiment *e = &l->v[i];
		json_t *figs = json_array(), *ratios = json_array();

		for (k = 0; k < e->n_figures; k++)
			json_array_append_new(figs,
					      figure_json(&e->figures[k]));
		for (k = 0; k < e->n_ratios; k++)
			json_array_append_new(ratios,
					      ratio_json(&e->ratios[k]));
		json_array_append_new(
			arr,
			json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o}",
				  "workload", e->workload, "params", e->params,
				  "source", e->source, "conditions",
				  e->conditions, "original_targets", e->targets,
				  "figures", figs, "ratios", ratios));
	}
	return arr;
}
