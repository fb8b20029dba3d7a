/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof bisect-step's judgement: a metric's values in a good run and in
 * a new run, good (0), bad (1) or cannot tell (125), git bisect run's
 * codes. It refuses to judge what the good run cannot vouch for: fewer
 * than BISECT_MIN_REPEATS values (their spread is not known), a relative
 * standard deviation over BISECT_MAX_RSD or a min-max gap over
 * BISECT_MAX_GAP (the metric is too noisy for one threshold to mean
 * anything: lkp-tests bisects a KPI only when both are within 20%), or a
 * new run without the value. Bad is a change of the new mean beyond
 * the threshold in the metric's worse direction, with every new value
 * beyond the good run's worst (lkp-tests' separated ranges): a mean past
 * the threshold whose values reach into the good run's range cannot be
 * told from its spread, and is a skip.
 */
#ifndef FSPROF_REPRO_BISECT_H
#define FSPROF_REPRO_BISECT_H

#include <stddef.h>

#include "compare/kpi.h"
#include "util/stats.h"

/*
 * Two values give a sample sd with one degree of freedom: its 95%
 * interval spans a factor of ~30 (chi-square), so the 20% test below
 * would be chance. Three is lkp-tests' minimum too.
 */
#define BISECT_MIN_REPEATS 3
/*
 * lkp-tests bisects a KPI only when it is stable in the good run: its
 * relative stddev and its min-max gap both within 20% (lkp-tests'
 * lib/bisect_kpi.rb, PerfStat#statistics). The gap is lkp's: (max - min)
 * over min. The stddev is an average of the spread; the gap is its worst
 * case, one slow repeat among steady ones (100 100 100 125: rsd 12%, gap
 * 25%), which the threshold would otherwise take for the commit's doing.
 * A gap within 20% holds the stddev within 14% (it is at most half the
 * range times sqrt(n / (n - 1)), over a mean of at least min), so the gap
 * decides; the stddev is kept as lkp has it, and said first when both
 * are over.
 */
#define BISECT_MAX_RSD 0.20
#define BISECT_MAX_GAP 0.20

enum bisect_verdict {
	BISECT_GOOD = 0,
	BISECT_BAD = 1,
	BISECT_SKIP = 125, /* git bisect run: this commit cannot be tested */
};

struct bisect_input {
	const double *good; /* the good run's values, one a repeat */
	unsigned int n_good;
	const double *now; /* the new run's */
	unsigned int n_now;
	double threshold; /* a fraction: 0.05 for 5% */
	enum kpi_dir dir; /* KPI_HIGHER_BETTER or KPI_LOWER_BETTER */
};

struct bisect_decision {
	enum bisect_verdict verdict;
	struct stats good, now;
	double rsd; /* the good run's stddev / |mean| (INFINITY: mean 0) */
	/* the good run's (max - min) / min (INFINITY: min <= 0 below max) */
	double gap;
	/* (now - good) / |good| of the means; +-INFINITY from a good 0 */
	double change;
	char why[256]; /* a skip's reason; "" otherwise */
};

/*
 * Can the good values vouch for a verdict? BISECT_GOOD when they can
 * (d->good, d->rsd and d->gap set), else BISECT_SKIP with d->why
 */
enum bisect_verdict bisect_check_good(const struct bisect_input *in,
				      struct bisect_decision *d);

/* the whole judgement: d->verdict is also returned */
enum bisect_verdict bisect_decide(const struct bisect_input *in,
				  struct bisect_decision *d);

/*
 * One line of the decision and its numbers: "bad: create/wall_ns: good
 * 1.2e+08 +- 3% (n=3), new 1.5e+08 (n=3, 1.5e+08 1.4e+08 1.6e+08):
 * +25.0%, threshold 5% (lower is better)"
 */
void bisect_line(const struct bisect_input *in, const struct bisect_decision *d,
		 const char *metric, char *buf, size_t len);

#endif
