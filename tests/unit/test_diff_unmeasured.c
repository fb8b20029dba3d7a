// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff on a ratio one side could not form (compare/diff_build.c):
 * delalloc's extents per flush on a side that flushed nothing (nodelalloc)
 * is not 0 there but absent. The diff shows it as such in every format,
 * gives it no verdict and keeps it out of the family the false discovery
 * rate is held over; a ratio of a domain the other side never measured
 * (ext4's, against xfs) is left out like any metric of that domain. So
 * is a percentile of a histogram one side never filled.
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

#include "diff_fixture.h"
#include "report/diff_report.h"

#define RATIO "per_op.ext4.da_extents_per_flush"
#define REPEATS 3

/*
 * REPEATS repeats of a phase on fstype: on ext4 its allocations and
 * delalloc flushes (0 as nodelalloc leaves them), on xfs its log writes
 * and no ext4 count at all
 */
static void side_run(struct run_result *run, const char *fstype,
		     uint64_t flushes)
{
	unsigned int i;

	memset(run, 0, sizeof(*run));
	for (i = 0; i < REPEATS; i++) {
		struct case_result *c = fx_case(run, fstype, "ext4", 1);
		struct phase_result *p = fx_phase(c, "create", 1.0 + 0.01 * i);
		struct metric_set *m = &p->metrics;

		c->repeat = i + 1;
		if (!strcmp(fstype, "xfs")) {
			metric_add(m, "xfs.log_writes", 50);
			continue;
		}
		metric_add(m, "ext4.alloc_requests", 100 + i);
		metric_add(m, "ext4.mballoc_groups_scanned", 100);
		metric_add(m, "ext4.da_flush_extents", flushes);
		metric_add(m, "ext4.da_flushes", flushes);
	}
}

static void build(const struct run_result *a, const struct run_result *b,
		  struct diff_result *d)
{
	struct diff_options opt;

	diff_options_default(&opt);
	opt.allow_mismatch = true;
	assert_int_equal(diff_build(a, b, &opt, d), 0);
}

static unsigned int phase_metrics_total(const struct diff_result *d)
{
	return d->pairs[0].phases[0].n_metrics;
}

static void a_ratio_without_its_denominator_is_unmeasured(void **state)
{
	struct run_result a, b;
	struct diff_result d;
	const struct diff_metric *m;
	unsigned int i, tested = 0;

	(void)state;
	side_run(&a, "ext4", 10);
	side_run(&b, "ext4", 0);
	build(&a, &b, &d);
	m = fx_diff_metric(&d, RATIO);
	assert_non_null(m);
	assert_int_equal(m->verdict, DIFF_UNMEASURED);
	assert_int_equal(m->a.n, REPEATS);
	assert_true(fabs(m->a.mean - 1) < 1e-12);
	assert_int_equal(m->b.n, 0);
	assert_true(isnan(m->b.mean)); /* absent, not 0 */
	assert_true(isnan(m->diff) && isnan(m->ratio));
	assert_true(isnan(m->p) && isnan(m->q));
	assert_false(m->has_ci);
	assert_non_null(strstr(m->note, "not measured in B"));
	assert_int_equal(d.n_unmeasured, 1);
	/* not judged: every other metric is, and the family is the rest */
	assert_int_equal(d.n_changed + d.n_same + d.n_inconclusive + 1,
			 phase_metrics_total(&d));
	for (i = 0; i < phase_metrics_total(&d); i++)
		tested += !isnan(d.pairs[0].phases[0].metrics[i].p);
	assert_int_equal(d.n_tests, tested);
	assert_true(d.n_tests < phase_metrics_total(&d));
	/* the counts of 0 still read 0: they were measured */
	m = fx_diff_metric(&d, "ext4.da_flushes");
	assert_non_null(m);
	assert_int_equal(m->b.n, REPEATS);
	assert_true(m->b.mean == 0);
	diff_free(&d);
	/* and the mirror: A without it */
	build(&b, &a, &d);
	m = fx_diff_metric(&d, RATIO);
	assert_non_null(m);
	assert_int_equal(m->verdict, DIFF_UNMEASURED);
	assert_non_null(strstr(m->note, "not measured in A"));
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

static void a_ratio_of_a_domain_the_other_side_lacks_is_left_out(void **state)
{
	struct run_result a, b;
	struct diff_result d;

	(void)state;
	side_run(&a, "ext4", 10);
	side_run(&b, "xfs", 0);
	build(&a, &b, &d);
	assert_null(fx_diff_metric(&d, RATIO));
	assert_null(fx_diff_metric(&d, "per_op.ext4.groups_scanned_per_alloc"));
	assert_int_equal(d.n_unmeasured, 0);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

/*
 * A percentile of a histogram one side never filled (its fsyncs absent
 * there, the op domain measured): absent, not 0 ns, and not judged
 */
static void a_percentile_of_no_samples_is_unmeasured(void **state)
{
	struct run_result a, b;
	struct diff_result d;
	const struct diff_metric *m;
	unsigned int i, side;

	(void)state;
	for (side = 0; side < 2; side++) {
		struct run_result *run = side ? &b : &a;

		memset(run, 0, sizeof(*run));
		for (i = 0; i < REPEATS; i++) {
			struct case_result *c = fx_case(run, "ext4", "ext4", 1);
			struct phase_result *p = fx_phase(c, "cycles", 1.0);

			c->repeat = i + 1;
			latency_hist_record(metric_hist(&p->metrics,
							"op.write_ns"),
					    2000 + 10 * i);
			/* A fsyncs, B's histogram of fsyncs stays empty */
			if (!side)
				latency_hist_record(
					metric_hist(&p->metrics,
						    "op.fsync_ns"),
					5000000 + 1000 * i);
			else
				metric_hist(&p->metrics, "op.fsync_ns");
		}
	}
	build(&a, &b, &d);
	m = fx_diff_metric(&d, "op.fsync_ns.p99");
	assert_non_null(m);
	assert_int_equal(m->verdict, DIFF_UNMEASURED);
	assert_int_equal(m->b.n, 0);
	assert_true(isnan(m->b.mean));
	m = fx_diff_metric(&d, "op.write_ns.p50");
	assert_non_null(m);
	assert_int_equal(m->b.n, REPEATS);
	assert_int_not_equal(m->verdict, DIFF_UNMEASURED);
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

/* the diff in one format as text */
static char *rendered(const struct diff_result *d, const char *format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	if (!strcmp(format, "text"))
		diff_report_text(d, true, out);
	else if (!strcmp(format, "lkp"))
		diff_report_lkp(d, true, out);
	else if (!strcmp(format, "csv"))
		diff_report_csv(d, out);
	else
		assert_int_equal(diff_report_json(d, out), 0);
	fclose(out);
	return text;
}

/* the line of text that holds what */
static char *line_of(char *text, const char *what)
{
	char *at = strstr(text, what), *start, *end;

	assert_non_null(at);
	for (start = at; start > text && start[-1] != '\n'; start--)
		;
	end = strchr(at, '\n');
	if (end)
		*end = '\0';
	return start;
}

static void every_format_shows_it_absent(void **state)
{
	struct run_result a, b;
	struct diff_result d;
	char *text, *line;

	(void)state;
	side_run(&a, "ext4", 10);
	side_run(&b, "ext4", 0);
	build(&a, &b, &d);

	text = rendered(&d, "text");
	assert_null(strstr(text, "nan"));
	assert_non_null(strstr(text, "1 value(s) not measured on one side"));
	line = line_of(text, "da_extents_per_flush");
	assert_non_null(strstr(line, "1 -> -"));
	assert_non_null(strstr(line, "unmeasured"));
	free(text);

	text = rendered(&d, "lkp");
	assert_null(strstr(text, "nan"));
	line = line_of(text, RATIO);
	assert_non_null(strstr(line, "unmeasured"));
	assert_null(strstr(line, "changed"));
	assert_null(strstr(line, "0.00")); /* B's side is "-", not 0 */
	free(text);

	text = rendered(&d, "csv");
	assert_null(strstr(text, "nan"));
	line = line_of(text, RATIO);
	/* n_b 0, mean_b and sd_b empty; diff to q empty; no noise floor */
	assert_non_null(strstr(line, ",0,,,,,,,,,unmeasured,"));
	free(text);

	text = rendered(&d, "json");
	assert_null(strstr(text, "nan"));
	assert_non_null(strstr(text, "\"unmeasured\": 1"));
	assert_non_null(strstr(text, "\"verdict\": \"unmeasured\""));
	free(text);

	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_ratio_without_its_denominator_is_unmeasured),
		cmocka_unit_test(
			a_ratio_of_a_domain_the_other_side_lacks_is_left_out),
		cmocka_unit_test(a_percentile_of_no_samples_is_unmeasured),
		cmocka_unit_test(every_format_shows_it_absent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
