/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named metrics of one phase: "<domain>.<what>" counters and histograms,
 * e.g. "jbd2.commits", "xfs.log_writes", histogram "jbd2.commit_ns".
 * The unit is the name's suffix (_ns, _bytes, _pages, _blocks; none = a
 * count). A domain adds metrics without touching the results model, and the
 * JSON nests them by domain: metrics.jbd2.commits.
 */
#ifndef FSPROF_METRICS_H
#define FSPROF_METRICS_H

#include <stdint.h>

#include "util/histogram.h"

#define METRIC_NAME_LEN 48

struct latency_hist {
	uint64_t count;
	uint64_t sum_ns; /* sum of the values (ns for latencies) */
	uint64_t max_ns; /* largest value */
	uint64_t slot[HIST_NSLOTS];
};

enum metric_kind {
	METRIC_SUM, /* values add up (counts, bytes, time) */
	METRIC_MAX, /* the largest value seen (peak in-flight) */
};

struct metric {
	char name[METRIC_NAME_LEN];
	enum metric_kind kind;
	uint64_t value;
};

struct metric_hist {
	char name[METRIC_NAME_LEN];
	struct latency_hist h;
};

struct metric_set {
	unsigned int n, cap;
	struct metric *v;
	unsigned int n_hists, hists_cap;
	struct metric_hist *hists;
};

/* add value to the counter name (created at 0); -ENOMEM on failure */
int metric_add(struct metric_set *s, const char *name, uint64_t value);

/* raise the gauge name to value if larger */
int metric_max(struct metric_set *s, const char *name, uint64_t value);

/* the metric, or NULL */
const struct metric *metric_find(const struct metric_set *s, const char *name);

/* its value, or 0 when absent */
uint64_t metric_value(const struct metric_set *s, const char *name);

/* the histogram name, created empty on first use; NULL on ENOMEM */
struct latency_hist *metric_hist(struct metric_set *s, const char *name);

const struct latency_hist *metric_hist_find(const struct metric_set *s,
					    const char *name);

/* count one value into a histogram */
void latency_hist_record(struct latency_hist *h, uint64_t value);

/* add the BPF side's counts (one CPU's) into a histogram */
void latency_hist_add_counts(struct latency_hist *into,
			     const struct hist_counts *h);

/* the same into the histogram name of s, made on first use */
int metric_hist_add_counts(struct metric_set *s, const char *name,
			   const struct hist_counts *h);

/* add one histogram into another */
void latency_hist_add(struct latency_hist *into, const struct latency_hist *h);

/* p-th percentile, interpolated and capped at max; 0 when empty */
double latency_hist_percentile(const struct latency_hist *h, double p);

void metric_set_free(struct metric_set *s);

#endif
