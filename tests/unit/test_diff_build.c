// SPDX-License-Identifier: GPL-2.0
/*
 * diff_build (compare/diff_build.c) on constructed runs: the findings one
 * side has and the other has not, compared as whole rule ids.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analyze_fixture.h"
#include "compare/diff_int.h"

static void rule_ids_are_compared_whole(void **state)
{
	(void)state;
	assert_true(diff_rule_listed("xfs-log-io-bound", "xfs-log-io-bound"));
	assert_true(diff_rule_listed("cpu-bound, xfs-log-io-bound",
				     "xfs-log-io-bound"));
	assert_true(
		diff_rule_listed("cpu-bound, xfs-log-io-bound", "cpu-bound"));
	/* a part of a listed id, or a listed id with more: not listed */
	assert_false(diff_rule_listed("xfs-log-io-bound", "log-io-bound"));
	assert_false(diff_rule_listed("xfs-log-io-bound", "xfs-log-io"));
	assert_false(diff_rule_listed("cpu-bound", "cpu-bound-2"));
	assert_false(diff_rule_listed("", "cpu-bound"));
}

static void phase_finding(struct phase_result *p, const char *rule)
{
	struct finding f;

	memset(&f, 0, sizeof(f));
	snprintf(f.rule, sizeof(f.rule), "%s", rule);
	f.severity = FINDING_WARNING;
	assert_int_equal(finding_list_add(&p->findings, &f), 0);
}

/*
 * A has "xfs-log-io-bound" and then "log-io-bound" (an id inside the
 * first: strstr took it as listed already), B neither: both are A's only.
 */
static void a_rule_inside_another_is_still_listed(void **state)
{
	struct run_result a = { 0 }, b = { 0 };
	struct diff_options opt;
	struct diff_result d;
	struct phase_result *pa, *pb;

	(void)state;
	pa = fx_phase(fx_case(&a, "xfs", "xfs", 1), "create", 1.0);
	pb = fx_phase(fx_case(&b, "xfs", "xfs", 1), "create", 1.0);
	phase_finding(pa, "xfs-log-io-bound");
	phase_finding(pa, "log-io-bound");
	phase_finding(pb, "cpu-bound");
	diff_options_default(&opt);
	memset(&d, 0, sizeof(d));
	assert_int_equal(diff_build(&a, &b, &opt, &d), 0);
	assert_int_equal(d.n_pairs, 1);
	assert_int_equal(d.pairs[0].n_phases, 1);
	assert_string_equal(d.pairs[0].phases[0].only_a,
			    "xfs-log-io-bound, log-io-bound");
	assert_string_equal(d.pairs[0].phases[0].only_b, "cpu-bound");
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

/* an aged case against a fresh one, or another aging: refused, named */
static void a_different_aging_makes_the_setups_incomparable(void **state)
{
	struct run_result a = { 0 }, b = { 0 };
	struct diff_options opt;
	struct diff_result d;
	struct case_result *ca, *cb;
	unsigned int i, found = 0;

	(void)state;
	ca = fx_case(&a, "ext4", "ext4", 1);
	cb = fx_case(&b, "ext4", "ext4", 1);
	fx_phase(ca, "create", 1.0);
	fx_phase(cb, "create", 1.0);
	cb->age.on = true;
	snprintf(cb->age.spec, sizeof(cb->age.spec), "%s",
		 "fill=90,pattern=every-other,sizes=small,seed=1");
	diff_options_default(&opt);
	memset(&d, 0, sizeof(d));
	assert_int_equal(diff_build(&a, &b, &opt, &d), 0);
	for (i = 0; i < d.n_setup; i++)
		if (!strcmp(d.setup[i].what, "--age")) {
			found++;
			assert_true(d.setup[i].blocking);
			assert_string_equal(d.setup[i].a, "none");
			assert_string_equal(d.setup[i].b, cb->age.spec);
		}
	assert_int_equal(found, 1);
	assert_true(diff_setup_blocks(&d));
	diff_free(&d);
	/* the same aging on both sides: nothing to say */
	ca->age = cb->age;
	memset(&d, 0, sizeof(d));
	assert_int_equal(diff_build(&a, &b, &opt, &d), 0);
	for (i = 0; i < d.n_setup; i++)
		assert_string_not_equal(d.setup[i].what, "--age");
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_ids_are_compared_whole),
		cmocka_unit_test(a_rule_inside_another_is_still_listed),
		cmocka_unit_test(
			a_different_aging_makes_the_setups_incomparable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
