// SPDX-License-Identifier: GPL-2.0
/*
 * The log2-linear histogram: hist_slot()/hist_msb() from include/fsprof/hist.h
 * (shared with BPF) and the readers in src/util/histogram.h.
 */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fsprof/hist.h"
#include "util/histogram.h"

#define SWEEP_LINEAR_MAX 100000ULL

struct sweep {
	uint64_t *v;
	size_t n;
};

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 0..100000, 2^k - 1, 2^k, 2^k + 1 for k = 0..63, UINT64_MAX; sorted */
static int sweep_setup(void **state)
{
	struct sweep *s = calloc(1, sizeof(*s));
	unsigned int k;
	uint64_t v;

	if (!s)
		return -1;
	s->v = calloc(SWEEP_LINEAR_MAX + 1 + 64 * 3 + 1, sizeof(*s->v));
	if (!s->v) {
		free(s);
		return -1;
	}
	for (v = 0; v <= SWEEP_LINEAR_MAX; v++)
		s->v[s->n++] = v;
	for (k = 0; k < 64; k++) {
		s->v[s->n++] = (1ULL << k) - 1;
		s->v[s->n++] = 1ULL << k;
		s->v[s->n++] = (1ULL << k) + 1;
	}
	s->v[s->n++] = UINT64_MAX;
	qsort(s->v, s->n, sizeof(*s->v), compare_u64);
	*state = s;
	return 0;
}

static int sweep_teardown(void **state)
{
	struct sweep *s = *state;

	free(s->v);
	free(s);
	return 0;
}

/* the p-th percentile of slots is want, give or take rounding */
static void check_percentile(const uint64_t *slots, double p, double want)
{
	double got = hist_percentile(slots, HIST_NSLOTS, p);

	if (fabs(got - want) > 1e-6)
		fail_msg("p%g = %.9f, want %g", p, got, want);
}

static void msb_is_the_index_of_the_highest_set_bit(void **state)
{
	unsigned int k;

	(void)state;
	assert_int_equal(hist_msb(1), 0);
	assert_int_equal(hist_msb(3), 1);
	for (k = 0; k < 64; k++) {
		uint64_t p = 1ULL << k;

		assert_int_equal(hist_msb(p), k);
		assert_int_equal(hist_msb(p | (p - 1)), k);
	}
	assert_int_equal(hist_msb(UINT64_MAX), 63);
}

static void every_value_lies_inside_its_slot(void **state)
{
	const struct sweep *s = *state;
	size_t i;

	for (i = 0; i < s->n; i++) {
		uint64_t v = s->v[i], low, high;
		unsigned int slot = hist_slot(v);

		if (slot >= HIST_NSLOTS)
			fail_msg("hist_slot(%" PRIu64 ") = %u, past %u slots",
				 v, slot, HIST_NSLOTS);
		low = hist_slot_low(slot);
		high = hist_slot_high(slot);
		if (v < low)
			fail_msg("%" PRIu64
				 " in slot %u below its low %" PRIu64,
				 v, slot, low);
		if (v >= high &&
		    !(slot == HIST_NSLOTS - 1 && high == UINT64_MAX))
			fail_msg("%" PRIu64
				 " in slot %u not below its high %" PRIu64,
				 v, slot, high);
	}
}

static void larger_value_never_gets_a_smaller_slot(void **state)
{
	const struct sweep *s = *state;
	size_t i;

	for (i = 1; i < s->n; i++) {
		if (hist_slot(s->v[i]) < hist_slot(s->v[i - 1]))
			fail_msg("hist_slot(%" PRIu64
				 ") = %u < hist_slot(%" PRIu64 ") = %u",
				 s->v[i], hist_slot(s->v[i]), s->v[i - 1],
				 hist_slot(s->v[i - 1]));
	}
}

static void largest_value_uses_the_last_slot(void **state)
{
	(void)state;
	assert_int_equal(hist_slot(UINT64_MAX), HIST_NSLOTS - 1);
	assert_int_equal(hist_slot_high(HIST_NSLOTS - 1), UINT64_MAX);
}

static void small_values_get_a_slot_each(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v < HIST_SUBS; v++) {
		assert_int_equal(hist_slot(v), v);
		assert_int_equal(hist_slot_low(v), v);
		assert_int_equal(hist_slot_high(v), v + 1);
	}
}

