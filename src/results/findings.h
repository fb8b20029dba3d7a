/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the analyze stage concluded about a phase (or about several targets
 * side by side): one bound verdict per phase, and findings - each with the
 * metrics that decided it, the mechanism behind it, a piece of advice and,
 * after --verify, whether applying the advice helped. Part of the results
 * model, so a saved run carries its explanation with it.
 */
#ifndef FSPROF_FINDINGS_H
#define FSPROF_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

enum finding_severity {
	FINDING_OK, /* a check that passed: nothing to act on */
	FINDING_INFO, /* a caveat or a fact worth knowing */
	FINDING_WARNING, /* a mechanism that dominates the phase */
};

enum advice_kind {
	ADVICE_NONE,
	ADVICE_MOUNT, /* a mount option: --verify can re-run with it */
	ADVICE_MKFS, /* a mkfs option: --verify can re-run with it */
	ADVICE_SYSCTL, /* a system-wide setting: not re-run by --verify */
	ADVICE_WORKLOAD, /* change what the application does */
	/* make the filesystem as another type: --verify re-runs on it */
	ADVICE_FSTYPE,
};

#define FINDING_MAX_EVIDENCE 10
#define VERIFY_MAX_SAMPLES 32

/* one number behind a finding; share and threshold are NAN when none */
struct evidence {
	char metric[96]; /* JSON path or metric name it comes from */
	double value; /* in the metric's unit */
	double share; /* of what the text says (phase wall, device time) */
	double threshold; /* the share or value the rule compares with */
	char text[224]; /* "71% of device busy time is log writes" */
};

struct advice {
	enum advice_kind kind;
	char text[448]; /* "mount with logbsize=256k" */
	char option[128]; /* "logbsize=256k", "-O fast_commit"; "" = none */
};

/* what re-running the phase with the advice applied showed */
struct verification {
	bool done;
	char phase[32]; /* the phase whose wall time is compared */
	char applied[160]; /* the knob as applied: "mount logbsize=256k" */
	unsigned int repeats; /* rounds run (before and after, interleaved) */
	unsigned int max_repeats; /* the cap: rounds it could have run */
	double look_alpha; /* each look's two-sided level; 0: VERIFY_ALPHA */
	char stopped[16]; /* decided | cap | failed | interrupted | not run */
	unsigned int n_before, n_after; /* samples that completed */
	double before[VERIFY_MAX_SAMPLES]; /* the phase's wall time, s */
	double after[VERIFY_MAX_SAMPLES];
	double before_s, after_s; /* means */
	double ratio; /* before_s / after_s: > 1 is faster */
	/* the ratio's interval at look_alpha: 95% over all the looks */
	double ci_lo, ci_hi;
	char verdict[16]; /* confirmed | not confirmed | inconclusive */
	char note[256]; /* why inconclusive, when a re-run failed */
};

struct finding {
	char rule[40]; /* "xfs-log-io-bound" */
	char domain[16]; /* "xfs" */
	enum finding_severity severity;
	char title[160]; /* "rm-sync is log-IO bound" */
	unsigned int n_evidence;
	struct evidence ev[FINDING_MAX_EVIDENCE];
	char mechanism[768];
	struct advice advice;
	struct verification verified;
};

struct finding_list {
	unsigned int n, cap;
	struct finding *v;
};

/* the bound verdict of one phase */
enum bound_kind {
	BOUND_DEVICE,
	BOUND_CPU,
	BOUND_CACHE,
	BOUND_JOURNAL,
	BOUND_LOG,
	BOUND_THROTTLE, /* dirty throttling */
	BOUND_LOCK,
	BOUND_MIXED,
	BOUND_NR,
};

#define VERDICT_MAX_SHARES 8

struct phase_verdict {
	bool done;
	enum bound_kind bound;
	bool budget; /* decided from the sched time budget */
	char text[768]; /* "device bound: busy 94%, qd 1.1; CPU 3%" */
	unsigned int n_shares;
	struct {
		char name[48]; /* "device_busy", "cpu", "offcpu.journal_commit" */
		double value; /* share of the phase's time, 0..1 (CPU can be more) */
	} shares[VERDICT_MAX_SHARES];
};

/* one phase of one workload compared across targets */
#define COMPARISON_MAX_TARGETS 16

struct comparison {
	char workload[32];
	char params[256];
	char phase[32];
	unsigned int n_targets;
	struct {
		char label[160];
		char name[32]; /* short: case_target_name */
		unsigned int n; /* repeats */
		double wall_s, ci_lo, ci_hi;
	} targets[COMPARISON_MAX_TARGETS];
	struct finding_list findings;
};

struct comparison_list {
	unsigned int n, cap;
	struct comparison *v;
};

const char *finding_severity_name(enum finding_severity s);
const char *advice_kind_name(enum advice_kind k);
const char *bound_kind_name(enum bound_kind b);

/* append a copy; -ENOMEM */
int finding_list_add(struct finding_list *l, const struct finding *f);

/* the finding of rule in the list, or NULL */
const struct finding *finding_list_find(const struct finding_list *l,
					const char *rule);

void finding_list_free(struct finding_list *l);

/* a new, zeroed comparison; NULL on ENOMEM */
struct comparison *comparison_list_add(struct comparison_list *l);

void comparison_list_free(struct comparison_list *l);

#endif
