// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff's statistics (src/compare/): Welch's interval and p against
 * SciPy's (scipy.stats.ttest_ind(equal_var=False) and t.ppf on the same
 * samples), Benjamini-Hochberg against its definition, Kolmogorov-Smirnov's
 * gap, and verdicts on constructed runs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compare/diff_int.h"
#include "diff_fixture.h"
#include "compare/diff.h"
#include "compare/diff_stats.h"

static void side_of(const double *v, unsigned int n, struct diff_side *s)
{
	double sum = 0, sq = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += v[i];
	s->n = n;
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
}

static void test_welch_matches_scipy(void **state)
{
	/* scipy 1.10.1: t 4.700207870189202, p 0.0016358371287739989,
	 * df 7.825277849573535, CI 0.1573154497309854 .. 0.46268455026901467 */
	static const double a[] = { 1.0, 1.2, 0.9, 1.1, 1.05 };
	static const double b[] = { 1.3, 1.4, 1.25, 1.5, 1.35 };
	struct diff_metric m;

	(void)state;
	memset(&m, 0, sizeof(m));
	side_of(a, 5, &m.a);
	side_of(b, 5, &m.b);
	diff_welch(&m);
	assert_true(m.has_ci);
	assert_true(fabs(m.p - 0.0016358371287739989) < 1e-9);
	assert_true(fabs(m.ci_lo - 0.1573154497309854) < 1e-9);
	assert_true(fabs(m.ci_hi - 0.46268455026901467) < 1e-9);
	assert_true(fabs(m.ratio - 1.36 / 1.05) < 1e-12);
}

static void test_one_run_a_side_gives_no_interval(void **state)
{
	static const double a[] = { 1.0 }, b[] = { 1.3, 1.4, 1.25 };
	struct diff_metric m;

	(void)state;
	memset(&m, 0, sizeof(m));
	side_of(a, 1, &m.a);
	side_of(b, 3, &m.b);
	diff_welch(&m);
	assert_false(m.has_ci);
	assert_true(isnan(m.p));
}

/*
 * Runs all alike on each side, the sides apart: as much as a permutation
 * of them can say, the exact permutation test's p (every split of the
 * runs enumerated: 3 a side 0.1, 2 a side 1/3, 4 and 6 1/210, the
 * mirror split not as far apart) - never the 0 that called a count taking
 * one of two values from run to run changed in an A/A
 */
static void test_no_spread_gives_the_permutation_p_of_a_separation(void **state)
{
	struct diff_metric m;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.a = (struct diff_side){ .n = 3, .mean = 100, .sd = 0 };
	m.b = (struct diff_side){ .n = 3, .mean = 120, .sd = 0 };
	diff_welch(&m);
	assert_true(fabs(m.p - 0.1) < 1e-12 && m.ci_lo == 20 && m.ci_hi == 20);
	m.a.n = m.b.n = 2;
	diff_welch(&m);
	assert_true(fabs(m.p - 1.0 / 3) < 1e-12);
	m.a.n = 4;
	m.b.n = 6;
	diff_welch(&m);
	assert_true(fabs(m.p - 1.0 / 210) < 1e-12);
	m.b.mean = 100;
	diff_welch(&m);
	assert_true(m.p == 1);
}

/*
 * A count whose runs take one of two values: ext4's mballoc regular path
 * served 0 and 1 allocations in two A/A runs, 255 and 255 in the other
 * two. Welch's t says p = 0.001 (one degree of freedom); the ranks of
 * four runs cannot say below 1/3, and a count's p is held there. A time
 * with the same runs keeps Welch's p.
 */
static void test_a_count_is_never_surer_than_its_best_split(void **state)
{
	static const double a[] = { 0, 1 }, b[] = { 255, 255 };
	static const double a6[] = { 0, 1, 0, 1, 0, 2 };
	static const double b6[] = { 255, 255, 256, 255, 255, 254 };
	struct diff_metric m;

	(void)state;
	memset(&m, 0, sizeof(m));
	side_of(a, 2, &m.a);
	side_of(b, 2, &m.b);
	diff_welch(&m);
	assert_true(m.p < 0.01);
	m.discrete = true;
	diff_welch(&m);
	assert_true(fabs(m.p - 1.0 / 3) < 1e-12);
	/* Welch's interval: 254.5 +- 12.706 x 0.5 */
	assert_true(fabs(m.ci_lo - 248.147) < 0.01 && fabs(m.ci_hi - 260.853) < 0.01);
	/* undecided at alpha 0.05 until 4 a side (1/35) */
	assert_int_equal(diff_repeats_needed(&m, 254.5, 0.05), 4);
	/* 6 a side: the best split is 1/462, Welch's p smaller still */
	side_of(a6, 6, &m.a);
	side_of(b6, 6, &m.b);
	diff_welch(&m);
	assert_true(fabs(m.p - 1.0 / 462) < 1e-12);
}

