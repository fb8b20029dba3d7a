/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mechanisms per operation: what a kernel developer comparing two kernels
 * reads (mballoc groups scanned per allocation and its criteria's shares,
 * delalloc blocks flushed per MB written, journal blocks per commit and
 * commits per fsync, XFS log writes per 1000 files, bytes per log write
 * and log forces per fsync, IOs per MB and the mean request). Ratios of
 * counts the kernel made, so emulation's speed (TCG) does not move them.
 * Each is emitted only when its denominator is non-zero, under "per_op.".
 */
#ifndef FSPROF_PER_OP_H
#define FSPROF_PER_OP_H

#include "results/results.h"

/* fn as phase_values() calls it (results/phase_values.h's phase_value_fn) */
int per_op_values(const struct phase_result *p,
		  int (*fn)(void *ctx, const char *name, double value),
		  void *ctx);

#endif
