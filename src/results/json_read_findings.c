// SPDX-License-Identifier: GPL-2.0
/*
 * A saved phase's findings (findings_json.c) read back. `fsprof report`
 * re-analyses a run, so what matters most here is what re-analysis cannot
 * recompute: the --verify re-runs each finding carries.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/json_read_int.h"

static int severity_of(struct jread *r, const char *where, json_t *f,
		       enum finding_severity *out)
{
	static const enum finding_severity all[] = { FINDING_OK, FINDING_INFO,
						     FINDING_WARNING };
	char name[16] = "";
	unsigned int i;

	if (jread_str(r, where, f, "severity", name, sizeof(name)))
		return -EINVAL;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(finding_severity_name(all[i]), name)) {
			*out = all[i];
			return 0;
		}
	return jread_fail(r, where, "unknown severity '%s'", name);
}

static int advice_read(struct jread *r, const char *where, json_t *f,
		       struct advice *a)
{
	static const enum advice_kind all[] = { ADVICE_NONE, ADVICE_MOUNT,
						ADVICE_MKFS, ADVICE_SYSCTL,
						ADVICE_WORKLOAD,
						ADVICE_FSTYPE };
	char kind[16] = "none";
	json_t *obj;
	unsigned int i;

	if (jread_object(r, where, f, "advice", &obj))
		return -EINVAL;
	if (!obj)
		return 0;
	if (jread_str(r, where, obj, "text", a->text, sizeof(a->text)) ||
	    jread_str(r, where, obj, "kind", kind, sizeof(kind)) ||
	    jread_str(r, where, obj, "option", a->option, sizeof(a->option)))
		return -EINVAL;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(advice_kind_name(all[i]), kind)) {
			a->kind = all[i];
			return 0;
		}
	return jread_fail(r, where, "unknown advice kind '%s'", kind);
}

static int samples_read(struct jread *r, const char *where, json_t *obj,
			const char *key, double *v, unsigned int *n)
{
	json_t *arr, *s;
	size_t i;

	if (jread_array(r, where, obj, key, &arr))
		return -EINVAL;
	json_array_foreach(arr, i, s)
	{
		if (!json_is_number(s))
			return jread_fail(r, where, "'%s' holds a non-number",
					  key);
		if (*n < VERIFY_MAX_SAMPLES)
			v[(*n)++] = json_number_value(s);
	}
	return 0;
}

static int verified_read(struct jread *r, const char *where, json_t *f,
			 struct verification *v)
{
	json_t *obj, *ci;

	if (jread_object(r, where, f, "verified", &obj))
		return -EINVAL;
	if (!obj)
		return 0;
	v->done = true;
	if (jread_str(r, where, obj, "phase", v->phase, sizeof(v->phase)) ||
	    jread_str(r, where, obj, "applied", v->applied,
		      sizeof(v->applied)) ||
	    jread_uint(r, where, obj, "repeats", &v->repeats) ||
	    jread_uint(r, where, obj, "max_repeats", &v->max_repeats) ||
	    jread_double(r, where, obj, "look_alpha", &v->look_alpha) ||
	    jread_str(r, where, obj, "stopped", v->stopped,
		      sizeof(v->stopped)) ||
	    jread_double(r, where, obj, "before_s", &v->before_s) ||
	    jread_double(r, where, obj, "after_s", &v->after_s) ||
	    jread_double(r, where, obj, "ratio", &v->ratio) ||
	    jread_str(r, where, obj, "verdict", v->verdict,
		      sizeof(v->verdict)) ||
	    jread_str(r, where, obj, "note", v->note, sizeof(v->note)) ||
	    samples_read(r, where, obj, "before_samples_s", v->before,
			 &v->n_before) ||
	    samples_read(r, where, obj, "after_samples_s", v->after,
			 &v->n_after) ||
	    jread_array(r, where, obj, "ci95", &ci))
		return -EINVAL;
	if (isnan(v->ratio))
		v->ratio = 0; /* written as null when there was none */
	if (isnan(v->look_alpha))
		v->look_alpha = 0;
	if (ci && json_array_size(ci) == 2 &&
	    json_is_number(json_array_get(ci, 0)) &&
	    json_is_number(json_array_get(ci, 1))) {
		v->ci_lo = json_number_value(json_array_get(ci, 0));
		v->ci_hi = json_number_value(json_array_get(ci, 1));
	}
	return 0;
}

static int evidence_read(struct jread *r, const char *where, json_t *f,
			 struct finding *out)
{
	json_t *arr, *e;
	size_t i;

	if (jread_array(r, where, f, "evidence", &arr))
		return -EINVAL;
	json_array_foreach(arr, i, e)
	{
		struct evidence *ev;

		if (out->n_evidence == FINDING_MAX_EVIDENCE)
			break;
		ev = &out->ev[out->n_evidence++];
		ev->value = ev->share = ev->threshold = NAN;
		if (!json_is_object(e))
			return jread_fail(r, where,
					  "evidence is not an object");
		if (jread_str(r, where, e, "metric", ev->metric,
			      sizeof(ev->metric)) ||
		    jread_double(r, where, e, "value", &ev->value) ||
		    jread_double(r, where, e, "share", &ev->share) ||
		    jread_double(r, where, e, "threshold", &ev->threshold) ||
		    jread_str(r, where, e, "text", ev->text, sizeof(ev->text)))
			return -EINVAL;
	}
	return 0;
}

int jread_findings(struct jread *r, const char *where, json_t *arr,
		   struct finding_list *l)
{
	char at[256];
	json_t *f;
	size_t i;

	json_array_foreach(arr, i, f)
	{
		struct finding one;

		memset(&one, 0, sizeof(one));
		snprintf(at, sizeof(at), "%s[%zu]", where, i);
		if (!json_is_object(f))
			return jread_fail(r, at, "not an object");
		if (jread_str(r, at, f, "rule", one.rule, sizeof(one.rule)) ||
		    jread_str(r, at, f, "domain", one.domain,
			      sizeof(one.domain)) ||
		    severity_of(r, at, f, &one.severity) ||
		    jread_str(r, at, f, "title", one.title,
			      sizeof(one.title)) ||
		    jread_str(r, at, f, "mechanism", one.mechanism,
			      sizeof(one.mechanism)) ||
		    evidence_read(r, at, f, &one) ||
		    advice_read(r, at, f, &one.advice) ||
		    verified_read(r, at, f, &one.verified))
			return -EINVAL;
		if (finding_list_add(l, &one))
			return jread_fail(r, at, "out of memory");
	}
	return 0;
}
