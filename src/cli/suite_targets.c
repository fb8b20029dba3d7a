// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/classic_table.h"
#include "cli/suite_targets.h"
#include "target/fsspec.h"

/*
 * s's index in opt->fs, added when no target there has its label; -EINVAL
 * when one target would have two names, or two targets one name
 */
static int union_add(struct run_options *opt, const struct fsspec *s, char *err,
		     size_t errlen)
{
	unsigned int i;

	for (i = 0; i < opt->n_fs; i++) {
		const struct fsspec *u = &opt->fs[i];

		if (strcmp(u->label, s->label) && strcmp(u->name, s->name))
			continue;
		if (!strcmp(u->label, s->label) && !strcmp(u->name, s->name))
			return (int)i;
		snprintf(
			err, errlen,
			"targets %s (named %s) and %s (named %s) clash: give each its own NAME=",
			u->label, u->name, s->label, s->name);
		return -EINVAL;
	}
	if (opt->n_fs == FSSPEC_MAX) {
		snprintf(err, errlen, "more than %d targets", FSSPEC_MAX);
		return -EINVAL;
	}
	opt->fs[opt->n_fs] = *s;
	return (int)opt->n_fs++;
}

/* w runs on the targets of e, added to opt->fs */
static int workload_targets(struct run_options *opt, struct workload_opt *w,
			    const struct classic_experiment *e, char *err,
			    size_t errlen)
{
	struct fsspec specs[FSSPEC_MAX];
	char why[512];
	int n, k, t;

	n = fsspec_parse(e->targets, specs, FSSPEC_MAX, why, sizeof(why));
	if (n < 0) {
		snprintf(err, errlen, "the targets of %s: %s", e->workload,
			 why);
		return n;
	}
	for (k = 0; k < n; k++) {
		t = union_add(opt, &specs[k], why, sizeof(why));
		if (t < 0) {
			snprintf(err, errlen, "the targets of %s: %s",
				 e->workload, why);
			return t;
		}
		w->fs_mask |= 1u << t;
	}
	return 0;
}

int suite_targets_plan(struct run_options *opt, char *err, size_t errlen)
{
	struct classic_list table;
	unsigned int i, k;
	int ret;

	ret = classic_table_parse(classic_tsv, &table, err, errlen);
	if (ret)
		return ret;
	opt->n_fs = 0;
	for (i = 0; i < opt->n_workloads && !ret; i++) {
		struct workload_opt *w = &opt->workloads[i];

		w->fs_mask = 0;
		for (k = 0; k < table.n; k++)
			if (!strcmp(table.v[k].workload, w->name))
				break;
		if (k < table.n)
			ret = workload_targets(opt, w, &table.v[k], err,
					       errlen);
	}
	classic_list_free(&table);
	return ret;
}
