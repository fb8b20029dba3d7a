// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof bisect-step's judgement (src/repro/bisect.c): good, bad and
 * cannot tell on constructed values, at and around each of its limits:
 * the threshold in either direction, ranges that meet, the minimum of
 * repeats, the 20% relative stddev, the 20% min-max gap, a good mean of 0
 * and a new run without values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "repro/bisect.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static enum bisect_verdict judge(const double *good, unsigned int n_good,
				 const double *now, unsigned int n_now,
				 double threshold, enum kpi_dir dir,
				 struct bisect_decision *d)
{
	struct bisect_input in = { .good = good,
				   .n_good = n_good,
				   .now = now,
				   .n_now = n_now,
				   .threshold = threshold,
				   .dir = dir };

	return bisect_decide(&in, d);
}

static void test_unchanged_is_good(void **state)
{
	static const double good[] = { 200, 200, 200 };
	static const double now[] = { 200, 200, 200 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(good, 3, now, 3, 0.01, KPI_LOWER_BETTER, &d),
			 BISECT_GOOD);
	assert_true(d.change == 0);
	assert_true(d.rsd == 0);
	assert_string_equal(d.why, "");
}

static void test_threshold_crossed_in_the_worse_direction(void **state)
{
	static const double good[] = { 100, 102, 98 };
	static const double up[] = { 106, 106 };
	static const double down[] = { 94, 94 };
	struct bisect_decision d;

	(void)state;
	/* +6% is worse for a time, better for a rate */
	assert_int_equal(judge(good, 3, up, 2, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_BAD);
	assert_true(fabs(d.change - 0.06) < 1e-12);
	assert_int_equal(judge(good, 3, up, 2, 0.05, KPI_HIGHER_BETTER, &d),
			 BISECT_GOOD);
	assert_int_equal(judge(good, 3, down, 2, 0.05, KPI_HIGHER_BETTER, &d),
			 BISECT_BAD);
	assert_int_equal(judge(good, 3, down, 2, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_GOOD);
}

static void test_within_threshold_is_good(void **state)
{
	static const double good[] = { 100, 100, 100 };
	static const double now[] = { 104.9 };
	static const double edge[] = { 105 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(good, 3, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_GOOD);
	/* beyond the threshold, not at it */
	assert_int_equal(judge(good, 3, edge, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_GOOD);
}

/* past the threshold, but a new value within the good run's range */
static void test_ranges_that_meet_cannot_tell(void **state)
{
	static const double good[] = { 95, 100, 105 };
	static const double now[] = { 102, 125 };
	static const double apart[] = { 106, 125 };
	struct bisect_decision d;

	(void)state;
	/* +13.5% past 5%, but 102 is inside 95-105 */
	assert_int_equal(judge(good, 3, now, 2, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_non_null(strstr(d.why, "good run's own range (95 to 105)"));
	/* every new value above the good run's largest: bad */
	assert_int_equal(judge(good, 3, apart, 2, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_BAD);
	/* for a rate the same values are better: good, whatever the ranges */
	assert_int_equal(judge(good, 3, now, 2, 0.05, KPI_HIGHER_BETTER, &d),
			 BISECT_GOOD);
}

static void test_too_few_repeats_cannot_tell(void **state)
{
	static const double good[] = { 100, 100 };
	static const double now[] = { 200 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(good, 2, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_non_null(strstr(d.why, "at least 3"));
	assert_int_equal(judge(good, 0, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_non_null(strstr(d.why, "no value"));
}

static void test_unstable_good_run_cannot_tell(void **state)
{
	/* mean 100.3, sd 20.4: 20.3% relative, just over the limit */
	static const double noisy[] = { 80, 100, 120.8 };
	/* mean 100, sd 19.8: within it, but the gap is 49% */
	static const double steady[] = { 80.2, 100, 119.8 };
	static const double now[] = { 300 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(noisy, 3, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_true(d.rsd > BISECT_MAX_RSD);
	assert_non_null(strstr(d.why, "unstable"));
	assert_non_null(strstr(d.why, "relative stddev 20.3%"));
	assert_int_equal(judge(steady, 3, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_true(d.rsd <= BISECT_MAX_RSD);
	assert_non_null(strstr(d.why, "min-max gap 49.4%"));
}

/*
 * lkp's second gate: (max - min) / min of the good values within 20%.
 * One slow repeat among steady ones passes the stddev but not the gap.
 */
static void test_wide_min_max_gap_cannot_tell(void **state)
{
	/* mean 106.25, sd 12.5: 11.8% relative; gap 25% */
	static const double one_slow[] = { 100, 100, 100, 125 };
	/* gap 20%: at the limit, not over it; and just over it */
	static const double at_limit[] = { 100, 110, 120 };
	static const double over[] = { 100, 110, 120.1 };
	static const double now[] = { 300 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(one_slow, 4, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_true(d.rsd < 0.12);
	assert_true(fabs(d.gap - 0.25) < 1e-12);
	assert_non_null(strstr(d.why, "unstable in the good run: min-max gap "
				      "25.0% ((max - min) / min of 4 values, "
				      "100 to 125), above the 20%"));
	assert_int_equal(judge(at_limit, 3, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_BAD);
	assert_true(fabs(d.gap - BISECT_MAX_GAP) < 1e-12);
	assert_string_equal(d.why, "");
	assert_int_equal(judge(over, 3, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_non_null(strstr(d.why, "min-max gap 20.1%"));
}

/* a 0 among many steady values: the stddev passes, no gap can be had */
static void test_gap_from_a_zero_cannot_tell(void **state)
{
	double good[30];
	static const double now[] = { 100 };
	struct bisect_decision d;
	unsigned int i;

	(void)state;
	for (i = 0; i < 30; i++)
		good[i] = i ? 100 : 0;
	assert_int_equal(judge(good, 30, now, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_true(d.rsd <= BISECT_MAX_RSD); /* 18.9% */
	assert_true(isinf(d.gap));
	assert_non_null(strstr(d.why, "min-max gap without end"));
}

static void test_good_mean_zero(void **state)
{
	static const double zero[] = { 0, 0, 0 };
	static const double spread[] = { -1, 0, 1 };
	static const double some[] = { 2 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(zero, 3, zero, 3, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_GOOD);
	assert_int_equal(judge(zero, 3, some, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_BAD);
	assert_true(isinf(d.change) && d.change > 0);
	assert_int_equal(judge(zero, 3, some, 1, 0.05, KPI_HIGHER_BETTER, &d),
			 BISECT_GOOD);
	/* spread around 0: no relative stddev to trust */
	assert_int_equal(judge(spread, 3, some, 1, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
}

static void test_no_new_value_cannot_tell(void **state)
{
	static const double good[] = { 5, 5, 5 };
	struct bisect_decision d;

	(void)state;
	assert_int_equal(judge(good, 3, NULL, 0, 0.05, KPI_LOWER_BETTER, &d),
			 BISECT_SKIP);
	assert_non_null(strstr(d.why, "new run"));
}

static void test_line_has_the_numbers(void **state)
{
	static const double good[] = { 1, 1, 1 };
	static const double now[] = { 1.137, 1.137 };
	struct bisect_input in = { .good = good,
				   .n_good = 3,
				   .now = now,
				   .n_now = 2,
				   .threshold = 0.05,
				   .dir = KPI_LOWER_BETTER };
	struct bisect_decision d;
	char line[512];

	(void)state;
	bisect_decide(&in, &d);
	bisect_line(&in, &d, "files1m/ext4 create/x", line, sizeof(line));
	assert_non_null(
		strstr(line, "bad: files1m/ext4 create/x: good 1 +- 0"));
	assert_non_null(strstr(line, "n=3"));
	assert_non_null(strstr(line, "new 1.137 (n=2: 1.137 1.137)"));
	assert_non_null(strstr(line, "+13.7%"));
	assert_non_null(strstr(line, "threshold 5%"));
	assert_non_null(strstr(line, "lower is better"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unchanged_is_good),
		cmocka_unit_test(test_threshold_crossed_in_the_worse_direction),
		cmocka_unit_test(test_within_threshold_is_good),
		cmocka_unit_test(test_ranges_that_meet_cannot_tell),
		cmocka_unit_test(test_too_few_repeats_cannot_tell),
		cmocka_unit_test(test_unstable_good_run_cannot_tell),
		cmocka_unit_test(test_wide_min_max_gap_cannot_tell),
		cmocka_unit_test(test_gap_from_a_zero_cannot_tell),
		cmocka_unit_test(test_good_mean_zero),
		cmocka_unit_test(test_no_new_value_cannot_tell),
		cmocka_unit_test(test_line_has_the_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
