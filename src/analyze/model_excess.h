/* SPDX-License-Identifier: GPL-2.0 */
/* Did a phase's traced device go faster than the device model allows? */
#ifndef FSPROF_ANALYZE_MODEL_EXCESS_H
#define FSPROF_ANALYZE_MODEL_EXCESS_H

#include "results/results.h"

/* a limit of the device model that a phase's traced device went over */
#define MODEL_LIMITS 4
/* ... or a stack's member disk, each with the model's limits */
#define MODEL_EXCESS_MAX (MODEL_LIMITS * BLK_MEMBERS_MAX)
struct model_excess {
	const char *what; /* "write IOPS (cache flushes included)", "MB/s read" */
	const char *metric; /* the phase's count behind it */
	int member; /* a stack's member (target.block_stack order), or -1 */
	double amount; /* that count: requests or bytes */
	double rate, limit; /* in what's unit */
};

/*
 * blk-throttle lets a request through while the requests since its slice
 * began stay within limit x the time elapsed rounded *up* to whole slices
 * (tg_within_iops_limit / tg_within_bps_limit, block/blk-throttle.c), so
 * a phase of T seconds can pass limit x (T + one slice): 100 ms, the
 * rotational queue's slice (DFL_THROTL_SLICE_HD; a non-rotational one has
 * 20 ms). It matters for short phases only: 19 writes in a 0.106 s rm-sync
 * under 150 IOPS are 179 a second, but held.
 */
#define MODEL_SLICE_S 0.1

/*
 * The model's limits (t's wiops, riops, wbps, rbps) that p's traced device
 * exceeded by more than factor, into out; how many. A stacked target
 * whose members are each throttled (t->model.n_members): each member's
 * requests against the limits, as each member is a disk of the model. The throttle charges a
 * cache flush as an empty write (blkdev_issue_flush): write IOPS count
 * writes and flushes. A phase may pass one slice's quota more than its
 * length allows (MODEL_SLICE_S); the rate out says is the phase's own.
 */
unsigned int phase_model_excess(const struct target_result *t,
				const struct phase_result *p, double factor,
				struct model_excess out[MODEL_EXCESS_MAX]);

#endif
