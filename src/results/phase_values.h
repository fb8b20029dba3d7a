/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every number of a phase that statistics over repeats look at, by name:
 * the headline rates, CPU, the workload's own counts, block totals per
 * operation and tail latency, every named metric, and each histogram's p50
 * and p99. The repeat summary and fsprof diff read phases through this one
 * list.
 */
#ifndef FSPROF_PHASE_VALUES_H
#define FSPROF_PHASE_VALUES_H

#include "results/results.h"

/* longest name phase_values emits */
#define PHASE_VALUE_NAME_LEN (METRIC_NAME_LEN + 8)

typedef int (*phase_value_fn)(void *ctx, const char *name, double value);

/* call fn for each value of p; stops at and returns fn's first non-zero */
int phase_values(const struct phase_result *p, phase_value_fn fn, void *ctx);

#endif
