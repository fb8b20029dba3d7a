// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "util/histogram.h"

const char *blk_opclass_name(enum blk_opclass c)
{
	static const char *const names[BLK_OPC_NR] = {
		[BLK_OPC_READ] = "read",       [BLK_OPC_WRITE] = "write",
		[BLK_OPC_FLUSH] = "flush",     [BLK_OPC_DISCARD] = "discard",
		[BLK_OPC_OTHER] = "other",
	};

	return c < BLK_OPC_NR ? names[c] : "?";
}

const char *attach_state_name(enum attach_state s)
{
	switch (s) {
	case ATTACH_ATTACHED:
		return "attached";
	case ATTACH_MISSING:
		return "missing";
	case ATTACH_FAILED:
		return "failed";
	}
	return "?";
}

void block_result_total(const struct block_result *b,
			struct block_class_result *out)
{
	unsigned int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < BLK_OPC_NR; c++) {
		out->ios += b->cls[c].ios;
		out->bytes += b->cls[c].bytes;
		latency_hist_add(&out->lat, &b->cls[c].lat);
	}
}

static double phase_seconds(const struct phase_result *p)
{
	return (double)p->wall_ns / 1e9;
}

double phase_mb_per_s(const struct phase_result *p)
{
	return p->wall_ns ? (double)p->work.bytes / 1e6 / phase_seconds(p) : 0;
}

double phase_mib_per_s(const struct phase_result *p)
{
	return p->wall_ns ?
		       (double)p->work.bytes / 1048576.0 / phase_seconds(p) :
		       0;
}

double phase_cpu_percent(const struct phase_result *p)
{
	return p->wall_ns ? 100.0 * (double)(p->user_ns + p->sys_ns) /
				    (double)p->wall_ns :
			    0;
}

struct attach_record *run_result_add_program(struct run_result *run)
{
	struct attach_record *rec;

	if (run->n_programs >= RESULTS_MAX_PROGRAMS)
		return NULL;
	rec = &run->programs[run->n_programs++];
	memset(rec, 0, sizeof(*rec));
	return rec;
}

void run_result_free(struct run_result *run)
{
	unsigned int i;

	for (i = 0; i < RESULTS_MAX_PHASES; i++)
		metric_set_free(&run->phases[i].metrics);
	metric_set_free(&run->spill_metrics);
	free(run->target.mkfs_output);
	run->target.mkfs_output = NULL;
}
