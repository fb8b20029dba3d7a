// SPDX-License-Identifier: GPL-2.0
/*
 * Verdicts, findings and comparisons as JSON (docs/results-json.md):
 * cases[].phases[].verdict, cases[].phases[].findings[], comparisons[].
 */
#include <math.h>

#include "results/findings_json.h"

/* a number, or null when it is not one (NAN: no share, no threshold) */
static json_t *number_or_null(double v)
{
	if (isnan(v) || isinf(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static json_t *evidence_json(const struct evidence *e)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "metric", json_string(e->metric));
	json_object_set_new(obj, "value", number_or_null(e->value));
	json_object_set_new(obj, "share", number_or_null(e->share));
	json_object_set_new(obj, "threshold", number_or_null(e->threshold));
	json_object_set_new(obj, "text", json_string(e->text));
	return obj;
}

static json_t *advice_json(const struct advice *a)
{
	if (a->kind == ADVICE_NONE && !a->text[0])
		return json_null();
	return json_pack("{s:s, s:s, s:o}", "text", a->text, "kind",
			 advice_kind_name(a->kind), "option",
			 a->option[0] ? json_string(a->option) : json_null());
}

static json_t *samples_json(const double *v, unsigned int n)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_real(v[i]));
	return arr;
}

static json_t *verification_json(const struct verification *v)
{
	json_t *obj;

	if (!v->done)
		return json_null();
	obj = json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:s}", "phase",
			v->phase, "applied", v->applied, "repeats",
			(int)v->repeats, "before_s",
			number_or_null(v->before_s), "after_s",
			number_or_null(v->after_s), "ratio",
			v->ratio > 0 ? json_real(v->ratio) : json_null(),
			"ci95",
			v->ratio > 0 ? json_pack("[f, f]", v->ci_lo, v->ci_hi) :
				       json_null(),
			"verdict", v->verdict);
	json_object_set_new(obj, "before_samples_s",
			    samples_json(v->before, v->n_before));
	json_object_set_new(obj, "after_samples_s",
			    samples_json(v->after, v->n_after));
	json_object_set_new(obj, "note",
			    v->note[0] ? json_string(v->note) : json_null());
	json_object_set_new(obj, "max_repeats", json_integer(v->max_repeats));
	json_object_set_new(obj, "look_alpha",
			    v->look_alpha > 0 ? json_real(v->look_alpha) :
						json_null());
	json_object_set_new(obj, "stopped",
			    v->stopped[0] ? json_string(v->stopped) :
					    json_null());
	return obj;
}

static json_t *finding_json(const struct finding *f)
{
	json_t *ev = json_array();
	unsigned int i;

	for (i = 0; i < f->n_evidence; i++)
		json_array_append_new(ev, evidence_json(&f->ev[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:o, s:o}", "rule",
			 f->rule, "domain", f->domain, "severity",
			 finding_severity_name(f->severity), "title", f->title,
			 "evidence", ev, "mechanism", f->mechanism, "advice",
			 advice_json(&f->advice), "verified",
			 verification_json(&f->verified));
}

json_t *findings_to_json(const struct finding_list *l)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < l->n; i++)
		json_array_append_new(arr, finding_json(&l->v[i]));
	return arr;
}

json_t *verdict_to_json(const struct phase_verdict *v)
{
	json_t *shares;
	unsigned int i;

	if (!v->done)
		return json_null();
	shares = json_object();
	for (i = 0; i < v->n_shares; i++)
		json_object_set_new(shares, v->shares[i].name,
				    json_real(v->shares[i].value));
	return json_pack("{s:s, s:s, s:s, s:o}", "bound",
			 bound_kind_name(v->bound), "basis",
			 v->budget ? "time_budget" : "device_cpu_shares",
			 "text", v->text, "shares", shares);
}

json_t *comparisons_to_json(const struct comparison_list *l)
{
	json_t *arr = json_array();
	unsigned int i, t;

	for (i = 0; i < l->n; i++) {
		const struct comparison *c = &l->v[i];
		json_t *targets = json_array();

		for (t = 0; t < c->n_targets; t++)
			json_array_append_new(
				targets,
				json_pack("{s:s, s:i, s:f, s:f, s:f}", "target",
					  c->targets[t].label, "repeats",
					  (int)c->targets[t].n, "wall_s",
					  c->targets[t].wall_s, "ci95_low_s",
					  c->targets[t].ci_lo, "ci95_high_s",
					  c->targets[t].ci_hi));
		json_array_append_new(
			arr,
			json_pack("{s:s, s:s, s:s, s:o, s:o}", "workload",
				  c->workload, "params", c->params, "phase",
				  c->phase, "targets", targets, "findings",
				  findings_to_json(&c->findings)));
	}
	return arr;
}
