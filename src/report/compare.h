/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets side by side: for each workload, one table with a row per target
 * for each phase; with repeats, mean ± half the 95% confidence interval.
 */
#ifndef FSPROF_REPORT_COMPARE_H
#define FSPROF_REPORT_COMPARE_H

#include <stdio.h>

#include "results/results.h"

void report_compare(const struct run_result *run, FILE *out);

#endif
