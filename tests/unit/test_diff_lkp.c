// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff --format lkp: lkp-tests' criterion (compare/diff_lkp.c) on
 * samples whose answer is known, and the lines in lkp's layout
 * (report/diff_lkp.c): lkp's widths and number formats, our columns, the
 * KPIs first.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare/diff_int.h"
#include "diff_fixture.h"
#include "report/diff_report.h"

/* where the name starts: 44 of lkp's columns, 2 + 13 + 12 + 8 + 1 of ours */
#define NAME_AT 80

/* a metric of n samples a side, its sides summarised as diff_build does */
static void metric_of(struct diff_metric *m, const double *a, const double *b,
		      unsigned int n, bool kpi)
{
	double va[64], vb[64], sa = 0, sb = 0, qa = 0, qb = 0;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->headline = kpi;
	for (i = 0; i < n; i++) {
		va[i] = a[i];
		vb[i] = b[i];
		sa += a[i];
		sb += b[i];
	}
	m->a.n = m->b.n = n;
	m->a.mean = sa / n;
	m->b.mean = sb / n;
	for (i = 0; i < n; i++) {
		qa += (a[i] - m->a.mean) * (a[i] - m->a.mean);
		qb += (b[i] - m->b.mean) * (b[i] - m->b.mean);
	}
	m->a.sd = n > 1 ? sqrt(qa / (n - 1)) : 0;
	m->b.sd = n > 1 ? sqrt(qb / (n - 1)) : 0;
	diff_lkp_side(va, n, &m->a.lkp);
	diff_lkp_side(vb, n, &m->b.lkp);
	diff_lkp_judge(m);
}

static void ranges_apart_are_a_change_ranges_overlapping_are_not(void **state)
{
	static const double a[] = { 100, 102, 101 }, b[] = { 110, 111, 112 },
			    mix[] = { 100, 111, 101 };
	struct diff_metric m;

	(void)state;
	metric_of(&m, a, b, 3, false);
	assert_true(m.lkp.enough && m.lkp.separated && m.lkp.changed);
	assert_true(fabs(m.lkp.ratio - 111.0 / 101) < 1e-12);
	metric_of(&m, b, a, 3, false); /* the mirror */
	assert_true(m.lkp.separated && m.lkp.changed);
	/* B's min (100) is not above A's middle (101) */
	metric_of(&m, a, mix, 3, false);
	assert_false(m.lkp.separated);
	assert_false(m.lkp.changed);
}

static void a_kpi_needs_1_percent_another_5(void **state)
{
	static const double a[] = { 100, 100, 100 }, b[] = { 103, 103, 103 };
	struct diff_metric m;

	(void)state;
	metric_of(&m, a, b, 3, true);
	assert_true(m.lkp.min_ratio == 1.01);
	assert_true(m.lkp.changed);
	metric_of(&m, a, b, 3, false);
	assert_true(m.lkp.min_ratio == 1.05);
	assert_true(m.lkp.separated);
	assert_false(m.lkp.changed);
}

static void two_samples_a_side_are_too_few(void **state)
{
	static const double a[] = { 100, 100 }, b[] = { 200, 200 };
	struct diff_metric m;

	(void)state;
	metric_of(&m, a, b, 2, true);
	assert_true(m.lkp.separated);
	assert_false(m.lkp.enough);
	assert_false(m.lkp.changed);
	assert_string_equal(diff_lkp_criterion(&m), "<3");
}

/* 32 samples: one cut from each end, so one outlier does not join them */
static void one_sample_in_32_is_cut_from_each_end(void **state)
{
	double a[32], b[32];
	struct diff_metric m;
	unsigned int i;

	(void)state;
	for (i = 0; i < 32; i++) {
		a[i] = 100 + i % 3;
		b[i] = 120 + i % 3;
	}
	a[5] = 500; /* above all of B: the ranges would overlap */
	metric_of(&m, a, b, 32, false);
	assert_true(m.a.lkp.max == 102);
	assert_true(m.a.lkp.mid == 101);
	assert_true(m.lkp.changed);
	metric_of(&m, a, b, 31, false); /* 31 >> 5 is 0: nothing cut */
	assert_true(m.a.lkp.max == 500);
	assert_false(m.lkp.changed);
}

