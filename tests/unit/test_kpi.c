// SPDX-License-Identifier: GPL-2.0
/*
 * KPI directions (compare/kpi.c): the file's parser on good and bad text,
 * the lookup (the first matching row wins), the embedded data/kpi.tsv
 * itself, and fsprof diff judging each metric by it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "diff_fixture.h"
#include "tsv_refused.h"
#include "compare/diff.h"
#include "compare/kpi.h"

static const char three_rows[] = "# comment\n"
				 "\n"
				 "wall_ns\tlower\tyes\tsooner is better\n"
				 "*_per_s\thigher\tyes\ta rate\n"
				 "ext4.*\tnone\tno\text4 counts\n"
				 "*\tnone\tno\tthe rest\n";

static void rows_parse_with_direction_kpi_and_reason(void **state)
{
	struct kpi_table t;
	char err[160];

	(void)state;
	assert_int_equal(kpi_parse(three_rows, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.rows[1].glob, "*_per_s");
	assert_int_equal(t.rows[1].dir, KPI_HIGHER_BETTER);
	assert_true(t.rows[1].key);
	assert_string_equal(t.rows[1].why, "a rate");
	assert_int_equal(t.rows[0].dir, KPI_LOWER_BETTER);
	assert_int_equal(t.rows[2].dir, KPI_DIR_NONE);
	assert_false(t.rows[2].key);
	assert_string_equal(kpi_dir_name(t.rows[0].dir), "lower");
	assert_string_equal(kpi_dir_name(t.rows[1].dir), "higher");
	assert_string_equal(kpi_dir_name(t.rows[2].dir), "none");
	kpi_free(&t);
}

static void the_first_matching_row_wins(void **state)
{
	struct kpi_table t;
	char err[160];

	(void)state;
	assert_int_equal(kpi_parse(three_rows, &t, err, sizeof(err)), 0);
	/* "ext4.x_per_s" matches rows 2 and 3: the first */
	assert_string_equal(kpi_lookup(&t, "ext4.x_per_s")->glob, "*_per_s");
	assert_string_equal(kpi_lookup(&t, "ext4.fsyncs")->glob, "ext4.*");
	assert_string_equal(kpi_lookup(&t, "block.ios")->glob, "*");
	kpi_free(&t);
}

/* text that must be refused, and words its error must contain */
static void refused(const char *text, const char *why)
{
	assert_tsv_refused(kpi_parse, struct kpi_table, text, why);
}

static void bad_rows_are_refused_naming_the_line(void **state)
{
	(void)state;
	refused("*\n", "line 1: a row is GLOB");
	refused("# c\n*\tlower\tyes\n", "line 2: a row is GLOB");
	refused("*\tlower\tyes\twhy\textra\n", "a row is GLOB");
	refused("*\tbetter\tyes\twhy\n", "not higher, lower or none");
	refused("*\tlower\tmaybe\twhy\n", "not yes or no");
	refused("*\tlower\tyes\t\n", "reason is empty");
	refused("\tlower\tyes\twhy\n", "glob is empty");
	refused("wall_ns\tlower\tyes\twhy\n", "last row is not '*'");
	refused("# only a comment\n", "last row is not '*'");
}

/* the headline metrics fsprof diff names, as the embedded file says */
static void the_built_in_file_directs_the_headline_metrics(void **state)
{
	static const char *const lower_kpi[] = {
		"wall_ns",	   "block.latency_p99_ns", "op.fsync_ns.p50",
		"op.fsync_ns.p99", "op.sync_ns.p99",	   NULL
	};
	static const char *const higher_kpi[] = { "mb_per_s", "mib_per_s",
						  "files_per_s", NULL };
	static const char *const none[] = { "workload.bytes",
					    "jbd2.commits",
					    "per_op.jbd2.blocks_per_commit",
					    "cpu_percent",
					    "block.ios",
					    NULL };
	unsigned int i;

	(void)state;
	assert_non_null(kpi_builtin());
	for (i = 0; lower_kpi[i]; i++) {
		assert_int_equal(kpi_direction(lower_kpi[i]), KPI_LOWER_BETTER);
		assert_true(kpi_is_key(lower_kpi[i]));
	}
	for (i = 0; higher_kpi[i]; i++) {
		assert_int_equal(kpi_direction(higher_kpi[i]),
				 KPI_HIGHER_BETTER);
		assert_true(kpi_is_key(higher_kpi[i]));
	}
	for (i = 0; none[i]; i++) {
		assert_int_equal(kpi_direction(none[i]), KPI_DIR_NONE);
		assert_false(kpi_is_key(none[i]));
	}
	/* a direction without being a KPI */
	assert_int_equal(kpi_direction("op.write_ns.p99"), KPI_LOWER_BETTER);
	assert_false(kpi_is_key("op.write_ns.p99"));
	assert_int_equal(kpi_direction("per_op.block.bytes_per_io"),
			 KPI_HIGHER_BETTER);
}

/* no row hides behind an earlier one: a name made of each glob reaches it */
static void every_built_in_row_is_reachable(void **state)
{
	const struct kpi_table *t = kpi_builtin();
	unsigned int i;

	(void)state;
	assert_non_null(t);
	assert_string_equal(t->rows[t->n - 1].glob, "*");
	for (i = 0; i < t->n; i++) {
		char name[64], *s;

		snprintf(name, sizeof(name), "%s", t->rows[i].glob);
		while ((s = strchr(name, '*')))
			*s = 'x';
		if (kpi_lookup(t, name) != &t->rows[i])
			fail_msg("row '%s' is shadowed by '%s'",
				 t->rows[i].glob, kpi_lookup(t, name)->glob);
	}
}

static void diff_judges_each_metric_by_the_file(void **state)
{
	static const double wa[] = { 1.0, 1.01, 1.02, 1.0, 1.01 },
			    wb[] = { 1.5, 1.515, 1.53, 1.5, 1.515 };
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;
	const struct diff_phase *ph;
	unsigned int i;

	(void)state;
	fx_diff_run(&a, "ext4", wa, 5, 100);
	fx_diff_run(&b, "ext4", wb, 5, 400);
	diff_options_default(&o);
	assert_int_equal(diff_build(&a, &b, &o, &d), 0);
	ph = &d.pairs[0].phases[0];
	for (i = 0; i < ph->n_metrics; i++) {
		assert_int_equal(ph->metrics[i].dir,
				 kpi_direction(ph->metrics[i].name));
		assert_int_equal(ph->metrics[i].headline,
				 kpi_is_key(ph->metrics[i].name));
	}
	/* slower is worse; more commits are only more */
	assert_int_equal(fx_diff_metric(&d, "wall_ns")->verdict, DIFF_WORSE);
	assert_true(fx_diff_metric(&d, "wall_ns")->headline);
	assert_int_equal(fx_diff_metric(&d, "jbd2.commits")->verdict,
			 DIFF_HIGHER);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_parse_with_direction_kpi_and_reason),
		cmocka_unit_test(the_first_matching_row_wins),
		cmocka_unit_test(bad_rows_are_refused_naming_the_line),
		cmocka_unit_test(
			the_built_in_file_directs_the_headline_metrics),
		cmocka_unit_test(every_built_in_row_is_reachable),
		cmocka_unit_test(diff_judges_each_metric_by_the_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
