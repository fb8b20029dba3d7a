// SPDX-License-Identifier: GPL-2.0
/*
 * Judging a diff: every Welch and Kolmogorov-Smirnov test of the diff is
 * one family, adjusted together (Benjamini-Hochberg), and each metric gets
 * its verdict from its interval and its adjusted p.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff_int.h"
#include "compare/diff_stats.h"
#include "compare/noise_floors.h"

/* apply fn to every test: metric m or histogram h (the other NULL) */
typedef void (*test_fn)(void *ctx, struct diff_metric *m, struct diff_hist *h);

static void tests_each(struct diff_result *d, test_fn fn, void *ctx)
{
	unsigned int i, j, k;

	for (i = 0; i < d->n_pairs; i++)
		for (j = 0; j < d->pairs[i].n_phases; j++) {
			struct diff_phase *ph = &d->pairs[i].phases[j];

			for (k = 0; k < ph->n_metrics; k++)
				fn(ctx, &ph->metrics[k], NULL);
			for (k = 0; k < ph->n_hists; k++)
				fn(ctx, NULL, &ph->hists[k]);
		}
}

struct family {
	size_t n;
	double *p, *q;
};

static void count_test(void *ctx, struct diff_metric *m, struct diff_hist *h)
{
	(void)m;
	(void)h;
	((struct family *)ctx)->n++;
}

static void gather_p(void *ctx, struct diff_metric *m, struct diff_hist *h)
{
	struct family *f = ctx;

	f->p[f->n++] = m ? m->p : h->p;
}

static void scatter_q(void *ctx, struct diff_metric *m, struct diff_hist *h)
{
	struct family *f = ctx;

	if (m)
		m->q = f->q[f->n++];
	else
		h->q = f->q[f->n++];
}

double diff_noise_floor(const char *metric, const struct diff_options *o,
			const struct noise_floors *nf)
{
	if (o->noise_floor >= 0)
		return o->noise_floor;
	return noise_floors_lookup(nf, metric)->floor;
}

static void metric_verdict(struct diff_metric *m, const struct diff_options *o,
			   const struct noise_floors *nf)
{
	double floor, rel = diff_noise_floor(m->name, o, nf);
	bool beyond;

	m->noise_floor = rel;
	floor = rel * fmax(fabs(m->a.mean), fabs(m->b.mean));
	beyond = fabs(m->diff) > floor;

	m->note[0] = '\0';
	m->more_repeats = 0;
	if (m->emulated_time) {
		m->verdict = DIFF_INCONCLUSIVE;
		snprintf(
			m->note, sizeof(m->note),
			"emulated (TCG): a time, not judged (--time-verdicts)");
		return;
	}
	if (!m->has_ci) {
		m->verdict = DIFF_INCONCLUSIVE;
		snprintf(m->note, sizeof(m->note),
			 "%u run(s) in A, %u in B: 2 a side give an interval",
			 m->a.n, m->b.n);
		return;
	}
	if (m->ci_lo >= -floor && m->ci_hi <= floor) {
		m->verdict = DIFF_SAME;
		return;
	}
	if (!isnan(m->q) && m->q <= o->alpha && beyond) {
		bool up = m->diff > 0;

		if (m->dir == KPI_DIR_NONE)
			m->verdict = up ? DIFF_HIGHER : DIFF_LOWER;
		else
			m->verdict = up == (m->dir == KPI_HIGHER_BETTER) ?
					     DIFF_BETTER :
					     DIFF_WORSE;
		return;
	}
	m->verdict = DIFF_INCONCLUSIVE;
	if (!isnan(m->q) && m->q <= o->alpha) {
		snprintf(m->note, sizeof(m->note),
			 "significant, but within the %g%% noise floor",
			 rel * 100);
		return;
	}
	{
		unsigned int n = diff_repeats_needed(
			m, fmax(fabs(m->diff), floor), o->alpha);
		unsigned int have = m->a.n < m->b.n ? m->a.n : m->b.n;

		m->more_repeats = n > have ? n - have : 1;
		if (n >= 1000)
			snprintf(m->note, sizeof(m->note),
				 "too noisy: over 1000 repeats a side needed");
		else
			snprintf(m->note, sizeof(m->note),
				 "need about %u more repeats a side",
				 m->more_repeats);
	}
}

struct judge_ctx {
	struct diff_result *d;
	const struct noise_floors *nf;
	const struct diff_phase *ph; /* the phase of the metrics judged */
};

