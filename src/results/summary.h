/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over repeats: the cases of one (target, workload, parameters)
 * are grouped, and every metric of every phase gets mean, stddev and a 95%
 * confidence interval.
 */
#ifndef FSPROF_SUMMARY_H
#define FSPROF_SUMMARY_H

#include "results/results.h"
#include "util/stats.h"

struct summary_metric {
	char name[METRIC_NAME_LEN + 8];
	struct stats st;
};

struct summary_phase {
	char name[32];
	unsigned int n_metrics, cap;
	struct summary_metric *metrics;
};

struct summary_group {
	const char *target_label; /* points into the run result */
	const char *target_name; /* short */
	const char *workload;
	const char *params;
	const char *kernel; /* its guest's release (run --kernel), or NULL */
	char kernel_name[200]; /* with a kernel, target_name: "ext4@6.1.0" */
	unsigned int repeats; /* complete cases in the group */
	bool fits_in_ram; /* size < 2xRAM */
	unsigned int n_phases;
	struct summary_phase *phases;
};

struct summary {
	unsigned int n;
	struct summary_group *groups;
};

int summary_build(const struct run_result *run, struct summary *out);
void summary_free(struct summary *s);

/* the statistics of metric name in a phase, or NULL */
const struct stats *summary_stat(const struct summary_phase *p,
				 const char *name);

#endif
