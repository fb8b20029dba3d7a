// SPDX-License-Identifier: GPL-2.0
/*
 * --verify's judgement (verification_judge, analyze/verify_stats.c), the
 * knob it applies (mount_opts_apply, run/verify.c), and the findings'
 * JSON (results/findings_json.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/thresholds.h"
#include "analyze_fixture.h"
#include "results/json.h"
#include "run/verify.h"

static void samples(struct verification *v, const double *before,
		    unsigned int nb, const double *after, unsigned int na)
{
	memset(v, 0, sizeof(*v));
	memcpy(v->before, before, nb * sizeof(double));
	memcpy(v->after, after, na * sizeof(double));
	v->n_before = nb;
	v->n_after = na;
	verification_judge(v);
}

static void a_clear_speedup_is_confirmed(void **state)
{
	const double before[] = { 2.03, 2.10, 1.95 },
		     after[] = { 0.29, 0.31, 0.30 };
	struct verification v;

	(void)state;
	samples(&v, before, 3, after, 3);
	assert_string_equal(v.verdict, "confirmed");
	assert_true(v.ratio > 6.5 && v.ratio < 7.2);
	assert_true(v.ci_lo > 1 && v.ci_lo < v.ratio && v.ratio < v.ci_hi);
	assert_true(fabs(v.before_s - 2.026667) < 1e-5);
}

static void no_change_is_not_confirmed(void **state)
{
	const double before[] = { 1.00, 1.01, 0.99, 1.00 },
		     after[] = { 1.00, 0.99, 1.01, 1.00 };
	struct verification v;

	(void)state;
	samples(&v, before, 4, after, 4);
	assert_string_equal(v.verdict, "not confirmed");
	assert_true(v.ci_hi < VERIFY_MIN_SPEEDUP);
}

static void a_slowdown_is_not_confirmed(void **state)
{
	const double before[] = { 1.0, 1.02, 0.98 },
		     after[] = { 2.0, 2.05, 1.97 };
	struct verification v;

	(void)state;
	samples(&v, before, 3, after, 3);
	assert_string_equal(v.verdict, "not confirmed");
	assert_true(v.ratio < 0.6);
}

static void noise_is_inconclusive(void **state)
{
	const double before[] = { 1.0, 3.0 }, after[] = { 0.8, 2.6 };
	struct verification v;

	(void)state;
	samples(&v, before, 2, after, 2);
	assert_string_equal(v.verdict, "inconclusive");
	assert_true(v.ci_lo < 1 && v.ci_hi > VERIFY_MIN_SPEEDUP);
}

static void one_run_a_side_is_inconclusive(void **state)
{
	const double before[] = { 2.0, 2.1 }, after[] = { 0.3 };
	struct verification v;

	(void)state;
	samples(&v, before, 2, after, 1);
	assert_string_equal(v.verdict, "inconclusive");
	assert_non_null(strstr(v.note, "at least 2"));
}

static void a_small_real_gain_is_not_confirmed(void **state)
{
	/* 5% faster, measured tightly: real, but under the 10% a knob needs */
	const double before[] = { 1.05, 1.05, 1.05 },
		     after[] = { 1.0, 1.0, 1.0 };
	struct verification v;

	(void)state;
	samples(&v, before, 3, after, 3);
	assert_string_equal(v.verdict, "not confirmed");
}

static void mount_knob_replaces_its_own_key_and_its_negation(void **state)
{
	char out[256];

	(void)state;
	mount_opts_apply("", "logbsize=256k", out, sizeof(out));
	assert_string_equal(out, "logbsize=256k");
	mount_opts_apply("noatime,logbsize=32k", "logbsize=256k", out,
			 sizeof(out));
	assert_string_equal(out, "noatime,logbsize=256k");
	mount_opts_apply("nodelalloc,noatime", "delalloc", out, sizeof(out));
	assert_string_equal(out, "noatime,delalloc");
	mount_opts_apply("data=ordered", "data=writeback", out, sizeof(out));
	assert_string_equal(out, "data=writeback");
	/* a key that only starts the same is another option */
	mount_opts_apply("logbufs=8", "logbsize=256k", out, sizeof(out));
	assert_string_equal(out, "logbufs=8,logbsize=256k");
}

static void findings_and_verdicts_are_in_the_json(void **state)
{
	struct run_result run = { 0 };
	struct case_result *c = fx_case(&run, "xfs", "xfs", 1);
	struct phase_result *p = fx_phase(c, "rm-sync", 2.0);
	json_t *root, *ph, *f, *ev, *adv;
	struct finding *fi;

	(void)state;
	snprintf(c->target.super_opts, sizeof(c->target.super_opts),
		 "rw,logbsize=32k");
	fx_busy(p, 0.97, 7);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 237, 7744000, 0.88);
	metric_add(&p->metrics, "xfs.log_writes", 237);
	fx_hist(&p->metrics, "xfs.log_write_bytes", 237, 30711);
	assert_int_equal(analyze_run(&run), 0);
	fi = &p->findings.v[0];
	assert_string_equal(fi->rule, "xfs-log-io-bound");
	fi->verified.done = true;
	fi->verified.n_before = fi->verified.n_after = 2;
	fi->verified.before[0] = fi->verified.before[1] = 2;
	fi->verified.after[0] = fi->verified.after[1] = 0.3;
	verification_judge(&fi->verified);

	root = results_to_json(&run);
	ph = json_array_get(
		json_object_get(json_array_get(json_object_get(root, "cases"),
					       0),
				"phases"),
		0);
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(ph, "verdict"), "bound")),
			    "log");
	f = json_array_get(json_object_get(ph, "findings"), 0);
	assert_string_equal(json_string_value(json_object_get(f, "rule")),
			    "xfs-log-io-bound");
	assert_string_equal(json_string_value(json_object_get(f, "severity")),
			    "warning");
	ev = json_array_get(json_object_get(f, "evidence"), 0);
	assert_string_equal(json_string_value(json_object_get(ev, "metric")),
			    "block.io_classes.log_write.busy_ns");
	assert_true(json_number_value(json_object_get(ev, "threshold")) ==
		    LOG_IO_SHARE);
	/* the evidence of the force count has no share: null, not NaN */
	assert_true(json_is_null(json_object_get(
		json_array_get(json_object_get(f, "evidence"), 2), "share")));
	adv = json_object_get(f, "advice");
	assert_string_equal(json_string_value(json_object_get(adv, "kind")),
			    "mount");
	assert_string_equal(json_string_value(json_object_get(adv, "option")),
			    "logbsize=256k");
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(f, "verified"), "verdict")),
		"confirmed"); /* identical samples: a zero-width interval */
	assert_true(json_is_array(json_object_get(root, "comparisons")));
	json_decref(root);
	run_result_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_clear_speedup_is_confirmed),
		cmocka_unit_test(no_change_is_not_confirmed),
		cmocka_unit_test(a_slowdown_is_not_confirmed),
		cmocka_unit_test(noise_is_inconclusive),
		cmocka_unit_test(one_run_a_side_is_inconclusive),
		cmocka_unit_test(a_small_real_gain_is_not_confirmed),
		cmocka_unit_test(
			mount_knob_replaces_its_own_key_and_its_negation),
		cmocka_unit_test(findings_and_verdicts_are_in_the_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
