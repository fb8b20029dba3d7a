/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the ext4 domain shares between bpf/ext4.bpf.c and userspace. */
#ifndef FSPROF_EXT4_H
#define FSPROF_EXT4_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/*
 * The mballoc criteria passes under the names of the kernel's enum criteria
 * (6.5+). Older kernels' numbered passes are decoded into these in
 * bpf/core_fixes.bpf.h, so a report means the same pass on every kernel.
 */
enum ext4_cr {
	EXT4_CR_POWER2_ALIGNED, /* was cr 0 */
	EXT4_CR_GOAL_LEN_FAST, /* was cr 1 */
	EXT4_CR_BEST_AVAIL_LEN, /* new in 6.5 (cr 1.5) */
	EXT4_CR_GOAL_LEN_SLOW, /* was cr 2 */
	EXT4_CR_ANY_FREE, /* was cr 3 */
	EXT4_CR_UNKNOWN, /* a pass this build cannot name */
	EXT4_CR_NR,
};

/*
 * The counters of struct ext4_stats, one list for both sides, in the order
 * the results list them: X(field, metric, prog) - the field the kernel side
 * counts into, its metric's name after "ext4.", and the program counting
 * it (enum ext4_prog, src/trace/ext4.c: a counter is reported only when
 * its program is traced).
 */
#define EXT4_COUNTERS(X)                                                     \
	/* mballoc */                                                        \
	X(alloc_requests, alloc_requests, E4_REQ) /* ext4_request_blocks */  \
	X(alloc_requested_blocks, alloc_requested_blocks, E4_REQ) /* len */  \
	X(alloc_goal_hits, alloc_goal_hits, E4_ALLOC) /* block == goal */    \
	X(alloc_goal_misses, alloc_goal_misses, E4_ALLOC)                    \
	X(alloc_failures, alloc_failures, E4_ALLOC) /* 0 blocks allocated */ \
	X(mballoc_regular, mballoc_regular, E4_MBALLOC) /* mballoc_alloc */  \
	X(mballoc_groups_scanned, mballoc_groups_scanned, E4_MBALLOC)        \
	X(mballoc_extents_scanned, mballoc_extents_scanned,                  \
	  E4_MBALLOC) /* ac_found */                                         \
	X(mballoc_prealloc, mballoc_prealloc, E4_MBPA) /* from a PA */       \
	X(pa_new_inode, pa_new_inode, E4_IPA) /* ext4_mb_new_inode_pa */     \
	X(pa_new_inode_blocks, pa_new_inode_blocks, E4_IPA)                  \
	X(pa_new_group, pa_new_group, E4_GPA) /* ext4_mb_new_group_pa */     \
	X(pa_new_group_blocks, pa_new_group_blocks, E4_GPA)                  \
	X(free_extents, free_extents, E4_FREE) /* ext4_free_blocks */        \
	X(freed_blocks, freed_blocks, E4_FREE)                               \
	/* delayed allocation and writeback */                               \
	X(da_reserves, da_reserves, E4_RESV) /* ext4_da_reserve_space */     \
	X(da_reserved_blocks, da_reserved_blocks, E4_RESV)                   \
	X(da_flushes, da_flushes, E4_FLUSH) /* da_write_folios_start */      \
	X(da_flush_extents, da_flush_extents, E4_DAEXT)                      \
	X(da_flush_blocks, da_flush_blocks, E4_DAEXT)                        \
	X(da_forced, da_forced_flushes, E4_DAFORCED) /* auto_da_alloc */     \
	X(writepages, writepages, E4_WP) /* ext4_writepages */               \
	X(writepages_pages, writepages_pages, E4_WPRES) /* pages_written */  \
	X(writepages_errors, writepages_errors, E4_WPRES) /* ret < 0 */      \
	/* fsync and sync */                                                 \
	X(fsyncs, fsyncs, E4_FSOUT) /* ext4_sync_file_exit, paired */        \
	X(fdatasyncs, fdatasyncs, E4_FSOUT) /* of which datasync */          \
	X(fsync_errors, fsync_errors, E4_FSOUT)                              \
	X(sync_fs, sync_fs, E4_SYNCFS) /* ext4_sync_fs */                    \
	X(fc_commits, fc_commits, E4_FCSTOP) /* fc_commit_stop, status ok */ \
	X(fc_commit_blocks, fc_commit_blocks, E4_FCSTOP)                     \
	X(fc_fallbacks, fc_fallbacks, E4_FCSTOP) /* ineligible, failed */    \
	X(fc_ineligible, fc_ineligible, E4_FCSTOP) /* STATUS_INELIGIBLE */   \
	X(fc_failed, fc_failed, E4_FCSTOP) /* could not start */             \
	X(fc_skipped, fc_skipped, E4_FCSTOP) /* another commit served it */  \
	/* the deep set (--probes deep): several hits per file */            \
	X(mark_inode_dirty, mark_inode_dirty, E4_DIRTY)                      \
	X(es_lookups, es_lookups, E4_ESLOOKUP) /* es_lookup_extent_exit */   \
	X(es_lookup_hits, es_lookup_hits, E4_ESLOOKUP) /* in the cache */

#define EXT4_STATS_FIELD(field, metric, prog) unsigned long long field;

/*
 * The fast-commit ineligibility reasons a kernel counts (its anonymous enum
 * EXT4_FC_REASON_*, read from BTF: 10 on 6.18), by their value; a value
 * from EXT4_FC_REASONS_MAX on is counted in the last slot.
 */
#define EXT4_FC_REASONS_MAX 16

/* the ineligibility counts of one superblock when last read (BPF globals) */
struct fc_baseline {
	unsigned long long sb; /* its address */
	unsigned long long seen[EXT4_FC_REASONS_MAX];
};

/* One per phase, in a per-CPU array indexed by the phase id. */
struct ext4_stats {
	EXT4_COUNTERS(EXT4_STATS_FIELD)
	unsigned long long mballoc_cr[EXT4_CR_NR]; /* mballoc's final pass */
	/*
	 * fast commits: ext4_fc_mark_ineligible() calls by reason, read as
	 * the rise of the superblock's s_fc_stats counts at each fast commit;
	 * and each fast commit that fell back as ineligible, by the reason
	 * that rose most since the previous one
	 */
	unsigned long long fc_reason_marks[EXT4_FC_REASONS_MAX];
	unsigned long long fc_reason_fallbacks[EXT4_FC_REASONS_MAX];
	/* histograms, default set */
	struct hist_counts alloc_extent_blocks; /* ext4_allocate_blocks len */
	struct hist_counts da_flush_extent_blocks; /* delalloc flush units */
	struct hist_counts fsync_ns; /* sync_file_enter -> exit */
};

#endif
