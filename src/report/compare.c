// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report/compare.h"
#include "report/text.h"
#include "results/summary.h"

/* "12.3 ± 0.4" or "12.3" for one sample; scale divides the values */
static void cell(const struct stats *st, double scale, const char *fmt,
		 char *buf, size_t len)
{
	char mean[32], half[32];

	if (!st || !st->n) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(mean, sizeof(mean), fmt, st->mean / scale);
	if (st->n < 2) {
		snprintf(buf, len, "%s", mean);
		return;
	}
	snprintf(half, sizeof(half), fmt,
		 (st->ci95_hi - st->mean) / scale);
	snprintf(buf, len, "%s ± %s", mean, half);
}

static void compare_row(const struct summary_group *g,
			const struct summary_phase *sp, bool first, FILE *out)
{
	char wall[80], mbs[80], fps[80], cpu[80], wr[80], p99[80];
	const struct stats *lat = summary_stat(sp, "block.latency_p99_ns");

	cell(summary_stat(sp, "wall_ns"), 1e9, "%.3f", wall, sizeof(wall));
	cell(summary_stat(sp, "mb_per_s"), 1, "%.1f", mbs, sizeof(mbs));
	cell(summary_stat(sp, "files_per_s"), 1, "%.0f", fps, sizeof(fps));
	cell(summary_stat(sp, "cpu_percent"), 1, "%.1f", cpu, sizeof(cpu));
	cell(summary_stat(sp, "block.write_bytes"), 1e6, "%.1f", wr,
	     sizeof(wr));
	cell(lat, 1e6, "%.2f", p99, sizeof(p99));
	/* the ± sign is 2 bytes, 1 column: widen the fields by one */
	fprintf(out, "%-8s %-32s %*s %*s %*s %*s %*s %*s\n",
		first ? sp->name : "", g->target_label,
		strstr(wall, "±") ? 19 : 18, wall, strstr(mbs, "±") ? 17 : 16,
		mbs, strstr(fps, "±") ? 15 : 14, fps,
		strstr(cpu, "±") ? 13 : 12, cpu, strstr(wr, "±") ? 15 : 14, wr,
		strstr(p99, "±") ? 15 : 14, p99);
}

static void compare_workload(const struct summary *sum, unsigned int first,
			     FILE *out)
{
	const struct summary_group *g0 = &sum->groups[first];
	unsigned int ph, i;

	fprintf(out, "\n%s (%s), %u repeat%s per target%s\n", g0->workload,
		g0->params, g0->repeats, g0->repeats == 1 ? "" : "s",
		g0->repeats > 1 ? ": mean ± half the 95% confidence interval" :
				  "");
	if (g0->fits_in_ram)
		fprintf(out, "size < 2xRAM: the page cache can hold this data\n");
	fprintf(out, "%-8s %-32s %18s %16s %14s %12s %14s %14s\n", "phase",
		"target", "wall s", "MB/s", "files/s", "CPU %", "dev wr MB",
		"lat p99 ms");
	for (ph = 0; ph < g0->n_phases; ph++) {
		bool firstrow = true;

		for (i = first; i < sum->n; i++) {
			const struct summary_group *g = &sum->groups[i];

			if (strcmp(g->workload, g0->workload) ||
			    strcmp(g->params, g0->params) || ph >= g->n_phases)
				continue;
			compare_row(g, &g->phases[ph], firstrow, out);
			firstrow = false;
		}
	}
}

void report_compare(const struct run_result *run, FILE *out)
{
	struct summary sum;
	unsigned int i, j;

	if (summary_build(run, &sum))
		return;
	for (i = 0; i < sum.n; i++) {
		/* one table per workload: start at its first group */
		for (j = 0; j < i; j++)
			if (!strcmp(sum.groups[j].workload,
				    sum.groups[i].workload) &&
			    !strcmp(sum.groups[j].params,
				    sum.groups[i].params))
				break;
		if (j == i)
			compare_workload(&sum, i, out);
	}
	summary_free(&sum);
}
