// SPDX-License-Identifier: GPL-2.0
#include "results/metrics.h"
#include "trace/counters.h"

int counters_report(struct metric_set *m, const void *stats,
		    const struct counter_def *defs, size_t n,
		    counter_traced_fn traced, const void *ctx)
{
	const char *base = stats;
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const unsigned long long *v =
			(const void *)(base + defs[i].offset);

		if (traced(ctx, defs[i].prog))
			err = metric_add(m, defs[i].name, *v);
	}
	return err;
}
