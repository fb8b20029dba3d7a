/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rare events of a case (journal commits, XFS log forces, writeback
 * batches, slow IOs), in arrival order, as the domains' ring buffers
 * delivered them. What each kind's values and strings mean is in its
 * event_kind_info.
 */
#ifndef FSPROF_EVENTS_H
#define FSPROF_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "fsprof/event.h"

#define EVENT_MAX_STRINGS 2
#define EVENT_STR_LEN 32
/* events kept per case; more are counted in not_stored */
#define EVENT_LIST_MAX 262144

struct event_record {
	uint64_t t_ns; /* CLOCK_MONOTONIC, like phases' start_mono_ns */
	uint32_t phase; /* 0: between phases */
	uint16_t kind; /* enum fsprof_event_kind */
	uint64_t v[EVENT_NVALUES];
	char s[EVENT_MAX_STRINGS][EVENT_STR_LEN];
};

struct event_kind_info {
	const char *domain; /* "jbd2" */
	const char *name; /* "commit" */
	const char *values[EVENT_NVALUES]; /* names of v[], NULL = unused */
	const char *strings[EVENT_MAX_STRINGS]; /* names of s[] */
};

struct event_list {
	size_t n, cap;
	struct event_record *v;
	uint64_t not_stored; /* beyond EVENT_LIST_MAX */
};

/* the kind's names; NULL for a kind this build does not know */
const struct event_kind_info *event_kind_info(unsigned int kind);

/* append a copy; a full list counts it in not_stored; -ENOMEM */
int event_list_add(struct event_list *l, const struct event_record *r);

/* events of kind (-1: any) charged to phase (-1: any phase) */
size_t event_list_count(const struct event_list *l, int kind, int phase);

void event_list_free(struct event_list *l);

#endif
