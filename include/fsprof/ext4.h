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

/* One per phase, in a per-CPU array indexed by the phase id. */
struct ext4_stats {
	/* mballoc */
	unsigned long long alloc_requests; /* ext4_request_blocks */
	unsigned long long alloc_requested_blocks; /* their len */
	unsigned long long alloc_failures; /* ext4_allocate_blocks, 0 blocks */
	unsigned long long alloc_goal_hits; /* result block == the goal */
	unsigned long long alloc_goal_misses;
	unsigned long long mballoc_regular; /* ext4_mballoc_alloc */
	unsigned long long mballoc_cr[EXT4_CR_NR]; /* its final pass */
	unsigned long long mballoc_groups_scanned;
	unsigned long long mballoc_extents_scanned; /* ac_found */
	unsigned long long mballoc_prealloc; /* served from a preallocation */
	unsigned long long pa_new_inode; /* ext4_mb_new_inode_pa */
	unsigned long long pa_new_inode_blocks;
	unsigned long long pa_new_group; /* ext4_mb_new_group_pa */
	unsigned long long pa_new_group_blocks;
	unsigned long long free_extents; /* ext4_free_blocks */
	unsigned long long freed_blocks;
	/* delayed allocation and writeback */
	unsigned long long da_reserves; /* ext4_da_reserve_space */
	unsigned long long da_reserved_blocks;
	unsigned long long da_flushes; /* da_write_folios_start / _pages */
	unsigned long long da_flush_extents; /* ext4_da_write_pages_extent */
	unsigned long long da_flush_blocks;
	unsigned long long da_forced; /* ext4_alloc_da_blocks (auto_da_alloc) */
	unsigned long long writepages; /* ext4_writepages */
	unsigned long long writepages_pages; /* pages_written of the result */
	unsigned long long writepages_errors; /* results with ret < 0 */
	/* fsync and sync */
	unsigned long long fsyncs; /* ext4_sync_file_exit, paired */
	unsigned long long fdatasyncs; /* of which datasync */
	unsigned long long fsync_errors;
	unsigned long long sync_fs; /* ext4_sync_fs */
	unsigned long long fc_commits; /* ext4_fc_commit_stop, status ok */
	unsigned long long fc_commit_blocks;
	unsigned long long fc_fallbacks; /* ineligible, skipped or failed */
	/* the deep set (--probes deep): several hits per file */
	unsigned long long mark_inode_dirty; /* ext4_mark_inode_dirty */
	unsigned long long es_lookups; /* ext4_es_lookup_extent_exit */
	unsigned long long es_lookup_hits; /* found in the extent cache */
	/* histograms, default set */
	struct hist_counts alloc_extent_blocks; /* ext4_allocate_blocks len */
	struct hist_counts da_flush_extent_blocks; /* delalloc flush units */
	struct hist_counts fsync_ns; /* sync_file_enter -> exit */
};

#endif
