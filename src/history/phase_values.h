/* SPDX-License-Identifier: GPL-2.0 */
/* The (metric, value) rows of one phase the history stores. */
#ifndef FSPROF_HISTORY_PHASE_VALUES_H
#define FSPROF_HISTORY_PHASE_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"

/* one value: an integer count, or a derived real (is_real) */
struct phase_value {
	const char *name;
	bool is_real;
	int64_t i;
	double d;
};

/* called for every value; a non-zero return stops the walk and is returned */
typedef int (*phase_value_fn)(const struct phase_value *v, void *ctx);

/*
 * Walk a phase's values: phase.* (wall_s, user_s, sys_s, cpu_pct, mb_per_s,
 * files_per_s, bytes, ops, files, context switches), block.total.*,
 * block.op.<op>.* and block.class.<class>.* (ios, bytes) and
 * block.busy_ns when traced, every named metric, and each histogram's
 * .count, .mean, .p50 and .p99.
 */
int phase_values_walk(const struct phase_result *p, phase_value_fn fn,
		      void *ctx);

#endif
