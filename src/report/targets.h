/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets' full specs, listed once at the top of the text report, so
 * that tables can name each target by its short name (ext4, xfs#2, old);
 * and the guest kernels of run --kernel, which tables call ext4@6.1.0.
 */
#ifndef FSPROF_REPORT_TARGETS_H
#define FSPROF_REPORT_TARGETS_H

#include <stdio.h>

#include "results/results.h"

#define TARGETS_WIDTH 100

/* "targets:" and a line per target; nothing when every name is its spec */
void report_target_list(const struct run_result *run, FILE *out);

/* "kernels:" and a line per guest kernel (run --kernel); else nothing */
void report_kernel_list(const struct run_result *run, FILE *out);

#endif
