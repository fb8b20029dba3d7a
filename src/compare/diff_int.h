/* SPDX-License-Identifier: GPL-2.0 */
/* The steps of diff_build (diff_build.c) in their own files. */
#ifndef FSPROF_DIFF_INT_H
#define FSPROF_DIFF_INT_H

#include "compare/diff.h"
#include "compare/noise_floors.h"

/* what the two runs differ in besides what is compared (diff_setup.c) */
void diff_setup_compare(const struct run_result *a, const struct run_result *b,
			struct diff_result *d);

/*
 * Benjamini-Hochberg over every test of the diff, then each metric's
 * verdict and the --fail-above gate (diff_judge.c). 0 or -ENOMEM.
 */
int diff_judge(struct diff_result *d);

/* the kernel as the variable, and emulated times out of the tests
 * (diff_kernel.c); before diff_judge */
void diff_kernels(struct diff_result *d);

/*
 * The relative noise floor metric is judged by: --noise (o->noise_floor)
 * when given, else the first row of nf that matches it (diff_judge.c).
 */
double diff_noise_floor(const char *metric, const struct diff_options *o,
			const struct noise_floors *nf);

/*
 * Materiality (docs/diff.md, beside the noise floors): a difference whose
 * whole interval is smaller than this is "same (immaterial)", however
 * small its p. Zero spread on both sides (2 read requests in every A
 * repeat, 4 in every B one) gives p = 0, yet two requests in a phase of
 * thousands are not a change.
 * - bytes: one request of DEVICE_SMALL_REQUEST_BYTES (64 KiB), or 0.1%
 *   of the bytes the phase moved (device or workload, the larger);
 * - counts of requests and kernel events (block.*, jbd2.*, xfs.*,
 *   ext4.*, writeback.*): 10 (DURABILITY_MIN_EVENTS: fewer are no
 *   pattern - a commit is 2-3 requests, a cold lookup a few reads), or
 *   0.1% of the phase's operations (workload) or requests (device), the
 *   larger: one event per thousand operations. Not 1%: a mechanism that
 *   acts per file (200 delalloc flushes for 200 files against none under
 *   nodelalloc) is well under 1% of a files1m create's 51,600 writes and
 *   is the change itself.
 * Times, rates, ratios (per_op.*) and distributions keep their noise
 * floors only. The floor in the metric's unit, 0 for those.
 */
#define DIFF_IMMATERIAL_BYTES (64.0 * 1024)
#define DIFF_IMMATERIAL_COUNT 10.0
#define DIFF_IMMATERIAL_SHARE 0.001
double diff_materiality_floor(const char *name, double io_bytes, double ops);

/* lkp-tests' summary of n samples v (sorted here) (diff_lkp.c) */
void diff_lkp_side(double *v, unsigned int n, struct diff_lkp_side *out);

/* lkp-tests' criterion on m's sides, its headline saying whether a KPI */
void diff_lkp_judge(struct diff_metric *m);

/* rule is one of the ids of list ("a, b, c"), whole: not a part of one */
bool diff_rule_listed(const char *list, const char *rule);

#endif
