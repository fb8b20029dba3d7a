/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets' full specs, listed once at the top of the text report, so
 * that tables can name each target by its short name (ext4, xfs#2, old).
 */
#ifndef FSPROF_REPORT_TARGETS_H
#define FSPROF_REPORT_TARGETS_H

#include <stdio.h>

#include "results/results.h"

#define TARGETS_WIDTH 100

/* "targets:" and a line per target; nothing when every name is its spec */
void report_target_list(const struct run_result *run, FILE *out);

#endif
