/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof diff: two runs (results files or history entries) compared phase
 * by phase and metric by metric, with statistics that gain power with
 * repeats (docs/diff.md):
 *  - each metric: Welch's t on the repeats of each side, the 95% interval of
 *    the difference of means, and a verdict;
 *  - every test of the diff is one family: Benjamini-Hochberg keeps the
 *    expected share of false discoveries at alpha;
 *  - histograms merged over repeats are compared as distributions too
 *    (two-sample Kolmogorov-Smirnov on the bucket counts).
 */
#ifndef FSPROF_DIFF_H
#define FSPROF_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/kpi.h"
#include "results/results.h"

enum diff_verdict {
	DIFF_SAME, /* the interval lies inside +-the noise floor */
	DIFF_BETTER, /* significant, beyond the floor, the good way */
	DIFF_WORSE,
	DIFF_HIGHER, /* significant and beyond the floor, no good way */
	DIFF_LOWER,
	DIFF_INCONCLUSIVE, /* neither: more repeats would tell */
	/* a ratio one side could not form (per_op.*, its denominator 0
	 * there): shown as absent, not tested, not judged */
	DIFF_UNMEASURED,
};

/*
 * One side's samples as lkp-tests summarises them: sorted, n >> 5 of them
 * (at most 3) cut from each end, then the first, the middle and the last.
 * lkp calls the middle sample its mean.
 */
struct diff_lkp_side {
	double min, mid, max;
};

struct diff_side {
	unsigned int n;
	double mean, sd; /* sd: the sample's (n - 1); NAN when n is 0 */
	struct diff_lkp_side lkp;
};

/*
 * lkp-tests' own criterion, beside ours for comparison (diff_lkp.c): a
 * change is real when the ranges separate (B's min above A's middle and
 * B's middle above A's max, or the mirror), a side has at least 3 samples
 * and the ratio of the middles passes 1% for a KPI, 5% otherwise.
 */
struct diff_lkp {
	bool enough; /* 3 samples on a side at least */
	bool separated;
	double ratio; /* the higher middle over the lower; at most 5 */
	double min_ratio; /* 1.01 for a KPI, 1.05 otherwise */
	bool changed; /* enough, separated and ratio > min_ratio */
};

struct diff_metric {
	char name[64];
	enum kpi_dir dir; /* data/kpi.tsv's direction */
	bool headline; /* a KPI in data/kpi.tsv: wall time, throughput... */
	struct diff_side a, b;
	double diff; /* b.mean - a.mean; NAN when a side has no value */
	double ratio; /* b.mean / a.mean; NAN when a.mean is 0 or absent */
	/*
	 * a count of kernel events or bytes: its p is never below the exact
	 * permutation test's for the sides apart (diff_welch)
	 */
	bool discrete;
	bool has_ci; /* an interval could be given (n >= 2 on both sides) */
	double ci_lo, ci_hi; /* of the difference, 95% */
	double p; /* Welch's two-sided p; NAN when not tested */
	double q; /* Benjamini-Hochberg adjusted p; NAN when not tested */
	double noise_floor; /* relative: the floor the verdict was judged by */
	enum diff_verdict verdict;
	unsigned int more_repeats; /* inconclusive: about this many more */
	char note[96]; /* why inconclusive, or what is special */
	/* a time of an emulated guest, left out of the tests (--time-verdicts) */
	bool emulated_time;
	struct diff_lkp lkp;
};

struct diff_hist {
	char name[64];
	uint64_t n_a, n_b; /* values counted, over all repeats */
	double p50_a, p50_b, p99_a, p99_b;
	double ks_d; /* largest gap between the two CDFs */
	double p, q;
	bool differs; /* q <= alpha and the gap is at least DIFF_KS_MIN_D */
};

struct diff_phase {
	char name[32];
	unsigned int n_metrics, metrics_cap;
	struct diff_metric *metrics;
	unsigned int n_hists, hists_cap;
	struct diff_hist *hists;
	/* findings (rule ids) seen in one side's repeats and never the other's */
	char only_a[256], only_b[256];
};

