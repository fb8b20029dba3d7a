/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyze stage: reads a run's results model only (so that a saved
 * run can be analysed again) and adds to it a bound verdict and findings
 * per phase, and cross-target findings per compared phase.
 */
#ifndef FSPROF_ANALYZE_H
#define FSPROF_ANALYZE_H

#include "results/results.h"

/*
 * Analyse every phase of every case and compare targets; replaces what an
 * earlier analysis added. Returns 0 or -ENOMEM.
 */
int analyze_run(struct run_result *run);

/*
 * Analyse a run read back from its JSON: as analyze_run, keeping each
 * finding's --verify result from the saved finding of the same rule and
 * phase (only re-running the workload could recompute it).
 */
int analyze_saved_run(struct run_result *run);

/* one case's phases only */
int analyze_case(struct case_result *c);

/*
 * Judge a verification from its samples (v->before[], v->after[],
 * n_before, n_after): means, speed-up, its confidence interval at the
 * two-sided level v->look_alpha (0: VERIFY_ALPHA, a single look) and the
 * verdict.
 */
void verification_judge(struct verification *v);

/* its verdict is confirmed or not confirmed: the look may stop */
bool verification_decided(const struct verification *v);

/*
 * A --verify sequence: a look after every round from min_rounds to
 * max_rounds, each at look_alpha = VERIFY_ALPHA / looks (verify_stats.c
 * says why).
 */
struct verify_plan {
	unsigned int min_rounds, max_rounds, looks;
	double look_alpha;
};

/* the plan for a cap of max_rounds rounds (2..VERIFY_MAX_SAMPLES) */
void verify_plan_make(unsigned int max_rounds, struct verify_plan *p);

/*
 * The look after round rounds: judges v's samples at the plan's level
 * (from min_rounds on); true when that decided the verdict and the
 * rounds stop.
 */
bool verify_look(const struct verify_plan *p, unsigned int rounds,
		 struct verification *v);

/* rule ids and what they look at, for docs and tests */
unsigned int analyze_rule_count(void);
const char *analyze_rule_id(unsigned int i);

#endif
