/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic experiments' published figures beside ours: for each
 * experiment of data/classic.tsv that a run reproduced, the original's
 * numbers and shapes (ratios between its targets), our means and our
 * ratios with their 95% intervals, and where a shape disagrees what our
 * own measurements say differs (src/analyze/classic.c makes it, the
 * writers print it).
 */
#ifndef FSPROF_RESULTS_CLASSIC_H
#define FSPROF_RESULTS_CLASSIC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/stats.h"

/* what a published figure measures; each has one unit */
enum classic_metric {
	CLASSIC_WALL_S, /* the phase's (or phases' summed) wall time, s */
	CLASSIC_MB_PER_S, /* 10^6 B/s, as dd prints */
	CLASSIC_MIB_PER_S,
	CLASSIC_FILES_PER_S, /* as fs_mark and afdbench count */
	CLASSIC_METRIC_NR,
};

/* a published number: lo == hi for one value; a range LO-HI; ~N approx */
struct classic_value {
	double lo, hi;
	bool approx;
};

#define CLASSIC_PHASE_LEN 64
#define CLASSIC_TARGET_LEN 128

struct classic_figure {
	char phase[CLASSIC_PHASE_LEN]; /* "remove", or "extract+ex-sync" */
	enum classic_metric metric;
	char target[CLASSIC_TARGET_LEN]; /* the --fs spec; "a|b": either */
	struct classic_value orig;
	/* ours over the repeats of the target that matched; n 0: not run */
	char ours_target[160];
	struct stats ours;
};

enum classic_verdict {
	CLASSIC_AGREES, /* our 95% interval meets the original's value/range */
	CLASSIC_DIFFERS, /* our interval excludes it */
	/* it meets it but spans more than CLASSIC_CI_SPAN_MAX: cannot tell */
	CLASSIC_INCONCLUSIVE,
	CLASSIC_NO_INTERVAL, /* a target ran once: no interval to judge by */
	CLASSIC_NOT_RUN, /* a target of the ratio did not run */
};

/*
 * The widest interval (high / low) that still tells a shape: the
 * originals' shapes run from 1.1x to 27x, and the ones the experiments are
 * known for are 3x (logbsize) and 20x (ext3's cold rm); an interval wider
 * than 4x (2x either way of its middle) holds both "no effect" and the
 * logbsize speed-up, so meeting the original's value says nothing.
 */
#define CLASSIC_CI_SPAN_MAX 4.0

#define CLASSIC_WHY_MAX 16
#define CLASSIC_WHY_LEN 800

/* what our measurements say differs, a line each; n 0: not explained */
struct classic_why {
	unsigned int n;
	char line[CLASSIC_WHY_MAX][CLASSIC_WHY_LEN];
};

struct classic_ratio {
	char phase[CLASSIC_PHASE_LEN];
	enum classic_metric metric;
	char num[CLASSIC_TARGET_LEN], den[CLASSIC_TARGET_LEN];
	char label[96]; /* "ext4/ext3 rm time" */
	struct classic_value orig; /* the original's ratio (from its figures) */
	unsigned int n_num, n_den; /* our repeats of each target */
	double ours; /* geometric mean of num over that of den */
	bool has_ci;
	double ci_lo, ci_hi; /* 95%, Welch's t on the logarithms */
	enum classic_verdict verdict;
	char note[192]; /* not run: which target; no interval: why */
	struct classic_why why; /* CLASSIC_DIFFERS only */
};

#define CLASSIC_MAX_FIGURES 16
#define CLASSIC_TARGETS_LEN 256
#define CLASSIC_MAX_RATIOS 8

struct classic_experiment {
	char workload[32];
	char params[256]; /* ours: the parameters of the cases compared */
	char source[512]; /* the original, named in words */
	char conditions[512]; /* what it ran on */
	/* its targets, an --fs LIST: what --suite classic runs without --fs */
	char targets[CLASSIC_TARGETS_LEN];
	unsigned int n_figures;
	struct classic_figure figures[CLASSIC_MAX_FIGURES];
	unsigned int n_ratios;
	struct classic_ratio ratios[CLASSIC_MAX_RATIOS];
};

struct classic_list {
	unsigned int n;
	struct classic_experiment *v; /* owned */
};

const char *classic_metric_name(enum classic_metric m); /* "wall_s" */
const char *classic_metric_unit(enum classic_metric m); /* "s" */
/* from its name; CLASSIC_METRIC_NR when none */
enum classic_metric classic_metric_parse(const char *name);
const char *classic_verdict_name(enum classic_verdict v); /* "agrees" */

/* the target's first spelling: "xfs:mount=logbsize=256k" of "a|b" */
void classic_target_first(const char *target, char *out, size_t len);

/* a new zeroed experiment at the end; NULL on ENOMEM */
struct classic_experiment *classic_list_add(struct classic_list *l);

void classic_list_free(struct classic_list *l);

#endif
