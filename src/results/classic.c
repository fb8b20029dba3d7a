// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/classic.h"

static const struct {
	const char *name, *unit;
} metric_names[CLASSIC_METRIC_NR] = {
	[CLASSIC_WALL_S] = { "wall_s", "s" },
	[CLASSIC_MB_PER_S] = { "mb_per_s", "MB/s" },
	[CLASSIC_MIB_PER_S] = { "mib_per_s", "MiB/s" },
	[CLASSIC_FILES_PER_S] = { "files_per_s", "files/s" },
};

const char *classic_metric_name(enum classic_metric m)
{
	return m < CLASSIC_METRIC_NR ? metric_names[m].name : "?";
}

const char *classic_metric_unit(enum classic_metric m)
{
	return m < CLASSIC_METRIC_NR ? metric_names[m].unit : "?";
}

enum classic_metric classic_metric_parse(const char *name)
{
	unsigned int m;

	for (m = 0; m < CLASSIC_METRIC_NR; m++)
		if (!strcmp(name, metric_names[m].name))
			return (enum classic_metric)m;
	return CLASSIC_METRIC_NR;
}

const char *classic_verdict_name(enum classic_verdict v)
{
	switch (v) {
	case CLASSIC_AGREES:
		return "agrees";
	case CLASSIC_DIFFERS:
		return "differs";
	case CLASSIC_INCONCLUSIVE:
		return "inconclusive";
	case CLASSIC_NO_INTERVAL:
		return "no interval";
	case CLASSIC_NOT_RUN:
		return "not run";
	}
	return "?";
}

void classic_target_first(const char *target, char *out, size_t len)
{
	size_t n = strcspn(target, "|");

	snprintf(out, len, "%.*s", (int)n, target);
}

struct classic_experiment *classic_list_add(struct classic_list *l)
{
	struct classic_experiment *bigger =
		realloc(l->v, (l->n + 1) * sizeof(*bigger));

	if (!bigger)
		return NULL;
	l->v = bigger;
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

void classic_list_free(struct classic_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