static void slots_tile_the_range_without_gaps(void **state)
{
	unsigned int s;

	(void)state;
	assert_int_equal(hist_slot_low(0), 0);
	for (s = 0; s + 1 < HIST_NSLOTS; s++) {
		if (hist_slot_low(s + 1) <= hist_slot_low(s))
			fail_msg("slot %u low %" PRIu64
				 " <= slot %u low %" PRIu64,
				 s + 1, hist_slot_low(s + 1), s,
				 hist_slot_low(s));
		assert_int_equal(hist_slot_high(s), hist_slot_low(s + 1));
	}
}

static void slot_bounds_map_back_to_the_slot(void **state)
{
	unsigned int s;

	(void)state;
	for (s = 0; s < HIST_NSLOTS; s++) {
		assert_int_equal(hist_slot(hist_slot_low(s)), s);
		assert_int_equal(hist_slot(hist_slot_high(s) - 1), s);
	}
}

static void slot_width_is_at_most_a_quarter_of_its_low(void **state)
{
	unsigned int s;

	(void)state;
	for (s = 0; s < HIST_NSLOTS; s++) {
		uint64_t low = hist_slot_low(s), high = hist_slot_high(s);

		if (low < 4)
			continue;
		if (high - low > low / 4)
			fail_msg("slot %u [%" PRIu64 ", %" PRIu64
				 ") is wider than a quarter of its low",
				 s, low, high);
	}
}

static void total_sums_all_slots(void **state)
{
	uint64_t slots[HIST_NSLOTS] = { 0 };

	(void)state;
	assert_int_equal(hist_total(slots, HIST_NSLOTS), 0);
	slots[0] = 3;
	slots[17] = 5;
	slots[HIST_NSLOTS - 1] = 1000000000000ULL;
	assert_int_equal(hist_total(slots, HIST_NSLOTS), 1000000000008ULL);
}

static void empty_histogram_gives_percentile_zero(void **state)
{
	uint64_t slots[HIST_NSLOTS] = { 0 };

	(void)state;
	check_percentile(slots, 50, 0);
	check_percentile(slots, 100, 0);
}

static void percentile_of_a_single_value_lies_in_its_slot(void **state)
{
	static const uint64_t values[] = {
		0,   1,	   3,	      4,	  5,
		100, 1000, 123456789, 1ULL << 40, (1ULL << 62) + 12345
	};
	static const double ps[] = { 0.01, 1, 50, 99, 99.99, 100 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		uint64_t slots[HIST_NSLOTS] = { 0 };
		unsigned int s = hist_slot(values[i]);
		double low = (double)hist_slot_low(s);
		double high = (double)hist_slot_high(s);

		slots[s] = 7;
		for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
			double got = hist_percentile(slots, HIST_NSLOTS, ps[j]);

			if (got < low || got > high)
				fail_msg("p%g of %" PRIu64
					 " = %f, outside slot [%f, %f]",
					 ps[j], values[i], got, low, high);
		}
	}
}

static void percentile_interpolates_linearly_inside_a_slot(void **state)
{
	uint64_t slots[HIST_NSLOTS] = { 0 };
	unsigned int s = hist_slot(1024);

	(void)state;
	/* slot [1024, 1280), 100 values taken as spread evenly over it */
	assert_int_equal(hist_slot_low(s), 1024);
	assert_int_equal(hist_slot_high(s), 1280);
	slots[s] = 100;
	check_percentile(slots, 25, 1088);
	check_percentile(slots, 50, 1152);
	check_percentile(slots, 100, 1280);
}

static void percentile_counts_the_slots_below(void **state)
{
	uint64_t slots[HIST_NSLOTS] = { 0 };

	(void)state;
	/* 90 values in [8, 10), 10 in [1024, 1280) */
	slots[hist_slot(8)] = 90;
	slots[hist_slot(1024)] = 10;
	check_percentile(slots, 45, 9);
	check_percentile(slots, 90, 10);
	check_percentile(slots, 95, 1152);
}

/* slots counting 1..1000 once each */
static void fill_one_to_thousand(uint64_t *slots)
{
	uint64_t v;

	memset(slots, 0, HIST_NSLOTS * sizeof(*slots));
	for (v = 1; v <= 1000; v++)
		slots[hist_slot(v)]++;
}

static void median_of_one_to_thousand_is_within_a_quarter_of_500(void **state)
{
	uint64_t slots[HIST_NSLOTS];
	double p50;

	(void)state;
	fill_one_to_thousand(slots);
	assert_int_equal(hist_total(slots, HIST_NSLOTS), 1000);
	p50 = hist_percentile(slots, HIST_NSLOTS, 50);
	if (p50 < 375 || p50 > 625)
		fail_msg("p50 of 1..1000 = %f, not within 25%% of 500", p50);
}

