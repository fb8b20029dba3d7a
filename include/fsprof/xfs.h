/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the XFS domain shares between bpf/xfs.bpf.c and userspace. */
#ifndef FSPROF_XFS_H
#define FSPROF_XFS_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/* Event counts per phase, one slot each in struct xfs_counts. */
enum xfs_counter {
	XFS_CTR_LOG_FORCE_EVENTS, /* xfs_log_force, both halves of a force */
	XFS_CTR_LOG_FORCE_UNTRACKED, /* caller map full: caller unknown */
	XFS_CTR_LOG_WRITES, /* xlog_iclog_write: one per log write */
	XFS_CTR_LOG_WRITES_FUA, /* ... with NEED_FUA: checkpoint end, sync force */
	XFS_CTR_LOG_GRANT_SLEEPS, /* xfs_log_grant_sleep: out of log space */
	XFS_CTR_CIL_WAITS, /* xfs_log_cil_wait: CIL over its hard limit */
	XFS_CTR_AIL_PUSH, /* xfsaild pushed an item to disk */
	XFS_CTR_AIL_PINNED, /* ... found it pinned: needs a log force */
	XFS_CTR_AIL_LOCKED, /* ... found it locked */
	XFS_CTR_AIL_FLUSHING, /* ... found it already being flushed */
	XFS_CTR_ALLOC_START_AG, /* xfs_alloc_vextent_start_ag */
	XFS_CTR_ALLOC_THIS_AG,
	XFS_CTR_ALLOC_FIRST_AG,
	XFS_CTR_ALLOC_NEAR_BNO,
	XFS_CTR_ALLOC_EXACT_BNO,
	XFS_CTR_BUSY_FORCES, /* xfs_extent_busy_force: log forced to reuse */
	XFS_CTR_DELALLOC_CONVERTS, /* xfs_map_blocks_alloc: writeback */
	XFS_CTR_IOMAP_ALLOCS, /* xfs_iomap_alloc: new delalloc reservation */
	XFS_CTR_NR,
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