/* the larger side's mean of one of the phase's metrics, 0 when absent */
static double phase_total(const struct diff_phase *ph, const char *name)
{
	unsigned int i;

	for (i = 0; i < ph->n_metrics; i++)
		if (!strcmp(ph->metrics[i].name, name)) {
			double a = ph->metrics[i].a.mean;
			double b = ph->metrics[i].b.mean;

			a = isnan(a) ? 0 : a;
			b = isnan(b) ? 0 : b;
			return a > b ? a : b;
		}
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * The metric's materiality floor in its own unit, 0 when it has none: a
 * total of bytes against the phase's IO (DIFF_IMMATERIAL_BYTES, or
 * DIFF_IMMATERIAL_SHARE of the bytes the device or the workload moved), a
 * count of requests or kernel events against the phase's operations
 * (DIFF_IMMATERIAL_COUNT, or that share of the workload's operations or
 * the device's requests). Times, rates, ratios and distributions keep
 * their noise floors only.
 */
double diff_materiality_floor(const char *name, double io_bytes, double ops)
{
	static const char *const counted[] = { "block.", "jbd2.", "xfs.",
					       "ext4.", "writeback." };
	size_t i;

	if (!strncmp(name, "per_op.", 7) || ends_with(name, "_ns") ||
	    ends_with(name, ".p50") || ends_with(name, ".p99") ||
	    ends_with(name, "_jiffies") || strstr(name, "latency"))
		return 0;
	if (ends_with(name, "bytes"))
		return fmax(DIFF_IMMATERIAL_BYTES,
			    DIFF_IMMATERIAL_SHARE * io_bytes);
	for (i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
		if (!strncmp(name, counted[i], strlen(counted[i])))
			return fmax(DIFF_IMMATERIAL_COUNT,
				    DIFF_IMMATERIAL_SHARE * ops);
	return 0;
}

/* a change or an open question whose whole interval is immaterial: same */
static void materiality(struct diff_metric *m, const struct diff_phase *ph)
{
	double io = fmax(phase_total(ph, "block.bytes"),
			 phase_total(ph, "workload.bytes"));
	double ops = fmax(phase_total(ph, "workload.ops"),
			  phase_total(ph, "block.ios"));
	double floor = diff_materiality_floor(m->name, io, ops);

	if (floor <= 0 || !m->has_ci || m->verdict == DIFF_SAME ||
	    fabs(m->ci_lo) > floor || fabs(m->ci_hi) > floor)
		return;
	m->verdict = DIFF_SAME;
	m->more_repeats = 0;
	snprintf(m->note, sizeof(m->note),
		 "immaterial: %+.3g, within the floor of %.3g %s", m->diff,
		 floor, ends_with(m->name, "bytes") ? "bytes" : "events");
}

static void judge_one(void *ctx, struct diff_metric *m, struct diff_hist *h)
{
	struct diff_result *d = ((struct judge_ctx *)ctx)->d;

	if (h) {
		h->differs = !isnan(h->q) && h->q <= d->opt.alpha &&
			     h->ks_d >= DIFF_KS_MIN_D;
		return;
	}
	if (m->verdict == DIFF_UNMEASURED) { /* set by diff_build: no test */
		d->n_unmeasured++;
		return;
	}
	metric_verdict(m, &d->opt, ((struct judge_ctx *)ctx)->nf);
	if (m->emulated_time)
		return; /* counted in n_emulated_times */
	materiality(m, ((struct judge_ctx *)ctx)->ph);
	if (diff_verdict_is_change(m->verdict))
		d->n_changed++;
	else if (m->verdict == DIFF_SAME)
		d->n_same++;
	else
		d->n_inconclusive++;
}

/* --fail-above: headline metrics worse, significantly, by more than that */
static void gate(struct diff_result *d)
{
	unsigned int i, j, k;

	if (d->opt.fail_above < 0)
		return;
	for (i = 0; i < d->n_pairs; i++)
		for (j = 0; j < d->pairs[i].n_phases; j++) {
			const struct diff_phase *ph = &d->pairs[i].phases[j];

			for (k = 0; k < ph->n_metrics; k++) {
				const struct diff_metric *m = &ph->metrics[k];
				double rel = m->a.mean != 0 ?
						     fabs(m->diff / m->a.mean) :
						     INFINITY;

				if (!m->headline || m->verdict != DIFF_WORSE ||
				    rel <= d->opt.fail_above)
					continue;
				if (d->n_failed < 8)
					snprintf(d->failed[d->n_failed],
						 sizeof(d->failed[0]),
						 "%s %s: %s %+.1f%%",
						 d->pairs[i].workload, ph->name,
						 m->name,
						 100 * m->diff / m->a.mean);
				d->n_failed++;
			}
		}
}

int diff_judge(struct diff_result *d)
{
	struct family f = { 0 };
	struct judge_ctx jc = { d, noise_floors_builtin(), NULL };
	unsigned int i, j, k;
	size_t *scratch;

	if (!jc.nf)
		return -ENOMEM;
	tests_each(d, count_test, &f);
	d->n_tests = 0;
	f.p = calloc(f.n ? f.n : 1, sizeof(double));
	f.q = calloc(f.n ? f.n : 1, sizeof(double));
	scratch = calloc(f.n ? f.n : 1, sizeof(size_t));
	if (!f.p || !f.q || !scratch) {
		free(f.p);
		free(f.q);
		free(scratch);
		return -ENOMEM;
	}
	d->n_tests = 0;
	{
		size_t n = f.n, i;

		f.n = 0;
		tests_each(d, gather_p, &f);
		diff_bh_adjust(f.p, f.q, n, scratch);
		for (i = 0; i < n; i++)
			d->n_tests += !isnan(f.p[i]);
		f.n = 0;
		tests_each(d, scatter_q, &f);
	}
	/* judged phase by phase: materiality weighs a metric by its phase */
	for (i = 0; i < d->n_pairs; i++)
		for (j = 0; j < d->pairs[i].n_phases; j++) {
			struct diff_phase *ph = &d->pairs[i].phases[j];

			jc.ph = ph;
			for (k = 0; k < ph->n_metrics; k++)
				judge_one(&jc, &ph->metrics[k], NULL);
			for (k = 0; k < ph->n_hists; k++)
				judge_one(&jc, NULL, &ph->hists[k]);
		}
	gate(d);
	free(f.p);
	free(f.q);
	free(scratch);
	return 0;
}
