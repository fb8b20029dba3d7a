// SPDX-License-Identifier: GPL-2.0
#include "analyze/model_excess.h"

unsigned int phase_model_excess(const struct target_result *t,
				const struct phase_result *p, double factor,
				struct model_excess out[MODEL_LIMITS])
{
	const struct block_class_result *c = p->block.cls;
	const struct device_model *m = &t->model.m;
	const struct {
		const char *what, *metric;
		double amount, limit, unit;
	} use[MODEL_LIMITS] = {
		{ "write IOPS (cache flushes included)",
		  "block.classes.write.ios",
		  (double)(c[BLK_OPC_WRITE].ios + c[BLK_OPC_FLUSH].ios),
		  (double)m->wiops, 1 },
		{ "read IOPS", "block.classes.read.ios",
		  (double)c[BLK_OPC_READ].ios, (double)m->riops, 1 },
		{ "MB/s written", "block.classes.write.bytes",
		  (double)c[BLK_OPC_WRITE].bytes, (double)m->wbps, 1e6 },
		{ "MB/s read", "block.classes.read.bytes",
		  (double)c[BLK_OPC_READ].bytes, (double)m->rbps, 1e6 },
	};
	double secs = (double)p->wall_ns / 1e9;
	unsigned int i, n = 0;

	if (!p->block.traced || !p->wall_ns)
		return 0;
	for (i = 0; i < MODEL_LIMITS; i++) {
		double rate = use[i].amount / secs;

		if (!use[i].limit ||
		    use[i].amount <=
			    factor * use[i].limit * (secs + MODEL_SLICE_S))
			continue;
		out[n++] = (struct model_excess){
			.what = use[i].what,
			.metric = use[i].metric,
			.amount = use[i].amount,
			.rate = rate / use[i].unit,
			.limit = use[i].limit / use[i].unit,
		};
	}
	return n;
}
