// SPDX-License-Identifier: GPL-2.0
/* Rules on ext4 block allocation: delayed allocation and mballoc. */
#include <stdio.h>
#include <string.h>

#include "analyze/rules.h"
#include "analyze/thresholds.h"
#include "results/metric_names.h"

static bool nodelalloc(const struct phase_facts *x)
{
	return mount_option_has(x->c->target.super_opts, "nodelalloc") ||
	       mount_option_has(x->c->target.mount_opts, "nodelalloc");
}

/* the median allocation in blocks: the histogram, else the mean asked */
static double alloc_blocks_p50(const struct phase_facts *x, uint64_t allocs)
{
	double p50 = fact_hist_p50(x, MN(EXT4_ALLOC_EXTENT_BLOCKS));

	if (p50 > 0 || !allocs)
		return p50;
	return (double)fact_metric(x, MN(EXT4_ALLOC_REQUESTED_BLOCKS)) /
	       (double)allocs;
}

bool rule_ext4_delalloc_off(const struct phase_facts *x, struct finding *f)
{
	uint64_t writes = fact_hist_count(x, MN(OP_WRITE_NS));
	uint64_t allocs = fact_metric(x, MN(EXT4_ALLOC_REQUESTS));
	double per_write = writes ? (double)allocs / (double)writes : 0;
	double p50 = alloc_blocks_p50(x, allocs);

	if (x->fs != FS_EXT || x->too_short || !nodelalloc(x) ||
	    writes < DELALLOC_MIN_WRITES ||
	    per_write < DELALLOC_ALLOCS_PER_WRITE || p50 <= 0 ||
	    p50 > DELALLOC_SMALL_ALLOC_BLOCKS)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(
		f,
		"%s allocates blocks at every write: delayed allocation is off",
		x->p->name);
	finding_evidence(
		f, "ext4.alloc_requests", (double)allocs, per_write,
		DELALLOC_ALLOCS_PER_WRITE,
		"%llu block allocations for %llu write(2) calls: %.2f per write",
		(unsigned long long)allocs, (unsigned long long)writes,
		per_write);
	finding_evidence(f, "ext4.alloc_extent_blocks.p50", p50, NAN,
			 DELALLOC_SMALL_ALLOC_BLOCKS,
			 "median allocation %.0f block(s)", p50);
	finding_evidence(
		f, "ext4.da_reserves",
		(double)fact_metric(x, MN(EXT4_DA_RESERVES)), NAN, NAN,
		"%llu delayed-allocation reservations; mounted with nodelalloc (%s)",
		(unsigned long long)fact_metric(x, MN(EXT4_DA_RESERVES)),
		x->c->target.super_opts);
	finding_evidence(
		f, "ext4.alloc_goal_hits",
		(double)fact_metric(x, MN(EXT4_ALLOC_GOAL_HITS)), NAN, NAN,
		"%llu allocations got their goal block, %llu did not",
		(unsigned long long)fact_metric(x, MN(EXT4_ALLOC_GOAL_HITS)),
		(unsigned long long)fact_metric(x, MN(EXT4_ALLOC_GOAL_MISSES)));
	finding_advice(
		f, ADVICE_MOUNT, "delalloc",
		"mount without nodelalloc (-o delalloc, ext4's default): blocks are then allocated once per flushed range, not per write");
	return true;
}

bool rule_ext4_delalloc_defeated(const struct phase_facts *x, struct finding *f)
{
	uint64_t extents = fact_metric(x, MN(EXT4_DA_FLUSH_EXTENTS));
	uint64_t files = x->p->work.files;
	double p50 = fact_hist_p50(x, MN(EXT4_DA_FLUSH_EXTENT_BLOCKS));
	double per_file = files ? (double)extents / (double)files : 0;
	double file_blocks = files ? (double)x->p->work.bytes / files / 4096 :
				     0;

	if (x->fs != FS_EXT || x->too_short || nodelalloc(x) || !files ||
	    per_file < DELALLOC_EXTENTS_PER_FILE || p50 <= 0 ||
	    p50 > DELALLOC_SMALL_ALLOC_BLOCKS ||
	    file_blocks < DELALLOC_EXTENTS_PER_FILE * p50)
		return false;
	f->severity = FINDING_INFO;
	finding_title(
		f,
		"%s flushes its files in small pieces: delayed allocation is defeated",
		x->p->name);
	finding_evidence(
		f, "ext4.da_flush_extents", (double)extents, per_file,
		DELALLOC_EXTENTS_PER_FILE,
		"%llu extents allocated at flush for %llu files: %.1f per file",
		(unsigned long long)extents, (unsigned long long)files,
		per_file);
	finding_evidence(
		f, "ext4.da_flush_extent_blocks.p50", p50, NAN,
		DELALLOC_SMALL_ALLOC_BLOCKS,
		"median extent %.0f blocks, for files of %.0f blocks on average",
		p50, file_blocks);
	if (x->sync_calls)
		finding_evidence(
			f, "op.fsync_ns.count", (double)x->sync_calls, NAN, NAN,
			"%llu fsync/fdatasync/syncfs calls in the phase",
			(unsigned long long)x->sync_calls);
	finding_advice(
		f, ADVICE_WORKLOAD, NULL,
		"write each file completely before syncing it (or preallocate with fallocate): one flush, one extent");
	return true;
}

