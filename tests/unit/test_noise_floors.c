// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff's noise floors (compare/noise_floors.c): the file's parser on
 * good and bad text, the lookup (the first matching row wins), --noise
 * overriding every row, and the embedded data/noise-floors.tsv itself.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "diff_fixture.h"
#include "tsv_refused.h"
#include "compare/diff_int.h"
#include "compare/diff_stats.h"

static const char three_rows[] = "# comment\n"
				 "\n"
				 "ext4.*_ns\t9%\ttimes of ext4\n"
				 "ext4.*\t0.5%\text4 counts\n"
				 "*\t2%\tthe rest\n";

static void rows_parse_with_their_floors_and_derivations(void **state)
{
	struct noise_floors nf;
	char err[160];

	(void)state;
	assert_int_equal(noise_floors_parse(three_rows, &nf, err, sizeof(err)),
			 0);
	assert_int_equal(nf.n, 3);
	assert_string_equal(nf.rows[1].glob, "ext4.*");
	assert_true(fabs(nf.rows[1].floor - 0.005) < 1e-12);
	assert_string_equal(nf.rows[1].how, "ext4 counts");
	noise_floors_free(&nf);
}

static void the_first_matching_row_wins(void **state)
{
	struct noise_floors nf;
	char err[160];

	(void)state;
	assert_int_equal(noise_floors_parse(three_rows, &nf, err, sizeof(err)),
			 0);
	/* matches rows 1 and 2: the first */
	assert_string_equal(noise_floors_lookup(&nf, "ext4.fsync_ns")->glob,
			    "ext4.*_ns");
	assert_string_equal(noise_floors_lookup(&nf, "ext4.fsyncs")->glob,
			    "ext4.*");
	assert_string_equal(noise_floors_lookup(&nf, "wall_ns")->glob, "*");
	noise_floors_free(&nf);
}

/* text that must be refused, and a word its error must contain */
static void refused(const char *text, const char *why)
{
	assert_tsv_refused(noise_floors_parse, struct noise_floors, text, why);
}

static void bad_rows_are_refused_naming_the_line(void **state)
{
	(void)state;
	refused("*\n", "line 1: no tab");
	refused("# c\n*\t2%\n", "line 2: one tab");
	refused("*\t2\thow\n", "not a percentage");
	refused("*\tabc%\thow\n", "not a percentage");
	refused("*\t200%\thow\n", "not a percentage");
	refused("*\t-1%\thow\n", "not a percentage");
	refused("*\t2%\t\n", "derived is empty");
	refused("*\t2%\thow\textra\n", "more than 3");
	refused("\t2%\thow\n", "glob is empty");
	refused("a*\t2%\thow\n", "last row is not '*'");
	refused("# only a comment\n", "last row is not '*'");
}

static void noise_overrides_every_floor(void **state)
{
	const struct noise_floors *nf = noise_floors_builtin();
	struct diff_options o;
	unsigned int i;

	(void)state;
	assert_non_null(nf);
	diff_options_default(&o);
	assert_true(o.noise_floor == DIFF_NOISE_PER_METRIC);
	for (i = 0; i < nf->n; i++) {
		/* a name the row's glob matches: the glob with * as "x" */
		char name[64], *s;

		snprintf(name, sizeof(name), "%s", nf->rows[i].glob);
		while ((s = strchr(name, '*')))
			*s = 'x';
		o.noise_floor = DIFF_NOISE_PER_METRIC;
		assert_true(diff_noise_floor(name, &o, nf) ==
			    noise_floors_lookup(nf, name)->floor);
		o.noise_floor = 0.07;
		assert_true(diff_noise_floor(name, &o, nf) == 0.07);
		o.noise_floor = 0;
		assert_true(diff_noise_floor(name, &o, nf) == 0);
	}
}

/* the embedded file: measured rows, kinds apart, counts before "*" */
static void the_built_in_file_is_derived_rows_ending_in_star(void **state)
{
	const struct noise_floors *nf = noise_floors_builtin();
	unsigned int i;

	(void)state;
	assert_non_null(nf);
	assert_true(nf->n >= 3);
	assert_string_equal(nf->rows[nf->n - 1].glob, "*");
	for (i = 0; i < nf->n; i++) {
		assert_true(nf->rows[i].floor > 0 && nf->rows[i].floor < 1);
		if (!strstr(nf->rows[i].how, "A/A"))
			fail_msg("row %s: '%s' is not an A/A derivation",
				 nf->rows[i].glob, nf->rows[i].how);
	}
	/* times, rates and the kernel's counts are separate kinds */
	assert_ptr_not_equal(noise_floors_lookup(nf, "wall_ns"),
			     noise_floors_lookup(nf, "block.ios"));
	assert_ptr_not_equal(noise_floors_lookup(nf, "mb_per_s"),
			     noise_floors_lookup(nf, "block.ios"));
	assert_ptr_equal(noise_floors_lookup(nf, "block.ios"),
			 &nf->rows[nf->n - 1]);
}

static void each_metric_is_judged_by_its_floor_or_the_noise_option(void **state)
{
	static const double wa[] = { 1.0, 1.01, 1.02, 1.0, 1.01 },
			    wb[] = { 1.5, 1.515, 1.53, 1.5, 1.515 };
	const struct noise_floors *nf = noise_floors_builtin();
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;
	unsigned int i;

	(void)state;
	/* 5 repeats a side: 1.0 s against 1.5 s, commits 100 vs 400 */
	fx_diff_run(&a, "ext4", wa, 5, 100);
	fx_diff_run(&b, "ext4", wb, 5, 400);
	diff_options_default(&o);
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	for (i = 0; i < d.pairs[0].phases[0].n_metrics; i++) {
		const struct diff_metric *m = &d.pairs[0].phases[0].metrics[i];

		assert_true(m->noise_floor ==
			    noise_floors_lookup(nf, m->name)->floor);
	}
	diff_free(&d);
	/* --noise 80%: x1.5 and x4 are both within it, no verdict */
	o.noise_floor = 0.8;
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	assert_int_equal(d.n_changed, 0);
	for (i = 0; i < d.pairs[0].phases[0].n_metrics; i++)
		assert_true(d.pairs[0].phases[0].metrics[i].noise_floor == 0.8);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_parse_with_their_floors_and_derivations),
		cmocka_unit_test(the_first_matching_row_wins),
		cmocka_unit_test(bad_rows_are_refused_naming_the_line),
		cmocka_unit_test(noise_overrides_every_floor),
		cmocka_unit_test(
			the_built_in_file_is_derived_rows_ending_in_star),
		cmocka_unit_test(
			each_metric_is_judged_by_its_floor_or_the_noise_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
