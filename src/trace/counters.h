/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's counters by name: each one an unsigned long long of its summed
 * per-phase statistics (trace/percpu.h), reported only when the program
 * that counts it is traced, so that a zero in the results is a measured
 * zero and an absent metric one that was not measured.
 */
#ifndef FSPROF_COUNTERS_H
#define FSPROF_COUNTERS_H

#include <stddef.h>
#include <stdbool.h>

struct metric_set;

struct counter_def {
	const char *name; /* "ext4.alloc_requests" */
	size_t offset; /* of its unsigned long long in the stats struct */
	int prog; /* the domain's index of the program counting it */
};

/* a counter_def row: the metric, the stats struct's field, its program */
#define COUNTER_DEF(metric, type, field, prog)      \
	{                                           \
		metric, offsetof(type, field), prog \
	}

/* is the domain's program prog traced (ctx: the domain) */
typedef bool (*counter_traced_fn)(const void *ctx, int prog);

/* add every traced counter of defs, read from stats, to m; -errno */
int counters_report(struct metric_set *m, const void *stats,
		    const struct counter_def *defs, size_t n,
		    counter_traced_fn traced, const void *ctx);

#endif