bool rule_ext4_mballoc_scanning(const struct phase_facts *x, struct finding *f)
{
	uint64_t regular = fact_metric(x, MN(EXT4_MBALLOC_REGULAR));
	uint64_t groups = fact_metric(x, MN(EXT4_MBALLOC_GROUPS_SCANNED));
	uint64_t extents = fact_metric(x, MN(EXT4_MBALLOC_EXTENTS_SCANNED));
	uint64_t late = fact_metric(x, MN(EXT4_MBALLOC_CR_GOAL_LEN_SLOW)) +
			fact_metric(x, MN(EXT4_MBALLOC_CR_ANY_FREE));
	uint64_t hits = fact_metric(x, MN(EXT4_ALLOC_GOAL_HITS));
	uint64_t misses = fact_metric(x, MN(EXT4_ALLOC_GOAL_MISSES));
	double per_alloc = regular ? (double)groups / (double)regular : 0;
	double late_share = regular ? (double)late / (double)regular : 0;
	double oncpu = budget_usable(&x->budget) ?
			       budget_bound_share(&x->budget, BOUND_CPU) :
			       x->cpu;

	if (x->fs != FS_EXT || x->too_short || regular < MBALLOC_MIN_ALLOCS ||
	    (per_alloc < MBALLOC_GROUPS_PER_ALLOC &&
	     late_share < MBALLOC_LATE_CR_SHARE))
		return false;
	/* the scan is CPU work (and bitmap reads): it matters when CPU does */
	f->severity = oncpu >= BOUND_MAJORITY ? FINDING_WARNING : FINDING_INFO;
	finding_title(f, "%s: ext4's allocator searches hard for free space",
		      x->p->name);
	finding_evidence(
		f, "ext4.mballoc_groups_scanned", (double)groups, per_alloc,
		MBALLOC_GROUPS_PER_ALLOC,
		"%.1f block groups scanned per regular allocation (%llu allocations)",
		per_alloc, (unsigned long long)regular);
	/* the work inside each group: free extents measured, up to
	 * mb_max_to_scan (200) in the late passes' complex scan */
	finding_evidence(f, "ext4.mballoc_extents_scanned", (double)extents,
			 regular ? (double)extents / (double)regular : 0, NAN,
			 "%.0f free extents examined per regular allocation",
			 regular ? (double)extents / (double)regular : 0);
	finding_evidence(
		f, "ext4.mballoc_cr_goal_len_slow+cr_any_free", (double)late,
		late_share, MBALLOC_LATE_CR_SHARE,
		"%.0f%% of them ended in the late criteria passes (goal_len_slow, any_free)",
		100 * late_share);
	if (hits + misses)
		finding_evidence(f, "ext4.alloc_goal_hits", (double)hits,
				 (double)hits / (double)(hits + misses), NAN,
				 "%.0f%% of allocations got their goal block",
				 100.0 * (double)hits /
					 (double)(hits + misses));
	finding_evidence(f, "cpu.percent", 100 * x->cpu, x->cpu, BOUND_MAJORITY,
			 "CPU %.0f%% of the phase", 100 * x->cpu);
	finding_advice(
		f, ADVICE_WORKLOAD, NULL,
		"free space is fragmented or short: keep more of the filesystem free (e2freefrag shows the free extents), rewrite or e4defrag fragmented files; mb_optimize_scan=1 (mount) makes each scan cheaper when there are many groups");
	return true;
}
