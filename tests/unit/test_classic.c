// SPDX-License-Identifier: GPL-2.0
/*
 * The originals beside ours: data/classic.tsv's parser (the embedded file
 * and bad rows), and the comparison of a run's ratios with the originals'
 * on constructed runs (agrees, differs with what differs, no interval,
 * not run, shown only for the suite or a complete pair).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/classic_table.h"
#include "analyze_fixture.h"

static const struct classic_experiment *table_find(const struct classic_list *l,
						   const char *workload)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].workload, workload))
			return &l->v[i];
	fail_msg("no experiment %s", workload);
	abort();
}

static const struct classic_ratio *
ratio_find(const struct classic_experiment *e, const char *label)
{
	unsigned int i;

	for (i = 0; i < e->n_ratios; i++)
		if (!strcmp(e->ratios[i].label, label))
			return &e->ratios[i];
	fail_msg("no ratio %s", label);
	abort();
}

static void the_built_in_table_has_the_five_experiments(void **state)
{
	const struct classic_experiment *e;
	const struct classic_ratio *r;
	struct classic_list l;
	char err[256] = "";

	(void)state;
	assert_int_equal(classic_table_parse(classic_tsv, &l, err, sizeof(err)),
			 0);
	assert_int_equal(l.n, 5);
	/* files1m's rm: 7.5-8.6 s against 0.32-0.39 s, three runs each */
	e = table_find(&l, "files1m");
	assert_non_null(e);
	assert_non_null(strstr(e->source, "2008"));
	r = ratio_find(e, "ext4/ext3 rm -fr time");
	assert_non_null(r);
	assert_string_equal(r->phase, "remove");
	assert_int_equal(r->metric, CLASSIC_WALL_S);
	assert_true(fabs(r->orig.lo - 0.32 / 8.6) < 1e-12);
	assert_true(fabs(r->orig.hi - 0.39 / 7.5) < 1e-12);
	assert_false(r->orig.approx);
	/* untar: phases added, the logbsize target in either spelling */
	e = table_find(&l, "untar");
	r = ratio_find(e, "logbsize=256k/default rm -rf+sync time");
	assert_non_null(r);
	assert_string_equal(r->phase, "remove+rm-sync");
	assert_true(r->orig.approx); /* the original said "about 8 s" */
	assert_true(fabs(r->orig.lo - 8 / 29.0) < 1e-12);
	assert_non_null(strstr(r->num, "logbsize=262144"));
	/* afd in files/s; bonnie named, but no figure made up */
	assert_non_null(ratio_find(table_find(&l, "afd"), "ext4/ext3 files/s"));
	e = table_find(&l, "bonnie");
	assert_non_null(e);
	assert_int_equal(e->n_figures, 0);
	assert_int_equal(e->n_ratios, 0);
	assert_non_null(strstr(e->source, "does not record its table"));
	/* what each original ran on: --suite classic's targets */
	assert_string_equal(e->targets, "ext3,ext4");
	assert_string_equal(table_find(&l, "untar")->targets,
			    "ext4,xfs,xfs:mount=logbsize=256k");
	classic_list_free(&l);
}

static void bad_rows_are_refused_naming_the_line(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "wibble\tx\n", "line 1: a row is experiment" },
		{ "figure\tw\tp\twall_s\text4\t1\ts\n", "no experiment row" },
		{ "experiment\tw\tsrc\n", "wrong number" },
		{ "experiment\tw\tsrc\tcond\nexperiment\tw\ts\tc\n",
		  "line 2: the experiment is given twice" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\tp\twall_s\text4\t1\tMB/s\n",
		  "the unit is not the metric's" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\tp\tiops\text4\t1\ts\n",
		  "the metric is not" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\tp\twall_s\text4\t8.6-7.5\ts\n",
		  "LO <= HI" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\tp\twall_s\text4\t-1\ts\n",
		  "not N, ~N" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\ta+b\tmb_per_s\text4\t1\tMB/s\n",
		  "only for wall_s" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\tp\twall_s\text4\t1\ts\n"
		  "ratio\tw\tp\twall_s\text4\text3\tx\n",
		  "line 3: a ratio of figures not given above it" },
		{ "experiment\tw\tsrc\tcond\nfigure\tw\tp\twall_s\text4\t1\ts\n"
		  "figure\tw\tp\twall_s\text3\t0\ts\n"
		  "ratio\tw\tp\twall_s\text4\text3\tx\n",
		  "over a figure of 0" },
		{ "# only a comment\n", "no experiment rows" },
		{ "experiment\tw\tsrc\tcond\n",
		  "experiment w has no targets row" },
		{ "targets\tw\text4\n", "line 1: no experiment row" },
		{ "experiment\tw\tsrc\tcond\ntargets\tw\n", "targets: 3" },
		{ "experiment\tw\tsrc\tcond\ntargets\tw\text4\n"
		  "targets\tw\text3\n",
		  "line 3: the experiment's targets are given twice" },
	};
	struct classic_list l;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(classic_table_parse(bad[i].text, &l, err,
						     sizeof(err)),
				 -EINVAL);
		if (!strstr(err, bad[i].says))
			fail_msg("row %zu: '%s' does not say '%s'", i, err,
				 bad[i].says);
		assert_int_equal(l.n, 0);
	}
}

