/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets' full specs, listed once at the top of the text report, so
 * that tables can name each target by its short name (ext4, xfs#2, old);
 * and the guest kernels of run --kernel, which tables call ext4@6.1.0.
 */
#ifndef FSPROF_REPORT_TARGETS_H
#define FSPROF_REPORT_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

#define TARGETS_WIDTH 100

/* "targets:" and a line per target; nothing when every name is its spec */
void report_target_list(const struct run_result *run, FILE *out);

/* case i ran in a guest whose kernel no case before it had */
bool kernel_first(const struct run_result *run, unsigned int i);

/* the orders (results.h) of the cases of case first's kernel: "1 3" */
void kernel_case_orders(const struct run_result *run, unsigned int first,
			char *buf, size_t len);

/* "kernels:" and a line per guest kernel (run --kernel), with the places
 * of its cases in the run's order; else nothing */
void report_kernel_list(const struct run_result *run, FILE *out);

#endif
