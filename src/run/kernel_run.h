/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof run --kernel LIST: the run's workloads, targets and repeats in a
 * QEMU guest of each kernel, one boot each, with this same fsprof. The
 * guests boot together and stay up; the host lets them run their cases in
 * turn (A, B, A, B: each case's order is recorded), so that a drift of the
 * machine hits every kernel alike and only one guest works at a time. The
 * guests' cases come back into one run, each with its kernel, and are
 * analysed, reported and recorded like any run's. Every kernel is staged
 * and checked before the first boot; one that cannot serve is refused
 * (exit 2). A guest that fails (a hang killed at --kernel-timeout, a
 * panic) is an error with its console's end; the others' cases are kept.
 */
#ifndef FSPROF_KERNEL_RUN_H
#define FSPROF_KERNEL_RUN_H

#include "run/options.h"

struct workload_params;

/* the whole run; the process exit code */
int run_kernels(const struct run_options *opt,
		const struct workload_params *params);

#endif
