// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/findings.h"

const char *finding_severity_name(enum finding_severity s)
{
	switch (s) {
	case FINDING_OK:
		return "ok";
	case FINDING_INFO:
		return "info";
	case FINDING_WARNING:
		return "warning";
	}
	return "?";
}

const char *advice_kind_name(enum advice_kind k)
{
	switch (k) {
	case ADVICE_NONE:
		return "none";
	case ADVICE_MOUNT:
		return "mount";
	case ADVICE_MKFS:
		return "mkfs";
	case ADVICE_SYSCTL:
		return "sysctl";
	case ADVICE_WORKLOAD:
		return "workload";
	case ADVICE_FSTYPE:
		return "fstype";
	}
	return "?";
}

const char *bound_kind_name(enum bound_kind b)
{
	static const char *const names[BOUND_NR] = {
		[BOUND_DEVICE] = "device", [BOUND_CPU] = "cpu",
		[BOUND_CACHE] = "cache",   [BOUND_JOURNAL] = "journal",
		[BOUND_LOG] = "log",	   [BOUND_THROTTLE] = "throttle",
		[BOUND_LOCK] = "lock",	   [BOUND_MIXED] = "mixed",
	};

	return b < BOUND_NR ? names[b] : "?";
}

int finding_list_add(struct finding_list *l, const struct finding *f)
{
	if (l->n == l->cap) {
		unsigned int cap = l->cap ? l->cap * 2 : 4;
		struct finding *bigger = realloc(l->v, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		l->v = bigger;
		l->cap = cap;
	}
	l->v[l->n++] = *f;
	return 0;
}

const struct finding *finding_list_find(const struct finding_list *l,
					const char *rule)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].rule, rule))
			return &l->v[i];
	return NULL;
}

void finding_list_free(struct finding_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct comparison *comparison_list_add(struct comparison_list *l)
{
	struct comparison *c;

	if (l->n == l->cap) {
		unsigned int cap = l->cap ? l->cap * 2 : 4;
		struct comparison *bigger =
			realloc(l->v, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		l->v = bigger;
		l->cap = cap;
	}
	c = &l->v[l->n++];
	memset(c, 0, sizeof(*c));
	return c;
}

void comparison_list_free(struct comparison_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		finding_list_free(&l->v[i].findings);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
