/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A phase's cache state at its start, and the untimed step that makes it:
 * - warm: nothing is done;
 * - dropped: syncfs and drop_caches (the workload's own prepare step);
 * - cold: the target is unmounted and mounted again with the same options,
 *   after the workload's prepare step: only the target's page cache,
 *   dentries, inodes and metadata buffers go; the device model stays.
 * The state comes from the workload's default (phase_def.cache), --warm
 * (nothing dropped, and nothing cold but what --cold names) and --cold
 * LIST (exactly the phases named run cold; "none": no phase does).
 */
#ifndef FSPROF_RUN_PHASE_CACHE_H
#define FSPROF_RUN_PHASE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "run/options.h"
#include "target/target.h"
#include "trace/tracer.h"
#include "workload/workload.h"

#define PHASE_COLD_NONE "none"

/*
 * --cold's list is well formed (names, or "none" alone) and each name is a
 * phase of some workload of the run; else -EINVAL with the reason in err.
 */
int phase_cold_check(const struct run_options *opt, char *err, size_t len);

/*
 * "warm", "dropped" or "cold" for def under opt. A phase cold by default
 * on a target that cannot be mounted again (--dir) is "dropped" instead.
 */
const char *phase_cache_state(const struct run_options *opt,
			      const struct phase_def *def, bool can_remount);

/*
 * After the workload's prepare step, what state asks for and the
 * workload does not do itself: for "cold", syncfs on dir, then the target
 * unmounted and mounted again (tracer: NULL when untraced); for a default
 * cold phase made "dropped", the cache drop.
 */
int phase_cache_prepare(const char *state, const struct phase_def *def,
			struct target *target, struct tracer *tracer,
			const char *dir);

#endif
