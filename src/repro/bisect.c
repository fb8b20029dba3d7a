// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "repro/bisect.h"

/* at most this many of the new values are printed one by one */
#define LINE_VALUES 5

/* the spread relative to the mean: 0 without spread, endless around 0 */
static double relative_stddev(const struct stats *st)
{
	if (st->mean != 0)
		return st->stddev / fabs(st->mean);
	return st->stddev > 0 ? INFINITY : 0;
}

/* lkp's min-max gap, (max - min) / min: 0 without spread, endless when
 * the smallest value is not above 0 */
static double min_max_gap(const struct stats *st)
{
	if (st->max == st->min)
		return 0;
	return st->min > 0 ? (st->max - st->min) / st->min : INFINITY;
}

enum bisect_verdict bisect_check_good(const struct bisect_input *in,
				      struct bisect_decision *d)
{
	memset(d, 0, sizeof(*d));
	if (!in->n_good) {
		snprintf(d->why, sizeof(d->why),
			 "the good run has no value of the metric");
		return d->verdict = BISECT_SKIP;
	}
	stats_compute(in->good, in->n_good, &d->good);
	if (in->n_good < BISECT_MIN_REPEATS) {
		snprintf(
			d->why, sizeof(d->why),
			"the good run has %u value%s of the metric: its spread needs at least %d (fsprof run --repeat %d)",
			in->n_good, in->n_good == 1 ? "" : "s",
			BISECT_MIN_REPEATS, BISECT_MIN_REPEATS);
		return d->verdict = BISECT_SKIP;
	}
	d->rsd = relative_stddev(&d->good);
	d->gap = min_max_gap(&d->good);
	if (d->rsd > BISECT_MAX_RSD) {
		snprintf(
			d->why, sizeof(d->why),
			"unstable in the good run: relative stddev %.1f%% over %u values, above the %.0f%% a verdict can rest on",
			100 * d->rsd, in->n_good, 100 * BISECT_MAX_RSD);
		return d->verdict = BISECT_SKIP;
	}
	if (isinf(d->gap)) {
		snprintf(
			d->why, sizeof(d->why),
			"unstable in the good run: its %u values go from %.6g to %.6g, a min-max gap without end (a smallest value not above 0)",
			in->n_good, d->good.min, d->good.max);
		return d->verdict = BISECT_SKIP;
	}
	if (d->gap > BISECT_MAX_GAP) {
		snprintf(
			d->why, sizeof(d->why),
			"unstable in the good run: min-max gap %.1f%% ((max - min) / min of %u values, %.6g to %.6g), above the %.0f%% a verdict can rest on",
			100 * d->gap, in->n_good, d->good.min, d->good.max,
			100 * BISECT_MAX_GAP);
		return d->verdict = BISECT_SKIP;
	}
	return d->verdict = BISECT_GOOD;
}

/* the relative change of the means; from a good 0, any change is endless */
static double relative_change(double good, double now)
{
	if (good != 0)
		return (now - good) / fabs(good);
	if (now == 0)
		return 0;
	return now > 0 ? INFINITY : -INFINITY;
}

enum bisect_verdict bisect_decide(const struct bisect_input *in,
				  struct bisect_decision *d)
{
	double worse;

	if (bisect_check_good(in, d) != BISECT_GOOD)
		return d->verdict;
	if (!in->n_now) {
		snprintf(d->why, sizeof(d->why),
			 "the new run has no value of the metric");
		return d->verdict = BISECT_SKIP;
	}
	stats_compute(in->now, in->n_now, &d->now);
	d->change = relative_change(d->good.mean, d->now.mean);
	worse = in->dir == KPI_HIGHER_BETTER ? -d->change : d->change;
	if (worse <= in->threshold)
		return d->verdict = BISECT_GOOD;
	/* lkp-tests' test of a real change: the ranges part */
	if (in->dir == KPI_HIGHER_BETTER ? d->now.max < d->good.min :
					   d->now.min > d->good.max)
		return d->verdict = BISECT_BAD;
	snprintf(
		d->why, sizeof(d->why),
		"%+.1f%% is past the threshold, but the new values (%.6g to %.6g) reach into the good run's own range (%.6g to %.6g): a change cannot be told from its spread",
		100 * d->change, d->now.min, d->now.max, d->good.min,
		d->good.max);
	return d->verdict = BISECT_SKIP;
}

static const char *verdict_name(enum bisect_verdict v)
{
	return v == BISECT_GOOD ? "good" : v == BISECT_BAD ? "bad" : "skip";
}

void bisect_line(const struct bisect_input *in, const struct bisect_decision *d,
		 const char *metric, char *buf, size_t len)
{
	size_t off;
	unsigned int i;

	off = (size_t)snprintf(buf, len,
			       "%s: %s: good %.6g +- %.6g (%.1f%%, n=%u)",
			       verdict_name(d->verdict), metric, d->good.mean,
			       d->good.stddev, 100 * d->rsd, d->good.n);
	if (d->now.n && off < len) {
		off += (size_t)snprintf(buf + off, len - off,
					", new %.6g (n=%u:", d->now.mean,
					d->now.n);
		for (i = 0; i < in->n_now && i < LINE_VALUES && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, " %.6g",
						in->now[i]);
		if (off < len)
			off += (size_t)snprintf(
				buf + off, len - off, "%s): %+.1f%%",
				in->n_now > LINE_VALUES ? " ..." : "",
				100 * d->change);
	}
	if (off < len)
		off += (size_t)snprintf(
			buf + off, len - off,
			", threshold %.4g%% (%s is better)",
			100 * in->threshold,
			in->dir == KPI_HIGHER_BETTER ? "higher" : "lower");
	if (d->why[0] && off < len)
		snprintf(buf + off, len - off, "; cannot tell: %s", d->why);
}
