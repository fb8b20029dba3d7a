/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The answer first: the few phases that took the run's time, each with
 * its bound and the one finding that explains it, the advice --verify
 * confirmed, and what differs most between targets. Built only from what
 * the results model already holds (phase wall times, verdicts, findings,
 * comparisons), so a saved run gets the same summary as a fresh one. The
 * text, HTML and JSON (summary.headline[], summary.differs[]) print it.
 */
#ifndef FSPROF_HEADLINE_H
#define FSPROF_HEADLINE_H

#include "results/results.h"

/* the summary's budget: the text prints at most this many lines */
#define HEADLINE_MAX_LINES 15
/*
 * its lines: a title, the command line, the rows' header, rows of phases
 * (one a phase and what explains it, its targets on one line: at most
 * HEADLINE_MAX_ROWS rows on them), at most
 * HEADLINE_MAX_VERIFIED lines of verified advice, HEADLINE_MAX_DIFFERS
 * differences between targets, and a line for what it left out
 */
#define HEADLINE_FIXED_LINES 4
#define HEADLINE_MAX_ROWS 24
#define HEADLINE_MAX_VERIFIED 2
#define HEADLINE_MAX_DIFFERS 2
/* the phases that took the time: the largest until they cover this much */
#define HEADLINE_TIME_COVERED 0.8

struct headline_row {
	char target[200]; /* short name, with its kernel under --kernel */
	char workload[32];
	char phase[32];
	unsigned int repeats; /* complete cases the wall time is a mean of */
	double wall_s; /* mean over the repeats */
	double share; /* of the run's phase time, 0..1 */
	const char *bound; /* bound_kind_name, NULL when not analysed */
	const struct phase_verdict *verdict; /* its first case's, or NULL */
	const struct finding *finding; /* the one that explains it, or NULL */
	int weight; /* 4 confirmed advice, 3 advice re-run, 2 a warning */
};

struct headline_differ {
	char workload[32];
	const struct comparison *cmp; /* points into the run */
	const struct finding *finding; /* its target-difference finding */
	double diff_s; /* slow - fast */
};

struct headline {
	double total_s; /* every phase of every case */
	unsigned int n_phases_all; /* (group, phase) pairs in the run */
	unsigned int n_rows;
	struct headline_row rows[HEADLINE_MAX_ROWS];
	/* the rows' advice --verify re-ran (index into rows) */
	unsigned int n_verified;
	unsigned int verified[HEADLINE_MAX_ROWS];
	double left_out_s; /* the phases not in rows, over all repeats */
	unsigned int left_out; /* how many */
	unsigned int n_differs;
	struct headline_differ differs[HEADLINE_MAX_DIFFERS];
};

/* 0, or -ENOMEM; h points into run, valid while run is */
int headline_build(const struct run_result *run, struct headline *h);

/*
 * rows the text prints on one line: the same phase of the same workload
 * explained by the same rule (or by none, with the same bound)
 */
bool headline_row_same(const struct headline_row *a,
		       const struct headline_row *b);

/* row i is the first of the rows merged into its line (false: an
 * earlier row, the same phase and finding, carries it) */
bool headline_row_first(const struct headline *h, unsigned int i);

/* "1.92x faster (95% CI 1.61x-2.29x)" of a verified finding, "" if none */
void headline_speedup(const struct finding *f, char *buf, size_t len);

#endif
