/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mechanisms per operation: what a kernel developer comparing two kernels
 * reads (mballoc groups scanned per allocation and its criteria's shares,
 * delalloc blocks flushed per MB written, journal blocks per commit and
 * commits per fsync, XFS log writes per 1000 files, bytes per log write
 * and log forces per fsync, IOs per MB and the mean request). Ratios of
 * counts the kernel made, so emulation's speed (TCG) does not move them.
 * Each is emitted only when it is defined, under "per_op.": its numerator
 * measured (block.* counts need the block domain) and its denominator
 * above 0. An undefined ratio is absent, never 0: a reader (fsprof diff,
 * the repeat summary, bisect-step, the history) sees no value.
 */
#ifndef FSPROF_PER_OP_H
#define FSPROF_PER_OP_H

#include <stdbool.h>

#include "results/results.h"

#define PER_OP_PREFIX "per_op."

/* one of the ratios per_op_values emits, by its name */
bool per_op_is_ratio(const char *name);

/*
 * The i-th kernel metric the ratios read (numerators and denominators,
 * without the phase's own workload.* and block.* totals), NULL past the
 * last: test_metric_names checks each is a name the trace side writes.
 */
const char *per_op_metric_read(unsigned int i);

/* fn as phase_values() calls it (results/phase_values.h's phase_value_fn) */
int per_op_values(const struct phase_result *p,
		  int (*fn)(void *ctx, const char *name, double value),
		  void *ctx);

#endif
