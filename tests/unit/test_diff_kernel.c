// SPDX-License-Identifier: GPL-2.0
/*
 * Kernels in a diff (compare/diff_kernel.c) and the mechanisms per
 * operation (results/per_op.c) on constructed runs: one run split into
 * its two kernels, the kernel named as the variable, emulated times left
 * out of the tests unless --time-verdicts, and per_op ratios emitted only
 * with a denominator.
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
#include "compare/diff_int.h"
#include "results/phase_values.h"

/* a case of kernel `release` under TCG: wall_s, and jbd2 blocks/commits */
static void kernel_case(struct run_result *run, const char *release,
			double wall_s, uint64_t blocks, unsigned int repeat)
{
	struct case_result *c = fx_case(run, "ext4", "ext4", 1);
	struct phase_result *p = fx_phase(c, "create", wall_s);

	c->repeat = repeat;
	c->kernel.guest = true;
	c->kernel.emulated = true;
	snprintf(c->kernel.release, sizeof(c->kernel.release), "%s", release);
	snprintf(c->kernel.source, sizeof(c->kernel.source), "pkg-%s", release);
	snprintf(c->kernel.btf_hash, sizeof(c->kernel.btf_hash), "h%s",
		 release);
	snprintf(c->kernel.accel, sizeof(c->kernel.accel), "tcg");
	snprintf(c->target.kernel_release, sizeof(c->target.kernel_release),
		 "%s", release);
	assert_int_equal(metric_add(&p->metrics, "jbd2.blocks", blocks), 0);
	assert_int_equal(metric_add(&p->metrics, "jbd2.commits", 10), 0);
}

/* 6.1 and 6.12, three repeats each; 6.12 twice as slow and with twice
 * the journal blocks per commit */
static void ab_run(struct run_result *run)
{
	unsigned int r;

	for (r = 1; r <= 3; r++) {
		kernel_case(run, "6.1", 1.0 + 0.01 * r, 100 + r, r);
		kernel_case(run, "6.12", 2.0 + 0.01 * r, 200 + r, r);
	}
}

static void one_run_splits_into_its_two_kernels(void **state)
{
	struct run_result run = { 0 }, a, b;
	char err[256];

	(void)state;
	ab_run(&run);
	assert_int_equal(diff_split_by_kernel(&run, &a, &b, err, sizeof(err)),
			 0);
	assert_int_equal(a.n_cases, 3);
	assert_int_equal(b.n_cases, 3);
	assert_string_equal(a.cases[0].kernel.release, "6.1");
	assert_string_equal(b.cases[2].kernel.release, "6.12");
	assert_string_equal(b.kernel_release, "6.12");
	run_result_view_free(&a);
	run_result_view_free(&b);
	/* a third kernel: refused, said */
	kernel_case(&run, "6.18", 1.0, 100, 1);
	assert_int_equal(diff_split_by_kernel(&run, &a, &b, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "more than two"));
	run_result_free(&run);
}

static void a_run_of_one_kernel_does_not_split(void **state)
{
	struct run_result run = { 0 }, a, b;
	char err[256];

	(void)state;
	kernel_case(&run, "6.1", 1.0, 100, 1);
	kernel_case(&run, "6.1", 1.0, 100, 2);
	assert_int_equal(diff_split_by_kernel(&run, &a, &b, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "has one"));
	run_result_free(&run);
}

static void diff_ab(bool time_verdicts, struct diff_result *d,
		    struct run_result *run)
{
	struct run_result a, b;
	struct diff_options opt;
	char err[256];

	ab_run(run);
	assert_int_equal(diff_split_by_kernel(run, &a, &b, err, sizeof(err)),
			 0);
	diff_options_default(&opt);
	opt.time_verdicts = time_verdicts;
	memset(d, 0, sizeof(*d));
	assert_int_equal(diff_build(&a, &b, &opt, d), 0);
	run_result_view_free(&a);
	run_result_view_free(&b);
}

static void emulated_times_are_shown_but_not_tested(void **state)
{
	struct run_result run = { 0 };
	const struct diff_metric *wall, *per;
	struct diff_result d;

	(void)state;
	diff_ab(false, &d, &run);
	assert_true(d.kernel_variable);
	assert_non_null(strstr(d.a_kernel, "6.1 (pkg-6.1)"));
	assert_true(d.emulated);
	wall = fx_diff_metric(&d, "wall_ns");
	assert_non_null(wall);
	assert_true(wall->emulated_time);
	assert_true(isnan(wall->p));
	assert_int_equal(wall->verdict, DIFF_INCONCLUSIVE);
	assert_non_null(strstr(wall->note, "emulated"));
	assert_true(d.n_emulated_times > 0);
	/* the mechanism per operation is judged: 10 -> 20 blocks a commit */
	per = fx_diff_metric(&d, "per_op.jbd2.blocks_per_commit");
	assert_non_null(per);
	assert_false(per->emulated_time);
	assert_true(per->has_ci);
	assert_int_equal(per->verdict, DIFF_HIGHER);
	diff_free(&d);
	run_result_free(&run);
}

static void time_verdicts_judge_emulated_times(void **state)
{
	struct run_result run = { 0 };
	const struct diff_metric *wall;
	struct diff_result d;

	(void)state;
	diff_ab(true, &d, &run);
	wall = fx_diff_metric(&d, "wall_ns");
	assert_non_null(wall);
	assert_false(wall->emulated_time);
	assert_int_equal(wall->verdict, DIFF_WORSE);
	assert_int_equal(d.n_emulated_times, 0);
	diff_free(&d);
	run_result_free(&run);
}

struct found {
	const char *name;
	double value;
	bool seen;
};

static int find_value(void *ctx, const char *name, double value)
{
	struct found *f = ctx;

	if (!strcmp(name, f->name)) {
		f->value = value;
		f->seen = true;
	}
	return 0;
}

static void per_op_ratios_need_their_denominator(void **state)
{
	struct run_result run = { 0 };
	struct found f = { .name = "per_op.jbd2.blocks_per_commit" };
	struct phase_result *p;

	(void)state;
	p = fx_phase(fx_case(&run, "ext4", "ext4", 1), "create", 1.0);
	assert_int_equal(metric_add(&p->metrics, "jbd2.blocks", 46), 0);
	assert_int_equal(phase_values(p, find_value, &f), 0);
	assert_false(f.seen); /* no commits: no ratio */
	assert_int_equal(metric_add(&p->metrics, "jbd2.commits", 10), 0);
	assert_int_equal(phase_values(p, find_value, &f), 0);
	assert_true(f.seen);
	assert_true(fabs(f.value - 4.6) < 1e-9);
	run_result_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_run_splits_into_its_two_kernels),
		cmocka_unit_test(a_run_of_one_kernel_does_not_split),
		cmocka_unit_test(emulated_times_are_shown_but_not_tested),
		cmocka_unit_test(time_verdicts_judge_emulated_times),
		cmocka_unit_test(per_op_ratios_need_their_denominator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
