// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repro/bisect_values.h"

int bisect_metric_parse(const char *arg, const char *case_sel,
			struct bisect_metric *m)
{
	const char *slash = strchr(arg, '/');
	size_t plen = slash ? (size_t)(slash - arg) : 0;
	const char *name = slash ? slash + 1 : arg;

	memset(m, 0, sizeof(*m));
	if (!*name || strchr(name, '/') || plen >= sizeof(m->phase) ||
	    strlen(name) >= sizeof(m->name) || (slash && !plen))
		return -EINVAL;
	memcpy(m->phase, arg, plen);
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->case_sel, sizeof(m->case_sel), "%s",
		 case_sel ? case_sel : "");
	return 0;
}

/* --case: the workload, the target's name, or WORKLOAD/TARGET */
static bool case_selected(const struct case_result *c, const char *sel)
{
	char both[80];

	if (!sel[0])
		return true;
	snprintf(both, sizeof(both), "%s/%s", c->workload, case_target_name(c));
	return !strcmp(sel, c->workload) || !strcmp(sel, case_target_name(c)) ||
	       !strcmp(sel, both);
}

struct value_hunt {
	const char *name;
	double value;
	bool found;
};

static int value_match(void *ctx, const char *name, double value)
{
	struct value_hunt *h = ctx;

	if (strcmp(name, h->name))
		return 0;
	h->value = value;
	h->found = true;
	return 1;
}

/* the value of name in phase p; false when p has none */
static bool phase_value(const struct phase_result *p, const char *name,
			double *value)
{
	struct value_hunt h = { .name = name };

	phase_values(p, value_match, &h);
	*value = h.value;
	return h.found;
}

static const struct phase_result *case_phase(const struct case_result *c,
					     const char *phase)
{
	unsigned int i;

	for (i = 0; i < c->n_phases; i++)
		if (!strcmp(c->phases[i].name, phase))
			return &c->phases[i];
	return NULL;
}

static int values_add(struct bisect_values *out, double v)
{
	double *more = realloc(out->v, (out->n + 1) * sizeof(*more));

	if (!more)
		return -ENOMEM;
	more[out->n++] = v;
	out->v = more;
	return 0;
}

void bisect_values_free(struct bisect_values *vals)
{
	free(vals->v);
	vals->v = NULL;
	vals->n = 0;
}

/* a case's identity across repeats: workload, params, target, kernel */
static bool same_case(const struct case_result *a, const struct case_result *b)
{
	return !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params) &&
	       !strcmp(a->target_label, b->target_label) &&
	       a->kernel.guest == b->kernel.guest &&
	       !strcmp(a->kernel.release, b->kernel.release) &&
	       a->kernel.slot == b->kernel.slot;
}

/* "files1m/ext4", with its kernel when it ran in a guest */
static void case_name(const struct case_result *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s%s%s", c->workload, case_target_name(c),
		 c->kernel.guest ? " on " : "",
		 c->kernel.guest ? c->kernel.release : "");
}

/* the one case --case selects: 0; -ENOENT none, -EINVAL several (err) */
static int case_pick(const struct run_result *run, const char *sel,
		     const struct case_result **one, char *err, size_t errlen)
{
	char list[512] = "", name[200];
	unsigned int i, j, n = 0;
	size_t used = 0;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		for (j = 0; j < i; j++)
			if (same_case(&run->cases[j], c))
				break;
		if (j < i)
			continue;
		case_name(c, name, sizeof(name));
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%s",
						 used ? ", " : "", name);
		if (!case_selected(c, sel))
			continue;
		*one = c;
		n++;
	}
	if (n == 1)
		return 0;
	if (!n) {
		snprintf(err, errlen,
			 "no case of the good run is %s (it has: %s)",
			 sel[0] ? sel : "there", list[0] ? list : "none");
		return -ENOENT;
	}
	snprintf(
		err, errlen,
		"the good run has several cases (%s): --case WORKLOAD/TARGET picks one",
		list);
	return -EINVAL;
}

#define PHASES_LISTED 16

/* the phase of c's repeats that has m's metric, into m->phase */
static int phase_pick(const struct run_result *run, const struct case_result *c,
		      struct bisect_metric *m, char *err, size_t errlen)
{
	char names[PHASES_LISTED][32], list[256] = "";
	unsigned int i, j, k, n = 0;
	size_t used = 0;
	double v;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *r = &run->cases[i];

		for (j = 0; same_case(r, c) && j < r->n_phases; j++) {
			const char *name = r->phases[j].name;

			for (k = 0; k < n && strcmp(names[k], name); k++)
				;
			if (k < n || n == PHASES_LISTED ||
			    !phase_value(&r->phases[j], m->name, &v))
				continue;
			snprintf(names[n++], sizeof(names[0]), "%s", name);
			if (used < sizeof(list))
				used += (size_t)snprintf(
					list + used, sizeof(list) - used,
					"%s%s", used ? ", " : "", name);
		}
	}
	if (n == 1) {
		snprintf(m->phase, sizeof(m->phase), "%s", names[0]);
		return 0;
	}
	if (!n) {
		snprintf(err, errlen, "no phase of %s/%s has a metric %s",
			 c->workload, case_target_name(c), m->name);
		return -ENOENT;
	}
	snprintf(
		err, errlen,
		"%s is a metric of several phases of %s/%s (%s): --metric PHASE/%s picks one",
		m->name, c->workload, case_target_name(c), list, m->name);
	return -EINVAL;
}

/* the values of m's phase and metric in every repeat of c */
static int values_of(const struct run_result *run, const struct case_result *c,
		     const struct bisect_metric *m, bool kernel_too,
		     struct bisect_values *out)
{
	const struct phase_result *p;
	unsigned int i;
	double v;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *r = &run->cases[i];

		/* the new run: its workload and target, whatever its kernel
		 * (and its parameters, when the options given change them) */
		if (kernel_too ? !same_case(r, c) :
				 strcmp(r->workload, m->workload) ||
					 strcmp(case_target_name(r), m->target))
			continue;
		p = case_phase(r, m->phase);
		if (p && phase_value(p, m->name, &v) && values_add(out, v))
			return -ENOMEM;
	}
	return 0;
}

int bisect_values_find(const struct run_result *run, struct bisect_metric *m,
		       struct bisect_values *out, char *err, size_t errlen)
{
	const struct case_result *c = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = case_pick(run, m->case_sel, &c, err, errlen);
	if (!ret && !m->phase[0])
		ret = phase_pick(run, c, m, err, errlen);
	if (ret)
		return ret;
	snprintf(m->workload, sizeof(m->workload), "%s", c->workload);
	snprintf(m->target, sizeof(m->target), "%s", case_target_name(c));
	ret = values_of(run, c, m, true, out);
	if (!ret && !out->n) {
		snprintf(err, errlen, "no %s/%s repeat has a value of %s/%s",
			 m->workload, m->target, m->phase, m->name);
		ret = -ENOENT;
	}
	return ret;
}

int bisect_values_again(const struct run_result *run,
			const struct bisect_metric *m,
			struct bisect_values *out, char *err, size_t errlen)
{
	int ret = values_of(run, NULL, m, false, out);

	if (!ret && !out->n) {
		snprintf(err, errlen,
			 "the new run has no %s/%s case with a value of %s/%s",
			 m->workload, m->target, m->phase, m->name);
		ret = -ENOENT;
	}
	return ret;
}
