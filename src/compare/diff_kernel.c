// SPDX-License-Identifier: GPL-2.0
/*
 * Kernels in a diff: one run of fsprof run --kernel split into its two
 * kernels (--by kernel), the kernel named as the variable when A's and B's
 * cases ran on different kernels, and the times of emulated guests (TCG)
 * left out of the tests unless --time-verdicts: an emulator's speed varies
 * by a factor, so only counts and per-operation mechanisms are judged.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff_int.h"

static int view_add(struct run_result *v, const struct run_result *src,
		    const struct case_result *c)
{
	if (!v->cases) {
		*v = *src;
		v->cases = calloc(src->n_cases, sizeof(*v->cases));
		v->n_cases = 0;
		v->cases_cap = src->n_cases;
		memset(&v->comparisons, 0, sizeof(v->comparisons));
		if (!v->cases)
			return -ENOMEM;
		snprintf(v->kernel_release, sizeof(v->kernel_release), "%s",
			 c->kernel.guest ? c->kernel.release :
					   c->target.kernel_release);
	}
	v->cases[v->n_cases++] = *c;
	return 0;
}

int diff_split_by_kernel(const struct run_result *src, struct run_result *a,
			 struct run_result *b, char *err, size_t errlen)
{
	const struct case_result *first = NULL, *second = NULL;
	unsigned int i, kernels = 0;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	for (i = 0; i < src->n_cases; i++) {
		const struct case_result *c = &src->cases[i];

		if (!first || case_same_kernel(c, first)) {
			first = first ? first : c;
			continue;
		}
		if (!second || case_same_kernel(c, second)) {
			second = second ? second : c;
			continue;
		}
		kernels = 3;
	}
	kernels = kernels ? kernels : (unsigned int)!!first + !!second;
	if (kernels != 2) {
		snprintf(
			err, errlen,
			"--by kernel sets two kernels of one run against each other; this run has %s (fsprof run --kernel A,B makes one)",
			kernels > 2 ? "more than two" :
			kernels	    ? "one" :
				      "no complete case");
		return -EINVAL;
	}
	for (i = 0; i < src->n_cases && !ret; i++)
		ret = view_add(case_same_kernel(&src->cases[i], first) ? a : b,
			       src, &src->cases[i]);
	if (ret) {
		run_result_view_free(a);
		run_result_view_free(b);
	}
	return ret;
}

void run_result_view_free(struct run_result *view)
{
	free(view->cases);
	memset(view, 0, sizeof(*view));
}

static void kernel_name(const struct case_result *c, char *buf, size_t len)
{
	if (c->kernel.guest && c->kernel.slot)
		snprintf(buf, len, "%.100s (%.100s), guest #%u",
			 c->kernel.release, c->kernel.source, c->kernel.slot);
	else if (c->kernel.guest)
		snprintf(buf, len, "%.120s (%.120s)", c->kernel.release,
			 c->kernel.source);
	else
		snprintf(buf, len, "%.120s (this machine)",
			 c->target.kernel_release);
}

/* a time: its value moves with the emulator's speed */
static bool is_time(const char *name)
{
	static const char *const rates[] = { "mb_per_s", "mib_per_s",
					     "files_per_s", "cpu_percent" };
	size_t len = strlen(name);
	unsigned int i;

	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (!strcmp(name, rates[i]))
			return true;
	return (len > 3 && !strcmp(name + len - 3, "_ns")) ||
	       strstr(name, "_ns.");
}

static void pair_times_off(struct diff_result *d, struct diff_pair *p)
{
	unsigned int i, j;

	for (i = 0; i < p->n_phases; i++) {
		struct diff_phase *ph = &p->phases[i];

		for (j = 0; j < ph->n_metrics; j++) {
			struct diff_metric *m = &ph->metrics[j];

			if (!is_time(m->name))
				continue;
			m->emulated_time = true;
			m->p = NAN;
			d->n_emulated_times++;
		}
		for (j = 0; j < ph->n_hists; j++)
			if (is_time(ph->hists[j].name))
				ph->hists[j].p = NAN;
	}
}

void diff_kernels(struct diff_result *d)
{
	unsigned int i;

	for (i = 0; i < d->n_pairs; i++) {
		struct diff_pair *p = &d->pairs[i];
		const struct case_result *a = p->a_case, *b = p->b_case;

		if (!case_same_kernel(a, b) && !d->kernel_variable) {
			d->kernel_variable = true;
			kernel_name(a, d->a_kernel, sizeof(d->a_kernel));
			kernel_name(b, d->b_kernel, sizeof(d->b_kernel));
			d->same_kernel_twice =
				a->kernel.slot && b->kernel.slot &&
				!strcmp(a->kernel.source, b->kernel.source) &&
				!strcmp(a->kernel.btf_hash, b->kernel.btf_hash);
		}
		if (!a->kernel.emulated && !b->kernel.emulated)
			continue;
		d->emulated = true;
		if (!d->opt.time_verdicts)
			pair_times_off(d, p);
	}
}
