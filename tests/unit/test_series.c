// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline's series (src/results/series.h), its sparkline in the text
 * report (src/report/timeline.h) and the rare-event list
 * (src/results/events.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/timeline.h"
#include "results/events.h"
#include "results/series.h"

static void series_add_creates_then_adds_bin_by_bin(void **state)
{
	struct series_set set = { 0 };
	const uint64_t a[3] = { 1, 2, 3 }, b[2] = { 10, 20 };
	const struct series *s;

	(void)state;
	assert_int_equal(series_add(&set, "jbd2.commits", a, 3), 0);
	assert_int_equal(series_add(&set, "jbd2.commits", b, 2), 0);
	assert_int_equal(set.n, 1);
	s = series_find(&set, "jbd2.commits");
	assert_non_null(s);
	assert_int_equal(s->n, 3);
	assert_int_equal(s->v[0], 11);
	assert_int_equal(s->v[1], 22);
	assert_int_equal(s->v[2], 3);
	assert_int_equal(series_sum(s), 36);
	assert_null(series_find(&set, "jbd2.blocks_logged"));
	series_set_free(&set);
	assert_int_equal(set.n, 0);
}

static void series_grows_when_a_longer_one_is_added(void **state)
{
	struct series_set set = { 0 };
	const uint64_t a[1] = { 5 }, b[4] = { 1, 1, 1, 7 };
	const struct series *s;

	(void)state;
	assert_int_equal(series_add(&set, "block.ios", a, 1), 0);
	assert_int_equal(series_add(&set, "block.ios", b, 4), 0);
	s = series_find(&set, "block.ios");
	assert_int_equal(s->n, 4);
	assert_int_equal(s->v[0], 6);
	assert_int_equal(s->v[3], 7);
	assert_int_equal(series_peak_bin(s), 3);
	assert_int_equal(series_set_bins(&set), 4);
	series_set_free(&set);
}

static void many_series_keep_their_own_bins(void **state)
{
	struct series_set set = { 0 };
	char name[SERIES_NAME_LEN];
	uint64_t v[2];
	unsigned int i;

	(void)state;
	for (i = 0; i < 40; i++) { /* past the first growth of the array */
		snprintf(name, sizeof(name), "d.s%u", i);
		v[0] = i;
		v[1] = 2 * i;
		assert_int_equal(series_add(&set, name, v, 2), 0);
	}
	assert_int_equal(set.n, 40);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "d.s%u", i);
		assert_int_equal(series_sum(series_find(&set, name)), 3 * i);
	}
	series_set_free(&set);
}

static void peak_is_the_first_of_equal_bins(void **state)
{
	struct series s = { .n = 4, .v = (uint64_t[]){ 1, 9, 9, 2 } };
	struct series empty = { 0 };

	(void)state;
	assert_int_equal(series_peak_bin(&s), 1);
	assert_int_equal(series_peak_bin(&empty), 0);
}

static void columns_sum_the_bins_they_cover(void **state)
{
	uint64_t v[10], out[4];
	struct series s = { .n = 10, .v = v };
	unsigned int i, cols;

	(void)state;
	for (i = 0; i < 10; i++)
		v[i] = i + 1; /* 1..10, sum 55 */
	/* 10 bins into 4 columns: 3 bins each, the last has 1 */
	cols = series_columns(&s, out, 4);
	assert_int_equal(cols, 4);
	assert_int_equal(out[0], 1 + 2 + 3);
	assert_int_equal(out[1], 4 + 5 + 6);
	assert_int_equal(out[2], 7 + 8 + 9);
	assert_int_equal(out[3], 10);
	/* fewer bins than columns: one bin a column */
	s.n = 3;
	assert_int_equal(series_columns(&s, out, 4), 3);
	assert_int_equal(out[2], 3);
	s.n = 0;
	assert_int_equal(series_columns(&s, out, 4), 0);
}

static void sparkline_shows_zero_blank_and_peak_highest(void **state)
{
	const uint64_t v[5] = { 0, 1, 50, 100, 0 };
	char line[6];

	(void)state;
	sparkline_draw(v, 5, 100, line);
	assert_int_equal(strlen(line), 5);
	assert_true(line[0] == ' ' && line[4] == ' ');
	assert_true(line[1] != ' '); /* small but not zero: visible */
	assert_true(line[3] == '@');
	assert_true(line[2] != '@' && line[2] != ' ');
}

static void event_list_counts_by_kind_and_phase(void **state)
{
	struct event_list l = { 0 };
	struct event_record r = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		r.kind = i % 2 ? FSPROF_EV_JBD2_COMMIT : FSPROF_EV_BLK_SLOW_IO;
		r.phase = i < 600 ? 1 : 2;
		r.v[0] = i;
		assert_int_equal(event_list_add(&l, &r), 0);
	}
	assert_int_equal(l.n, 1000);
	assert_int_equal(l.v[999].v[0], 999);
	assert_int_equal(event_list_count(&l, -1, -1), 1000);
	assert_int_equal(event_list_count(&l, FSPROF_EV_JBD2_COMMIT, -1), 500);
	assert_int_equal(event_list_count(&l, FSPROF_EV_JBD2_COMMIT, 1), 300);
	assert_int_equal(event_list_count(&l, -1, 2), 400);
	assert_int_equal(event_list_count(&l, FSPROF_EV_WB_WORK, -1), 0);
	event_list_free(&l);
}

static void event_list_full_counts_what_it_did_not_keep(void **state)
{
	struct event_list l = { 0 };
	struct event_record r = { 0 };

	(void)state;
	l.n = EVENT_LIST_MAX; /* pretend full, nothing allocated */
	assert_int_equal(event_list_add(&l, &r), 0);
	assert_int_equal(event_list_add(&l, &r), 0);
	assert_int_equal(l.n, EVENT_LIST_MAX);
	assert_int_equal(l.not_stored, 2);
}

static void every_event_kind_is_named(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < FSPROF_EV_NR; k++) {
		const struct event_kind_info *info = event_kind_info(k);

		assert_non_null(info);
		assert_non_null(info->domain);
		assert_non_null(info->values[0]);
	}
	assert_null(event_kind_info(FSPROF_EV_NR));
	assert_string_equal(event_kind_info(FSPROF_EV_JBD2_COMMIT)->values[1],
			    "commit_ns");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_add_creates_then_adds_bin_by_bin),
		cmocka_unit_test(series_grows_when_a_longer_one_is_added),
		cmocka_unit_test(many_series_keep_their_own_bins),
		cmocka_unit_test(peak_is_the_first_of_equal_bins),
		cmocka_unit_test(columns_sum_the_bins_they_cover),
		cmocka_unit_test(sparkline_shows_zero_blank_and_peak_highest),
		cmocka_unit_test(event_list_counts_by_kind_and_phase),
		cmocka_unit_test(event_list_full_counts_what_it_did_not_keep),
		cmocka_unit_test(every_event_kind_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