static void test_benjamini_hochberg_by_its_definition(void **state)
{
	/* sorted 0.005 0.01 0.03 0.04 (m = 4): p(k) m / k = 0.02 0.02 0.04
	 * 0.04, made monotone from the top; NAN is not a test */
	static const double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 };
	double q[5];
	size_t scratch[5];

	(void)state;
	diff_bh_adjust(p, q, 5, scratch);
	assert_true(fabs(q[0] - 0.02) < 1e-12);
	assert_true(fabs(q[1] - 0.04) < 1e-12);
	assert_true(isnan(q[2]));
	assert_true(fabs(q[3] - 0.04) < 1e-12);
	assert_true(fabs(q[4] - 0.02) < 1e-12);
}

static void test_ks_gap_matches_scipy(void **state)
{
	/* ks_2samp(1..10, 5..14): D = 0.4, p 0.4175 (exact); buckets 1..14 */
	uint64_t a[16] = { 0 }, b[16] = { 0 };
	double d, p;
	int i;

	(void)state;
	for (i = 1; i <= 10; i++)
		a[i] = 1;
	for (i = 5; i <= 14; i++)
		b[i] = 1;
	diff_ks(a, b, 16, &d, &p);
	assert_true(fabs(d - 0.4) < 1e-12);
	/* the asymptotic p is close to the exact one at n = 10 */
	assert_true(p > 0.25 && p < 0.6);
	for (i = 0; i < 16; i++)
		b[i] = a[i] * 1000;
	diff_ks(a, b, 16, &d, &p);
	assert_true(d == 0 && p == 1);
}

static void test_more_variance_needs_more_repeats(void **state)
{
	struct diff_metric m;
	unsigned int few, many;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.a = (struct diff_side){ .n = 3, .mean = 100, .sd = 2 };
	m.b = (struct diff_side){ .n = 3, .mean = 102, .sd = 2 };
	few = diff_repeats_needed(&m, 5, 0.05);
	m.a.sd = m.b.sd = 8;
	many = diff_repeats_needed(&m, 5, 0.05);
	assert_true(few >= 2 && many > few);
}

