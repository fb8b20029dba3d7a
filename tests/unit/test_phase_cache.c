// SPDX-License-Identifier: GPL-2.0
/*
 * A phase's cache state (src/run/phase_cache.c): the workload's default,
 * --warm and --cold LIST, and a --dir target's fallback; --cold's names
 * checked against the run's workloads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "run/phase_cache.h"

static const struct phase_def *phase_of(const char *wl, const char *name)
{
	const struct workload_def *w = workload_find(wl);
	unsigned int i;

	assert_non_null(w);
	for (i = 0; i < w->n_phases; i++)
		if (!strcmp(w->phases[i].name, name))
			return &w->phases[i];
	fail_msg("%s has no phase %s", wl, name);
	return NULL;
}

static void one_workload(struct run_options *opt, const char *name)
{
	memset(opt, 0, sizeof(*opt));
	snprintf(opt->workloads[0].name, sizeof(opt->workloads[0].name), "%s",
		 name);
	opt->n_workloads = 1;
}

static void files1m_remove_is_cold_by_default_as_the_original(void **state)
{
	struct run_options opt;

	(void)state;
	one_workload(&opt, "files1m");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), true),
		"cold");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "read"), true),
		"dropped");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "create"), true),
		"warm");
	/* seqio's delete: the original's ext3 rm of 4 GB was warm */
	assert_string_equal(
		phase_cache_state(&opt, phase_of("seqio", "delete"), true),
		"warm");
}

static void cold_list_names_exactly_the_cold_phases(void **state)
{
	struct run_options opt;

	(void)state;
	one_workload(&opt, "files1m");
	opt.cold = "read,create";
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "create"), true),
		"cold");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "read"), true),
		"cold");
	/* left out of the list: the default cold phase runs warm */
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), true),
		"warm");
	opt.cold = PHASE_COLD_NONE;
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), true),
		"warm");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "read"), true),
		"dropped");
}

static void warm_runs_nothing_cold_or_dropped(void **state)
{
	struct run_options opt;

	(void)state;
	one_workload(&opt, "files1m");
	opt.warm = true;
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), true),
		"warm");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "read"), true),
		"warm");
}

static void
warm_with_a_cold_list_runs_the_listed_cold_and_drops_nothing(void **state)
{
	struct run_options opt;

	(void)state;
	one_workload(&opt, "files1m");
	opt.warm = true;
	opt.cold = "remove";
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), true),
		"cold");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "read"), true),
		"warm");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "create"), true),
		"warm");
	opt.cold = PHASE_COLD_NONE;
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), true),
		"warm");
}

static void a_dir_target_drops_caches_for_a_default_cold_phase(void **state)
{
	struct run_options opt;

	(void)state;
	one_workload(&opt, "files1m");
	assert_string_equal(
		phase_cache_state(&opt, phase_of("files1m", "remove"), false),
		"dropped");
}

static void cold_names_are_checked_against_the_runs_workloads(void **state)
{
	struct run_options opt;
	char err[512];

	(void)state;
	one_workload(&opt, "files1m");
	snprintf(opt.workloads[1].name, sizeof(opt.workloads[1].name),
		 "seqio");
	opt.n_workloads = 2;
	opt.cold = "remove,delete";
	assert_int_equal(phase_cold_check(&opt, err, sizeof(err)), 0);
	opt.cold = "none";
	assert_int_equal(phase_cold_check(&opt, err, sizeof(err)), 0);
	opt.cold = "remove,extract";
	assert_int_equal(phase_cold_check(&opt, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no workload of this run has a phase 'extract'"));
	opt.cold = "remove,,read";
	assert_int_equal(phase_cold_check(&opt, err, sizeof(err)), -EINVAL);
	opt.cold = "remove,";
	assert_int_equal(phase_cold_check(&opt, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ends with a comma"));
	opt.cold = "remove,none";
	assert_int_equal(phase_cold_check(&opt, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "none alone"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			files1m_remove_is_cold_by_default_as_the_original),
		cmocka_unit_test(cold_list_names_exactly_the_cold_phases),
		cmocka_unit_test(warm_runs_nothing_cold_or_dropped),
		cmocka_unit_test(
			warm_with_a_cold_list_runs_the_listed_cold_and_drops_nothing),
		cmocka_unit_test(
			a_dir_target_drops_caches_for_a_default_cold_phase),
		cmocka_unit_test(
			cold_names_are_checked_against_the_runs_workloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
