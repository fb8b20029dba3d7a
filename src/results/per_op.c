// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>

#include "results/per_op.h"

#define PER_OP_DEN_MAX 5

struct per_op_def {
	const char *name;
	const char *num; /* a metric of the phase */
	const char *den[PER_OP_DEN_MAX]; /* summed; NULL-terminated */
	double scale; /* the ratio times this */
};

/* "workload.*" (bytes_mb, files, fsyncs: the workload's own fsync calls)
 * and "block.*" are read from the phase itself (per_op_count), the others
 * from its kernel metrics */
static const struct per_op_def defs[] = {
	{ "per_op.ext4.groups_scanned_per_alloc",
	  "ext4.mballoc_groups_scanned",
	  { "ext4.alloc_requests" },
	  1 },
	{ "per_op.ext4.extents_scanned_per_alloc",
	  "ext4.mballoc_extents_scanned",
	  { "ext4.alloc_requests" },
	  1 },
	{ "per_op.ext4.cr0_share",
	  "ext4.mballoc_cr_power2_aligned",
	  { "ext4.mballoc_cr_power2_aligned", "ext4.mballoc_cr_goal_len_fast",
	    "ext4.mballoc_cr_best_avail_len", "ext4.mballoc_cr_goal_len_slow",
	    "ext4.mballoc_cr_any_free" },
	  1 },
	{ "per_op.ext4.cr1_share",
	  "ext4.mballoc_cr_goal_len_fast",
	  { "ext4.mballoc_cr_power2_aligned", "ext4.mballoc_cr_goal_len_fast",
	    "ext4.mballoc_cr_best_avail_len", "ext4.mballoc_cr_goal_len_slow",
	    "ext4.mballoc_cr_any_free" },
	  1 },
	{ "per_op.ext4.goal_hit_share",
	  "ext4.alloc_goal_hits",
	  { "ext4.alloc_goal_hits", "ext4.alloc_goal_misses" },
	  1 },
	{ "per_op.ext4.blocks_per_alloc",
	  "ext4.alloc_requested_blocks",
	  { "ext4.alloc_requests" },
	  1 },
	{ "per_op.ext4.da_flush_blocks_per_mb",
	  "ext4.da_flush_blocks",
	  { "workload.bytes_mb" },
	  1 },
	{ "per_op.ext4.da_extents_per_flush",
	  "ext4.da_flush_extents",
	  { "ext4.da_flushes" },
	  1 },
	{ "per_op.ext4.da_forced_flushes_per_mb",
	  "ext4.da_forced_flushes",
	  { "workload.bytes_mb" },
	  1 },
	{ "per_op.jbd2.blocks_per_commit",
	  "jbd2.blocks",
	  { "jbd2.commits" },
	  1 },
	{ "per_op.jbd2.commits_per_fsync",
	  "jbd2.commits",
	  { "workload.fsyncs" },
	  1 },
	{ "per_op.xfs.log_writes_per_1000_files",
	  "xfs.log_writes",
	  { "workload.files" },
	  1000 },
	{ "per_op.xfs.log_bytes_per_log_write",
	  "block.log_write_bytes",
	  { "xfs.log_writes" },
	  1 },
	{ "per_op.xfs.log_forces_per_fsync",
	  "xfs.log_force_events",
	  { "workload.fsyncs" },
	  1 },
	{ "per_op.block.ios_per_mb", "block.ios", { "workload.bytes_mb" }, 1 },
	{ "per_op.block.bytes_per_io", "block.bytes", { "block.ios" }, 1 },
};

static bool per_op_is_total(const char *name)
{
	return !strncmp(name, "workload.", 9) || !strncmp(name, "block.", 6);
}

const char *per_op_metric_read(unsigned int i)
{
	size_t d, k;

	for (d = 0; d < sizeof(defs) / sizeof(defs[0]); d++) {
		const char *names[1 + PER_OP_DEN_MAX] = { defs[d].num };

		for (k = 0; k < PER_OP_DEN_MAX; k++)
			names[1 + k] = defs[d].den[k];
		for (k = 0; k < 1 + PER_OP_DEN_MAX && names[k]; k++) {
			if (per_op_is_total(names[k]))
				continue;
			if (!i--)
				return names[k];
		}
	}
	return NULL;
}

/* a count of the phase by name: its metrics, or its block and workload
 * totals under the names above */
static double per_op_count(const struct phase_result *p, const char *name)
{
	struct block_class_result t;
	const struct metric *m;
	unsigned int i;
	uint64_t n = 0;

	if (!strcmp(name, "workload.bytes_mb"))
		return (double)p->work.bytes / 1e6;
	if (!strcmp(name, "workload.files"))
		return (double)p->work.files;
	if (!strcmp(name, "workload.fsyncs")) {
		const struct latency_hist *h =
			metric_hist_find(&p->metrics, "op.fsync_ns");

		return h ? (double)h->count : 0;
	}
	if (!strncmp(name, "block.", 6) && !p->block.traced)
		return 0;
	block_result_total(&p->block, &t);
	if (!strcmp(name, "block.ios"))
		return (double)t.ios;
	if (!strcmp(name, "block.bytes"))
		return (double)t.bytes;
	if (!strcmp(name, "block.log_write_bytes")) {
		for (i = 0; i < p->block.n_io; i++)
			if (p->block.io[i].ioclass == BLK_IOC_LOG_WRITE)
				n += p->block.io[i].r.bytes;
		return (double)n;
	}
	m = metric_find(&p->metrics, name);
	return m ? (double)m->value : 0;
}

/*
 * Did the phase measure the count at all? The workload's own counts always;
 * block.* when the block domain traced it; the others when the phase has
 * the metric. A count that was not measured is not a 0.
 */
static bool per_op_measured(const struct phase_result *p, const char *name)
{
	if (!strncmp(name, "workload.", 9))
		return true;
	if (!strncmp(name, "block.", 6))
		return p->block.traced;
	return metric_find(&p->metrics, name) != NULL;
}

bool per_op_is_ratio(const char *name)
{
	return !strncmp(name, PER_OP_PREFIX, sizeof(PER_OP_PREFIX) - 1);
}

int per_op_values(const struct phase_result *p,
		  int (*fn)(void *ctx, const char *name, double value),
		  void *ctx)
{
	unsigned int i, j;
	int err;

	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		const struct per_op_def *d = &defs[i];
		double den = 0;

		/* an unmeasured numerator or a denominator of 0 (or of
		 * nothing measured): undefined, so absent, never 0 */
		if (!per_op_measured(p, d->num))
			continue;
		for (j = 0; j < PER_OP_DEN_MAX && d->den[j]; j++)
			if (per_op_measured(p, d->den[j]))
				den += per_op_count(p, d->den[j]);
		if (!(den > 0))
			continue;
		err = fn(ctx, d->name,
			 d->scale * per_op_count(p, d->num) / den);
		if (err)
			return err;
	}
	return 0;
}