/* a files1m case on target fs whose remove took remove_s */
static struct case_result *files1m_case(struct run_result *run, const char *fs,
					double remove_s, unsigned int repeat)
{
	struct case_result *c = fx_case(run, fs, fs, 3);

	snprintf(c->workload, sizeof(c->workload), "files1m");
	c->repeat = repeat;
	fx_phase(c, "create", 5.0);
	fx_phase(c, "read", 2.0);
	fx_phase(c, "remove", remove_s);
	c->phases[2].work.files = 1000;
	return c;
}

static const struct classic_ratio *run_ratio(const struct run_result *run,
					     const char *label)
{
	if (!run->classic.n)
		fail_msg("no classic experiment in the run");
	assert_string_equal(run->classic.v[0].workload, "files1m");
	return ratio_find(&run->classic.v[0], label);
}

static void a_shape_within_our_interval_agrees(void **state)
{
	static const double ext3[] = { 8.0, 8.3, 7.8 },
			    ext4[] = { 0.35, 0.37, 0.34 };
	const struct classic_ratio *r;
	struct run_result run = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		files1m_case(&run, "ext3", ext3[i], i + 1);
		files1m_case(&run, "ext4", ext4[i], i + 1);
	}
	assert_int_equal(analyze_run(&run), 0);
	r = run_ratio(&run, "ext4/ext3 rm -fr time");
	assert_int_equal(r->verdict, CLASSIC_AGREES);
	assert_int_equal(r->n_num, 3);
	assert_int_equal(r->n_den, 3);
	assert_true(r->has_ci);
	/* the geometric means' ratio, inside its interval */
	assert_true(fabs(r->ours - cbrt(0.35 * 0.37 * 0.34) /
					   cbrt(8.0 * 8.3 * 7.8)) < 1e-9);
	assert_true(r->ci_lo < r->ours && r->ours < r->ci_hi);
	assert_int_equal(r->why.n, 0);
	/* ours beside each figure: ext3's remove mean of three */
	assert_string_equal(run.classic.v[0].figures[4].phase, "remove");
	assert_string_equal(run.classic.v[0].figures[4].target, "ext3");
	assert_int_equal(run.classic.v[0].figures[4].ours.n, 3);
	assert_true(fabs(run.classic.v[0].figures[4].ours.mean -
			 (8.0 + 8.3 + 7.8) / 3) < 1e-9);
	run_result_free(&run);
}

static void an_interval_too_wide_to_tell_is_inconclusive(void **state)
{
	static const double ext4[] = { 0.1, 0.4, 1.6 };
	const struct classic_ratio *r;
	struct run_result run = { 0 };
	unsigned int i;

	(void)state;
	/* a geometric mean of 0.4 s against 8 s: 0.05, inside 0.037-0.052 */
	for (i = 0; i < 3; i++) {
		files1m_case(&run, "ext3", 8.0, i + 1);
		files1m_case(&run, "ext4", ext4[i], i + 1);
	}
	assert_int_equal(analyze_run(&run), 0);
	r = run_ratio(&run, "ext4/ext3 rm -fr time");
	assert_true(r->ci_lo <= r->orig.hi && r->ci_hi >= r->orig.lo);
	assert_true(r->ci_hi > CLASSIC_CI_SPAN_MAX * r->ci_lo);
	assert_int_equal(r->verdict, CLASSIC_INCONCLUSIVE);
	assert_non_null(strstr(r->note, "more repeats"));
	run_result_free(&run);
}