static void p99_of_one_to_thousand_is_within_a_quarter_of_990(void **state)
{
	uint64_t slots[HIST_NSLOTS];
	double p99;

	(void)state;
	fill_one_to_thousand(slots);
	p99 = hist_percentile(slots, HIST_NSLOTS, 99);
	if (p99 < 990 * 0.75 || p99 > 990 * 1.25)
		fail_msg("p99 of 1..1000 = %f, not within 25%% of 990", p99);
}

static void p100_lies_in_the_slot_of_the_maximum(void **state)
{
	uint64_t slots[HIST_NSLOTS];
	unsigned int s = hist_slot(1000);
	double p100;

	(void)state;
	fill_one_to_thousand(slots);
	p100 = hist_percentile(slots, HIST_NSLOTS, 100);
	if (p100 < (double)hist_slot_low(s) || p100 > (double)hist_slot_high(s))
		fail_msg("p100 of 1..1000 = %f, outside slot [%" PRIu64
			 ", %" PRIu64 "]",
			 p100, hist_slot_low(s), hist_slot_high(s));
}

static void higher_percentile_is_never_smaller(void **state)
{
	uint64_t slots[HIST_NSLOTS];
	double p, prev = 0;

	(void)state;
	fill_one_to_thousand(slots);
	for (p = 0.5; p <= 100; p += 0.5) {
		double v = hist_percentile(slots, HIST_NSLOTS, p);

		if (v < prev)
			fail_msg("p%g = %f < the previous %f", p, v, prev);
		prev = v;
	}
}

/* bcc's log2 buckets: 0 alone, then [1,1], [2,3], [4,7], ... */
static void log2_fold_puts_each_value_in_its_power_of_two(void **state)
{
	static const uint64_t values[] = {
		0, 1, 2, 3, 4, 7, 8, 1000, 1023, 1024, (1ULL << 40) + 12345
	};
	uint64_t slots[HIST_NSLOTS] = { 0 }, fold[HIST_LOG2_BUCKETS];
	unsigned int i, k;

	(void)state;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		memset(slots, 0, sizeof(slots));
		slots[hist_slot(values[i])] = 3;
		hist_fold_log2(slots, HIST_NSLOTS, fold);
		for (k = 0; k < HIST_LOG2_BUCKETS; k++) {
			bool inside =
				values[i] >= hist_log2_low(k) &&
				(k == 0 ? values[i] == 0 :
					  values[i] < 2 * hist_log2_low(k));

			assert_int_equal(fold[k], inside ? 3 : 0);
		}
	}
}

static void log2_fold_keeps_every_count(void **state)
{
	uint64_t slots[HIST_NSLOTS], fold[HIST_LOG2_BUCKETS], sum = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i < HIST_NSLOTS; i++)
		slots[i] = i + 1;
	hist_fold_log2(slots, HIST_NSLOTS, fold);
	for (i = 0; i < HIST_LOG2_BUCKETS; i++)
		sum += fold[i];
	assert_int_equal(sum, hist_total(slots, HIST_NSLOTS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(msb_is_the_index_of_the_highest_set_bit),
		cmocka_unit_test(every_value_lies_inside_its_slot),
		cmocka_unit_test(larger_value_never_gets_a_smaller_slot),
		cmocka_unit_test(largest_value_uses_the_last_slot),
		cmocka_unit_test(small_values_get_a_slot_each),
		cmocka_unit_test(slots_tile_the_range_without_gaps),
		cmocka_unit_test(slot_bounds_map_back_to_the_slot),
		cmocka_unit_test(slot_width_is_at_most_a_quarter_of_its_low),
		cmocka_unit_test(total_sums_all_slots),
		cmocka_unit_test(empty_histogram_gives_percentile_zero),
		cmocka_unit_test(percentile_of_a_single_value_lies_in_its_slot),
		cmocka_unit_test(
			percentile_interpolates_linearly_inside_a_slot),
		cmocka_unit_test(percentile_counts_the_slots_below),
		cmocka_unit_test(
			median_of_one_to_thousand_is_within_a_quarter_of_500),
		cmocka_unit_test(
			p99_of_one_to_thousand_is_within_a_quarter_of_990),
		cmocka_unit_test(p100_lies_in_the_slot_of_the_maximum),
		cmocka_unit_test(higher_percentile_is_never_smaller),
		cmocka_unit_test(log2_fold_puts_each_value_in_its_power_of_two),
		cmocka_unit_test(log2_fold_keeps_every_count),
	};

	return cmocka_run_group_tests(tests, sweep_setup, sweep_teardown);
}
