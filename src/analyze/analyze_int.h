/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the analyze stage: the rule table's shape and shared helpers. */
#ifndef FSPROF_ANALYZE_INT_H
#define FSPROF_ANALYZE_INT_H

#include <math.h>

#include "analyze/facts.h"

#define COMPARE_MAX_CAUSES (2 * BUDGET_MAX_CAUSES)
/* the metric of target-difference's evidence when no measured resource
 * explains the difference: the largest growth (ns), its share of it */
#define COMPARE_UNEXPLAINED_METRIC "largest_growth_ns"

/* the phases of one workload compared across targets */
struct compare_ctx {
	const struct run_result *run;
	struct comparison *cmp;
	unsigned int slow, fast; /* indexes into cmp->targets */
	/* means per target, over its repeats */
	double wall_ns[COMPARISON_MAX_TARGETS];
	double cpu_ns[COMPARISON_MAX_TARGETS];
	double class_busy_ns[COMPARISON_MAX_TARGETS][BLK_IOC_NR];
	double class_ios[COMPARISON_MAX_TARGETS][BLK_IOC_NR];
	double class_bytes[COMPARISON_MAX_TARGETS][BLK_IOC_NR];
	double class_lat_ns[COMPARISON_MAX_TARGETS][BLK_IOC_NR]; /* summed */
	double throttle_ns[COMPARISON_MAX_TARGETS];
	/*
	 * the sched time budget's off-CPU causes and runqueue, each as its
	 * share of the workload's time x the phase's wall time (wall-clock
	 * seconds however many threads ran), when every case of the target
	 * had a usable budget (budget[t])
	 */
	bool budget[COMPARISON_MAX_TARGETS];
	unsigned int n_causes;
	char cause[COMPARE_MAX_CAUSES][32];
	double cause_ns[COMPARISON_MAX_TARGETS][COMPARE_MAX_CAUSES];
	/* on-CPU and the rest of the budget (unaccounted time, causes that
	 * name no mechanism) the same way: with the causes they sum to wall */
	double oncpu_ns[COMPARISON_MAX_TARGETS];
	double rest_ns[COMPARISON_MAX_TARGETS];
	double files,
		bytes; /* the work, per case (the same for every target) */
};

/*
 * One rule: an id, the domain whose metrics it reads, the mechanism it
 * stands for, and a check that fills the finding (title, severity,
 * evidence, advice) and returns true when the rule fires. A rule looks at
 * one phase (check) or at one phase across targets (compare).
 */
struct rule {
	const char *id;
	const char *domain;
	const char *mechanism;
	bool (*check)(const struct phase_facts *x, struct finding *f);
	bool (*compare)(const struct compare_ctx *cx, struct finding *f);
};

extern const struct rule analyze_rules[];
extern const unsigned int analyze_n_rules;

void analyze_verdict(const struct phase_facts *x, struct phase_verdict *v);

/* the page cache served or absorbed the phase (see CACHE_* thresholds) */
bool phase_is_cached(const struct phase_facts *x);

/* the cross-target comparisons of a run */
int analyze_comparisons(struct run_result *run);

/*
 * Phase ph of case first's workload compared on two targets only (labels
 * a and b), into out (zeroed first; its findings are the caller's to
 * free). 0, or -ENOMEM.
 */
int compare_pair(const struct run_result *run, unsigned int first,
		 unsigned int ph, const char *a, const char *b,
		 struct comparison *out);

/* the originals' figures beside ours (classic.c) */
int analyze_classic(struct run_result *run);

/* finding helpers; share and threshold may be NAN */
void finding_title(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void finding_evidence(struct finding *f, const char *metric, double value,
		      double share, double threshold, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void finding_advice(struct finding *f, enum advice_kind kind,
		    const char *option, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* append to the rule's mechanism text (a sentence specific to this case) */
void finding_mechanism_append(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "12.3 MB", "4.0 KiB" style sizes for evidence text */
void analyze_format_bytes(double bytes, char *buf, size_t len);

#endif