static void a_shape_our_interval_excludes_differs_and_says_why(void **state)
{
	const struct classic_ratio *r;
	struct run_result run = { 0 };
	unsigned int i;

	(void)state;
	/* ext3's remove 2.0 s: reads a metadata block per file, ext4 1.0 s */
	for (i = 0; i < 3; i++) {
		struct case_result *a =
			files1m_case(&run, "ext3", 2.0 + 0.01 * i, i + 1);
		struct case_result *b =
			files1m_case(&run, "ext4", 1.0 + 0.01 * i, i + 1);

		fx_io(&a->phases[2], BLK_IOC_META_READ, BLK_ISS_WORKLOAD, 1000,
		      4096000, 0.8);
		fx_io(&b->phases[2], BLK_IOC_META_READ, BLK_ISS_WORKLOAD, 10,
		      40960, 0.02);
	}
	assert_int_equal(analyze_run(&run), 0);
	r = run_ratio(&run, "ext4/ext3 rm -fr time");
	assert_int_equal(r->verdict, CLASSIC_DIFFERS);
	assert_true(r->ci_lo > r->orig.hi); /* ~0.5 against 0.04-0.05 */
	assert_true(r->why.n >= 3);
	/* the two targets compared alone: the resource that grew, counted */
	assert_non_null(strstr(r->why.line[0], "remove: ext3 takes 2.0x"));
	for (i = 0; i < r->why.n; i++)
		if (strstr(r->why.line[i], "meta_read requests per 1000 files"))
			break;
	assert_true(i < r->why.n);
	/* each side's requests per file: ext3 1.00 metadata reads */
	for (i = 0; i < r->why.n; i++)
		if (strstr(r->why.line[i],
			   "ext3 remove (first run; cache warm") &&
		    strstr(r->why.line[i], "meta_read 1.00") &&
		    strstr(r->why.line[i],
			   "most device time: meta_read, 5.00 ms a request"))
			break;
	assert_true(i < r->why.n);
	for (i = 0; i < r->why.n; i++)
		assert_null(strstr(r->why.line[i], "not explained"));
	run_result_free(&run);
}

static void a_difference_no_resource_explains_is_not_explained(void **state)
{
	const struct classic_ratio *r;
	struct run_result run = { 0 };
	unsigned int i;

	(void)state;
	/* as long on both: the original's 20x gap is absent, no cause */
	for (i = 0; i < 3; i++) {
		files1m_case(&run, "ext3", 1.0 + 0.01 * i, i + 1);
		files1m_case(&run, "ext4", 1.0 + 0.02 * i, i + 1);
	}
	assert_int_equal(analyze_run(&run), 0);
	r = run_ratio(&run, "ext4/ext3 rm -fr time");
	assert_int_equal(r->verdict, CLASSIC_DIFFERS);
	assert_true(r->why.n >= 1);
	assert_non_null(strstr(r->why.line[0], "not explained"));
	assert_non_null(strstr(r->why.line[0], "beyond the noise"));
	run_result_free(&run);
}

static void one_run_or_one_target_is_no_verdict(void **state)
{
	const struct classic_ratio *r;
	struct run_result run = { 0 };

	(void)state;
	files1m_case(&run, "ext3", 8.0, 1);
	files1m_case(&run, "ext4", 0.3, 1);
	assert_int_equal(analyze_run(&run), 0);
	r = run_ratio(&run, "ext4/ext3 rm -fr time");
	assert_int_equal(r->verdict, CLASSIC_NO_INTERVAL);
	assert_false(r->has_ci);
	assert_true(fabs(r->ours - 0.3 / 8.0) < 1e-9);
	assert_non_null(strstr(r->note, "--repeat"));
	run_result_free(&run);

	/* ext4 alone: nothing to set beside the original, unless the suite */
	memset(&run, 0, sizeof(run));
	files1m_case(&run, "ext4", 0.3, 1);
	assert_int_equal(analyze_run(&run), 0);
	assert_int_equal(run.classic.n, 0);
	snprintf(run.suite, sizeof(run.suite), "classic");
	assert_int_equal(analyze_run(&run), 0);
	r = run_ratio(&run, "ext4/ext3 rm -fr time");
	assert_int_equal(r->verdict, CLASSIC_NOT_RUN);
	assert_non_null(strstr(r->note, "ext3"));
	run_result_free(&run);
}

static void a_workload_without_an_original_is_not_shown(void **state)
{
	struct run_result run = { 0 };
	struct case_result *c;

	(void)state;
	snprintf(run.suite, sizeof(run.suite), "classic");
	c = fx_case(&run, "ext4", "ext4", 1);
	fx_phase(c, "cycles", 1.0);
	snprintf(c->workload, sizeof(c->workload), "fsync");
	assert_int_equal(analyze_run(&run), 0);
	assert_int_equal(run.classic.n, 0);
	run_result_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_built_in_table_has_the_five_experiments),
		cmocka_unit_test(bad_rows_are_refused_naming_the_line),
		cmocka_unit_test(a_shape_within_our_interval_agrees),
		cmocka_unit_test(an_interval_too_wide_to_tell_is_inconclusive),
		cmocka_unit_test(
			a_shape_our_interval_excludes_differs_and_says_why),
		cmocka_unit_test(
			a_difference_no_resource_explains_is_not_explained),
		cmocka_unit_test(one_run_or_one_target_is_no_verdict),
		cmocka_unit_test(a_workload_without_an_original_is_not_shown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
