// SPDX-License-Identifier: GPL-2.0
/* What phase bodies call to time operations and record samples. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/clock.h"
#include "workload/workload.h"

const char *op_class_name(enum op_class op)
{
	static const char *const names[OP_NR] = {
		[OP_WRITE] = "write",	  [OP_READ] = "read",
		[OP_CREATE] = "create",	  [OP_OPEN] = "open",
		[OP_CLOSE] = "close",	  [OP_UNLINK] = "unlink",
		[OP_MKDIR] = "mkdir",	  [OP_RMDIR] = "rmdir",
		[OP_FSYNC] = "fsync",	  [OP_SYNC] = "sync",
		[OP_SEEK] = "seek",	  [OP_RENAME] = "rename",
		[OP_READDIR] = "readdir",
	};

	return op < OP_NR ? names[op] : "?";
}

void op_record(struct phase_ctx *pc, enum op_class op, uint64_t start_ns)
{
	uint64_t now = clock_mono_ns();

	if (op >= OP_NR)
		return;
	if (!pc->op_hist[op]) {
		char name[METRIC_NAME_LEN];

		snprintf(name, sizeof(name), "op.%s_ns", op_class_name(op));
		pc->op_hist[op] = metric_hist(&pc->result->metrics, name);
		if (!pc->op_hist[op])
			return;
	}
	latency_hist_record(pc->op_hist[op], now - start_ns);
}

int interval_add(struct phase_ctx *pc, uint64_t t_ns, uint64_t files,
		 uint64_t bytes)
{
	struct phase_result *r = pc->result;
	struct interval_sample *s;

	if (r->n_intervals == r->intervals_cap) {
		unsigned int cap = r->intervals_cap ? r->intervals_cap * 2 : 64;
		struct interval_sample *bigger =
			realloc(r->intervals, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		r->intervals = bigger;
		r->intervals_cap = cap;
	}
	s = &r->intervals[r->n_intervals++];
	s->t_ns = t_ns;
	s->files = files;
	s->bytes = bytes;
	return 0;
}