static void lines_have_lkps_widths_and_formats(void **state)
{
	static const struct {
		double a, a_sd, b, b_sd;
		const char *want;
	} cases[] = {
		{ 9.83, 1.4, 16.68, 4.9,
		  "      9.83 ± 14%     +69.7%      16.68 ± 29%" },
		{ 4212654.9, 42000, 3886721, 200000,
		  "   4212654            -7.7%    3886721 ±  5%" },
		{ 2.028e8, 2.9e7, 1.244e8, 3.3e7,
		  " 2.028e+08 ± 14%     -38.7%  1.244e+08 ± 26%" },
		{ 0, 0, 1288, 51.5,
		  "      0.00       +1.3e+105%       1288 ±  3%" },
	};
	char line[512];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diff_metric m = { 0 };

		m.a.mean = cases[i].a;
		m.a.sd = cases[i].a_sd;
		m.b.mean = cases[i].b;
		m.b.sd = cases[i].b_sd;
		m.verdict = DIFF_INCONCLUSIVE;
		diff_lkp_line(&m, "cycles.x", line, sizeof(line));
		if (strncmp(line, cases[i].want, strlen(cases[i].want)))
			fail_msg("case %u: '%s', not '%s'", i, line,
				 cases[i].want);
	}
}

static void our_columns_then_the_name_at_one_place(void **state)
{
	static const struct {
		enum diff_verdict v;
		bool enough, changed;
		const char *cols;
	} cases[] = {
		{ DIFF_WORSE, true, true,
		  "changed      regression  changed  " },
		{ DIFF_BETTER, true, false,
		  "changed      improvement -        " },
		{ DIFF_HIGHER, true, true,
		  "changed      higher      changed  " },
		{ DIFF_SAME, true, false,
		  "same         -           -        " },
		{ DIFF_INCONCLUSIVE, false, false,
		  "inconclusive -           <3       " },
		{ DIFF_INCONCLUSIVE, true, true,
		  "emulated     -           changed  " },
	};
	char line[512];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diff_metric m = { 0 };
		const char *cols;

		m.a.mean = m.b.mean = 1;
		m.verdict = cases[i].v;
		m.lkp.enough = cases[i].enough;
		m.lkp.changed = cases[i].changed;
		m.emulated_time = i == sizeof(cases) / sizeof(cases[0]) - 1;
		diff_lkp_line(&m, "create.wall_ns", line, sizeof(line));
		assert_true(strlen(line) > NAME_AT);
		/* "±" is two bytes: none here, the sds are 0 */
		assert_string_equal(line + NAME_AT, "create.wall_ns");
		cols = line + NAME_AT - strlen(cases[i].cols);
		if (strncmp(cols, cases[i].cols, strlen(cases[i].cols)))
			fail_msg("case %u: '%s'", i, line);
	}
}

/* a whole report: the header, the KPI (wall time) before the counts */
static void the_report_puts_kpis_first(void **state)
{
	static const double wa[] = { 1.0, 1.01, 1.02, 1.0, 1.01 },
			    wb[] = { 1.5, 1.515, 1.53, 1.5, 1.515 };
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;
	char *text = NULL, *wall, *commits;
	size_t len = 0;
	FILE *out;

	(void)state;
	fx_diff_run(&a, "ext4", wa, 5, 100);
	fx_diff_run(&b, "ext4", wb, 5, 400);
	diff_options_default(&o);
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	snprintf(d.a_name, sizeof(d.a_name), "a.json");
	snprintf(d.b_name, sizeof(d.b_name), "b.json");
	out = open_memstream(&text, &len);
	assert_non_null(out);
	diff_report_lkp(&d, false, out);
	fclose(out);
	assert_non_null(strstr(text, "run:\n  a.json (5 repeats)\n"));
	assert_non_null(strstr(text, "%stddev     %change         %stddev"));
	wall = strstr(text, "  create.wall_ns\n");
	commits = strstr(text, "  create.jbd2.commits\n");
	assert_non_null(wall);
	assert_non_null(commits);
	assert_true(wall < commits);
	/* x1.5 slower: a regression to both criteria */
	assert_non_null(strstr(wall - 35, "regression  changed  "));
	free(text);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			ranges_apart_are_a_change_ranges_overlapping_are_not),
		cmocka_unit_test(a_kpi_needs_1_percent_another_5),
		cmocka_unit_test(two_samples_a_side_are_too_few),
		cmocka_unit_test(one_sample_in_32_is_cut_from_each_end),
		cmocka_unit_test(lines_have_lkps_widths_and_formats),
		cmocka_unit_test(our_columns_then_the_name_at_one_place),
		cmocka_unit_test(the_report_puts_kpis_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
