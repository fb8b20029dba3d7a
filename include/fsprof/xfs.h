/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the XFS domain shares between bpf/xfs.bpf.c and userspace. */
#ifndef FSPROF_XFS_H
#define FSPROF_XFS_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/*
 * Event counts per phase, one slot each in struct xfs_counts; one list for
 * both sides: X(id, metric) - the slot XFS_CTR_<id> the kernel side counts
 * into, and its metric's name after "xfs." (src/trace/xfs.c).
 */
#define XFS_COUNTERS(X)                                                        \
	/* xfs_log_force, both halves of a force (reported by caller class) */ \
	X(LOG_FORCE_EVENTS, log_force_events)                                  \
	X(LOG_FORCE_UNTRACKED,                                                 \
	  log_force_events_untracked) /* caller map full */                    \
	X(LOG_WRITES, log_writes) /* xlog_iclog_write: one per log write */    \
	/* ... with NEED_FUA: checkpoint end, sync force */                    \
	X(LOG_WRITES_FUA, log_writes_fua)                                      \
	X(LOG_GRANT_SLEEPS, log_grant_sleeps) /* out of log space */           \
	X(CIL_WAITS,                                                           \
	  cil_waits) /* xfs_log_cil_wait: CIL over its hard limit */           \
	X(AIL_PUSH, ail_push) /* xfsaild pushed an item to disk */             \
	X(AIL_PINNED, ail_pinned) /* ... found it pinned: needs a log force */ \
	X(AIL_LOCKED, ail_locked) /* ... found it locked */                    \
	X(AIL_FLUSHING, ail_flushing) /* ... found it already being flushed */ \
	X(ALLOC_START_AG, alloc_start_ag) /* xfs_alloc_vextent_start_ag */     \
	X(ALLOC_THIS_AG, alloc_this_ag)                                        \
	X(ALLOC_FIRST_AG, alloc_first_ag)                                      \
	X(ALLOC_NEAR_BNO, alloc_near_bno)                                      \
	X(ALLOC_EXACT_BNO, alloc_exact_bno)                                    \
	/* xfs_extent_busy_force: log forced to reuse */                       \
	X(BUSY_FORCES, extent_busy_forces)                                     \
	X(DELALLOC_CONVERTS, delalloc_converts) /* xfs_map_blocks_alloc */     \
	X(IOMAP_ALLOCS, iomap_allocs) /* xfs_iomap_alloc: new delalloc */

#define XFS_CTR_ENUM(id, metric) XFS_CTR_##id,

enum xfs_counter {
	XFS_COUNTERS(XFS_CTR_ENUM) XFS_CTR_NR,
};

/* Distributions per phase, each a struct hist_counts. */
enum xfs_histogram {
	XFS_HIST_LOG_WRITE_BYTES, /* iclog payload (offset) at write */
	XFS_HIST_LOG_WRITE_NS, /* xlog_iclog_sync -> xlog_iclog_sync_done */
	XFS_HIST_GRANT_SLEEP_NS, /* xfs_log_grant_sleep -> _wake, same task */
	XFS_HIST_ALLOC_BLOCKS, /* xfs_alloc_vextent_finish len, fs blocks */
	XFS_HIST_NR,
};

struct xfs_counts {
	unsigned long long ctr[XFS_CTR_NR];
};

static inline unsigned int xfs_hist_index(unsigned int phase, unsigned int hist)
{
	return phase * XFS_HIST_NR + hist;
}

#define XFS_HIST_ENTRIES (FSPROF_MAX_PHASES * XFS_HIST_NR)

/*
 * What the first argument of an event is, where it changed between kernels
 * (decided in userspace from the tracepoint's BTF prototype).
 */
enum xfs_arg_kind {
	XFS_ARG_UNKNOWN, /* program not loaded */
	XFS_ARG_MOUNT, /* struct xfs_mount * */
	XFS_ARG_AIL, /* struct xfs_ail * (AIL push events, 2025) */
	XFS_ARG_LOG_ITEM, /* struct xfs_log_item * (AIL push events before) */
	XFS_ARG_PERAG, /* struct xfs_perag * (busy extents before 6.13) */
	XFS_ARG_GROUP, /* struct xfs_group * (busy extents, 6.13) */
	XFS_ARG_DEV, /* dev_t itself */
};

/* log forces per (phase, caller address); userspace names the caller */
struct xfs_force_key {
	unsigned int phase;
	unsigned int pad;
	unsigned long long caller_ip;
};

#define XFS_FORCE_CALLERS_MAX 1024

/* One timeline bin (include/fsprof/timeline.h). */
struct xfs_tl_bin {
	unsigned long long log_writes; /* xlog_iclog_write */
	unsigned long long log_force_events; /* xfs_log_force, both halves */
};

#endif
