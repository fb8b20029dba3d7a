// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "results/per_op.h"
#include "results/phase_values.h"

#define EMIT(name, value)                                    \
	do {                                                 \
		int err_ = fn(ctx, (name), (double)(value)); \
		if (err_)                                    \
			return err_;                         \
	} while (0)

static int block_values(const struct phase_result *p, phase_value_fn fn,
			void *ctx)
{
	struct block_class_result total;
	char name[PHASE_VALUE_NAME_LEN];
	unsigned int i;

	block_result_total(&p->block, &total);
	EMIT("block.ios", total.ios);
	EMIT("block.bytes", total.bytes);
	for (i = 0; i < BLK_OPC_NR; i++) {
		snprintf(name, sizeof(name), "block.%s_ios",
			 blk_opclass_name(i));
		EMIT(name, p->block.cls[i].ios);
		snprintf(name, sizeof(name), "block.%s_bytes",
			 blk_opclass_name(i));
		EMIT(name, p->block.cls[i].bytes);
	}
	/* no request, no latency: absent, not 0 */
	if (!total.lat.count)
		return 0;
	EMIT("block.latency_p50_ns", latency_hist_percentile(&total.lat, 50));
	EMIT("block.latency_p99_ns", latency_hist_percentile(&total.lat, 99));
	return 0;
}

int phase_values(const struct phase_result *p, phase_value_fn fn, void *ctx)
{
	char name[PHASE_VALUE_NAME_LEN];
	unsigned int i;
	int err;

	EMIT("wall_ns", p->wall_ns);
	EMIT("mb_per_s", phase_mb_per_s(p));
	EMIT("mib_per_s", phase_mib_per_s(p));
	EMIT("files_per_s", phase_files_per_s(p));
	EMIT("cpu_percent", phase_cpu_percent(p));
	EMIT("user_ns", p->user_ns);
	EMIT("sys_ns", p->sys_ns);
	EMIT("workload.bytes", p->work.bytes);
	EMIT("workload.ops", p->work.ops);
	EMIT("workload.files", p->work.files);
	if (p->block.traced) {
		err = block_values(p, fn, ctx);
		if (err)
			return err;
	}
	for (i = 0; i < p->metrics.n; i++)
		EMIT(p->metrics.v[i].name, p->metrics.v[i].value);
	for (i = 0; i < p->metrics.n_hists; i++) {
		const struct metric_hist *h = &p->metrics.hists[i];

		if (!h->h.count)
			continue; /* no sample: no percentile */
		snprintf(name, sizeof(name), "%s.p50", h->name);
		EMIT(name, latency_hist_percentile(&h->h, 50));
		snprintf(name, sizeof(name), "%s.p99", h->name);
		EMIT(name, latency_hist_percentile(&h->h, 99));
	}
	return per_op_values(p, fn, ctx);
}
