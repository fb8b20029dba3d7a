// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/events.h"

static const struct event_kind_info kinds[FSPROF_EV_NR] = {
	[FSPROF_EV_JBD2_COMMIT] = {
		"jbd2", "commit",
		{ "tid", "commit_ns", "handles", "blocks", "blocks_logged" },
		{ NULL, NULL },
	},
	[FSPROF_EV_XFS_LOG_FORCE] = {
		"xfs", "log_force",
		{ "lsn", "caller_ip" },
		{ "caller_class", "caller" },
	},
	[FSPROF_EV_WB_WORK] = {
		"writeback", "work",
		{ "pages", "duration_ns" },
		{ "reason", NULL },
	},
	[FSPROF_EV_BLK_SLOW_IO] = {
		"block", "slow_io",
		{ "sector", "bytes", "latency_ns" },
		{ "class", "issuer" },
	},
};

const struct event_kind_info *event_kind_info(unsigned int kind)
{
	return kind < FSPROF_EV_NR && kinds[kind].name ? &kinds[kind] : NULL;
}

int event_list_add(struct event_list *l, const struct event_record *r)
{
	if (l->n == EVENT_LIST_MAX) {
		l->not_stored++;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct event_record *bigger =
			realloc(l->v, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		l->v = bigger;
		l->cap = cap;
	}
	l->v[l->n++] = *r;
	return 0;
}

size_t event_list_count(const struct event_list *l, int kind, int phase)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		if ((kind < 0 || l->v[i].kind == kind) &&
		    (phase < 0 || l->v[i].phase == (uint32_t)phase))
			n++;
	return n;
}

void event_list_free(struct event_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