static void test_slower_with_more_commits_is_worse_and_higher(void **state)
{
	static const double wa[] = { 1.0, 1.02, 0.99, 1.01, 1.0 };
	static const double wb[] = { 1.5, 1.52, 1.49, 1.51, 1.5 };
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;

	(void)state;
	fx_diff_run(&a, "ext4", wa, 5, 100);
	fx_diff_run(&b, "ext4:mount=nodelalloc", wb, 5, 400);
	diff_options_default(&o);
	o.fail_above = 0.05;
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	assert_int_equal(d.n_pairs, 1); /* paired although labels differ */
	assert_int_equal(fx_diff_metric(&d, "wall_ns")->verdict, DIFF_WORSE);
	assert_int_equal(fx_diff_metric(&d, "jbd2.commits")->verdict,
			 DIFF_HIGHER);
	assert_true(d.n_failed >= 1);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

/* every phase of run: ops workload operations, metric name = value */
static void fx_phase_set(struct run_result *run, uint64_t ops, const char *name,
			 uint64_t value)
{
	unsigned int i, j;

	for (i = 0; i < run->n_cases; i++)
		for (j = 0; j < run->cases[i].n_phases; j++) {
			run->cases[i].phases[j].work.ops = ops;
			metric_add(&run->cases[i].phases[j].metrics, name,
				   value);
		}
}

/*
 * Issue 32's A/A: zero spread on both sides gives p = 0, but 2 -> 4 log
 * writes and 8 -> 20 KiB in a phase of 1000 operations are immaterial;
 * 100 -> 400 commits are not
 */
static void test_an_immaterial_difference_is_same_whatever_its_p(void **state)
{
	static const double w[] = { 1.0, 1.0, 1.0, 1.0, 1.0 };
	const struct diff_metric *m;
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;

	(void)state;
	fx_diff_run(&a, "ext4", w, 5, 100);
	fx_diff_run(&b, "ext4", w, 5, 400);
	fx_phase_set(&a, 1000, "xfs.log_writes", 2);
	fx_phase_set(&b, 1000, "xfs.log_writes", 4);
	fx_phase_set(&a, 1000, "xfs.sysfs_log_bytes", 8192);
	fx_phase_set(&b, 1000, "xfs.sysfs_log_bytes", 20480);
	diff_options_default(&o);
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	m = fx_diff_metric(&d, "xfs.log_writes");
	assert_non_null(m);
	assert_int_equal(m->verdict, DIFF_SAME);
	assert_non_null(strstr(m->note, "immaterial"));
	m = fx_diff_metric(&d, "xfs.sysfs_log_bytes");
	assert_int_equal(m->verdict, DIFF_SAME);
	assert_non_null(strstr(m->note, "immaterial"));
	/* 300 commits is beyond max(10, 0.1% of 1000 operations) */
	assert_int_equal(fx_diff_metric(&d, "jbd2.commits")->verdict,
			 DIFF_HIGHER);
	/* the floors themselves: bytes against IO, counts against operations */
	assert_true(diff_materiality_floor("block.read_bytes", 1e9, 0) == 1e6);
	assert_true(diff_materiality_floor("block.read_bytes", 0, 0) ==
		    DIFF_IMMATERIAL_BYTES);
	assert_true(diff_materiality_floor("block.read_ios", 0, 5e4) == 50);
	/* a per-file mechanism in a files1m create is no noise: 200 flushes
	 * against none, 51,600 writes */
	assert_true(diff_materiality_floor("ext4.da_flushes", 0, 51600) < 200);
	assert_true(diff_materiality_floor("wall_ns", 1e9, 1e4) == 0);
	assert_true(diff_materiality_floor("per_op.jbd2.commits_per_fsync", 1e9,
					   1e4) == 0);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

static void test_a_run_against_itself_is_never_better_or_worse(void **state)
{
	static const double w[] = { 1.0, 1.3, 0.8, 1.1, 0.95 };
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;
	unsigned int i;

	(void)state;
	fx_diff_run(&a, "ext4", w, 5, 100);
	fx_diff_run(&b, "ext4", w, 5, 100);
	diff_options_default(&o);
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	assert_int_equal(d.n_changed, 0);
	/* wide spread: the interval straddles the floor - inconclusive */
	for (i = 0; i < d.pairs[0].phases[0].n_metrics; i++) {
		enum diff_verdict v = d.pairs[0].phases[0].metrics[i].verdict;

		assert_true(v == DIFF_SAME || v == DIFF_INCONCLUSIVE);
	}
	assert_int_equal(fx_diff_metric(&d, "wall_ns")->verdict,
			 DIFF_INCONCLUSIVE);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

static void test_one_run_each_is_inconclusive_never_a_verdict(void **state)
{
	static const double wa[] = { 1.0 }, wb[] = { 1.5 };
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;

	(void)state;
	fx_diff_run(&a, "ext4", wa, 1, 100);
	fx_diff_run(&b, "ext4", wb, 1, 400);
	diff_options_default(&o);
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	assert_int_equal(fx_diff_metric(&d, "wall_ns")->verdict,
			 DIFF_INCONCLUSIVE);
	assert_int_equal(d.n_changed, 0);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_matches_scipy),
		cmocka_unit_test(test_one_run_a_side_gives_no_interval),
		cmocka_unit_test(
			test_no_spread_gives_the_permutation_p_of_a_separation),
		cmocka_unit_test(test_a_count_is_never_surer_than_its_best_split),
		cmocka_unit_test(test_benjamini_hochberg_by_its_definition),
		cmocka_unit_test(test_ks_gap_matches_scipy),
		cmocka_unit_test(test_more_variance_needs_more_repeats),
		cmocka_unit_test(
			test_slower_with_more_commits_is_worse_and_higher),
		cmocka_unit_test(
			test_an_immaterial_difference_is_same_whatever_its_p),
		cmocka_unit_test(
			test_a_run_against_itself_is_never_better_or_worse),
		cmocka_unit_test(
			test_one_run_each_is_inconclusive_never_a_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