/* one workload on one target of A set against one of B */
struct diff_pair {
	char workload[32], params[256];
	char a_target[160], b_target[160];
	unsigned int a_repeats, b_repeats;
	/* the first case of each side (valid while both runs are) */
	const struct case_result *a_case, *b_case;
	unsigned int n_phases;
	struct diff_phase *phases;
};

/* something A and B differ in besides what is compared */
struct diff_setup_item {
	char what[48]; /* "kernel", "mount options of xfs", "vm.dirty_ratio" */
	char a[256], b[256];
	bool blocking; /* makes the phases incomparable: refused */
};

#define DIFF_SETUP_MAX 32
#define DIFF_UNPAIRED_MAX 16

/*
 * Noise floor: a change of the mean smaller than a share of the larger mean
 * is "same" when the interval shows it. The share is per metric kind, from
 * data/noise-floors.tsv (compare/noise_floors.h): each row is a high
 * quantile of the A/A gaps of its metrics, measured by
 * scripts/bench/noise-floors.sh (docs/diff.md). --noise PCT sets one floor
 * for every metric instead; without it, diff_options.noise_floor holds
 * this.
 */
#define DIFF_NOISE_PER_METRIC (-1.0)

/* the false discovery rate of a diff's tests, unless --alpha */
#define DIFF_ALPHA 0.05

struct diff_options {
	double alpha; /* false discovery rate, default DIFF_ALPHA */
	/* relative, for every metric (--noise); DIFF_NOISE_PER_METRIC: each
	 * metric's from data/noise-floors.tsv */
	double noise_floor;
	const char *metric_glob; /* only metrics matching (fnmatch), or NULL */
	double fail_above; /* relative; < 0 = no gate */
	bool allow_mismatch; /* compare even when the setup says not to */
	bool by_kernel; /* --by kernel: one run's kernels set against each other */
	/* judge times of emulated (TCG) guests too: --time-verdicts */
	bool time_verdicts;
};

struct diff_result {
	char a_name[4096], b_name[4096];
	struct diff_options opt;
	unsigned int n_pairs;
	struct diff_pair *pairs;
	unsigned int n_setup;
	struct diff_setup_item setup[DIFF_SETUP_MAX];
	unsigned int n_unpaired;
	char unpaired[DIFF_UNPAIRED_MAX][256]; /* "only in A: fsync on xfs" */
	/* the kernel is the variable: A's and B's cases ran on other kernels */
	bool kernel_variable;
	bool same_kernel_twice; /* A and B: one kernel's two guests (A/A) */
	char a_kernel[256], b_kernel[256]; /* "6.1.0-57-amd64 (package)" */
	bool emulated; /* a side ran in a TCG guest: its times are emulated */
	unsigned int n_emulated_times; /* times not judged for it */
	unsigned int n_tests; /* the family Benjamini-Hochberg controlled */
	unsigned int n_changed, n_same, n_inconclusive;
	unsigned int n_unmeasured; /* DIFF_UNMEASURED: not in the tests */
	/* --fail-above: headline metrics significantly worse by more */
	unsigned int n_failed;
	char failed[8][160];
};

void diff_options_default(struct diff_options *o);

/* compare b against a; 0, -ENOMEM, or -EINVAL when nothing pairs up */
int diff_build(const struct run_result *a, const struct run_result *b,
	       const struct diff_options *opt, struct diff_result *out);

/*
 * One run's cases split by kernel (fsprof run --kernel): a the first
 * kernel's, b the second's, sharing src's cases (free them with
 * run_result_view_free, src with run_result_free). 0; -EINVAL when src has
 * not exactly two kernels (err says how many); -ENOMEM.
 */
int diff_split_by_kernel(const struct run_result *src, struct run_result *a,
			 struct run_result *b, char *err, size_t errlen);

void run_result_view_free(struct run_result *view);

/* does the setup forbid the comparison (and --allow-mismatch was not given)? */
bool diff_setup_blocks(const struct diff_result *d);

void diff_free(struct diff_result *d);

const char *diff_verdict_name(enum diff_verdict v);

/* better, worse, higher or lower: a change the diff calls real */
bool diff_verdict_is_change(enum diff_verdict v);

#endif
