// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a saved results JSON back (src/results/json_read.c): a model
 * written, read and written again gives the same document, and every kind
 * of bad file gets an error naming the file, the place and the problem.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze_fixture.h"
#include "results/json.h"
#include "results/json_read.h"

/* a run with something in every part of the model json.c writes */
static void model_build(struct run_result *run)
{
	struct case_result *c;
	struct phase_result *p;
	struct event_record ev;
	struct finding f;
	uint64_t bins[3] = { 4096, 0, 8192 };

	memset(run, 0, sizeof(*run));
	snprintf(run->tool_version, sizeof(run->tool_version), "test");
	snprintf(run->kernel_release, sizeof(run->kernel_release), "6.18.0");
	run->started_real_ns = 1764590000ULL * 1000000000ULL;
	run->max_rss_kib = 12345;
	c = fx_case(run, "xfs", "xfs:mount=logbsize=256k", 2);
	snprintf(c->target.kind, sizeof(c->target.kind), "image");
	snprintf(c->target.device, sizeof(c->target.device), "/dev/loop7");
	c->target.mkfs_output = strdup("meta-data=/dev/loop7 isize=512\n");
	c->target.dev_major = 7;
	c->target.dev_minor = 7;
	c->target.model.m.rotational = 1;
	snprintf(c->target.model.placement, sizeof(c->target.model.placement),
		 "lower-loop");
	snprintf(c->target.model.m.name, sizeof(c->target.model.m.name), "hdd");
	c->target.model.m.wiops = 150;
	c->target.model.major = 7;
	c->target.model.minor = 6;
	c->target.log.n = 1;
	c->target.log.range[0].start = 2048;
	c->target.log.range[0].sectors = 20480;
	snprintf(c->target.log.source, sizeof(c->target.log.source), "xfs_db");
	c->target.sysctls.n = 1;
	snprintf(c->target.sysctls.v[0].name,
		 sizeof(c->target.sysctls.v[0].name), "vm.dirty_ratio");
	snprintf(c->target.sysctls.v[0].value,
		 sizeof(c->target.sysctls.v[0].value), "20");
	snprintf(attach_list_add(&c->programs)->domain, 16, "block");

	p = fx_phase(c, "create", 2.0);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 100, 100 * 32768, 0.7);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 10, 10 << 20, 0.2);
	fx_busy(p, 0.9, 1.2);
	fx_cpu(p, 0.05);
	fx_fsyncs(p, 50, 0.5);
	fx_budget(p, 0.05, "xfs_log_force", 0.8, "runqueue", 0.01);
	metric_add(&p->metrics, "xfs.log_writes", 100);
	series_add(&p->timeline, "block.log_write_bytes", bins, 3);
	p->timeline.bin_ns = 100000000;
	p->timeline.start_ns = p->start_mono_ns;
	p->sched_stacks.n = 1;
	snprintf(p->sched_stacks.v[0].cause, 24, "xfs_log_force");
	p->sched_stacks.v[0].count = 50;
	p->sched_stacks.v[0].n_frames = 2;
	snprintf(p->sched_stacks.v[0].frame[0], STACK_FRAME_LEN,
		 "xlog_wait_on_iclog+0x1a");
	snprintf(p->sched_stacks.v[0].frame[1], STACK_FRAME_LEN,
		 "xfs_file_fsync+0x30");
	p->intervals = calloc(1, sizeof(*p->intervals));
	p->n_intervals = p->intervals_cap = 1;
	p->intervals[0].t_ns = 1000000000;
	p->intervals[0].files = 25;

	memset(&f, 0, sizeof(f));
	snprintf(f.rule, sizeof(f.rule), "xfs-log-io-bound");
	f.verified.done = true;
	f.verified.n_before = f.verified.n_after = 2;
	f.verified.before[0] = 2.0;
	f.verified.before[1] = 2.2;
	f.verified.after[0] = 1.0;
	f.verified.after[1] = 1.1;
	snprintf(f.verified.phase, sizeof(f.verified.phase), "create");
	verification_judge(&f.verified);
	finding_list_add(&p->findings, &f);

	p = fx_phase(c, "remove", 1.0);
	p->block.inflight_at_end = 2;

	memset(&ev, 0, sizeof(ev));
	ev.kind = FSPROF_EV_BLK_SLOW_IO;
	ev.phase = 1;
	ev.t_ns = p->start_mono_ns;
	ev.v[0] = UINT64_MAX; /* a flush has no sector */
	snprintf(ev.s[0], EVENT_STR_LEN, "flush");
	event_list_add(&c->events, &ev);
	metric_add(&c->spill.metrics, "jbd2.commits", 3);
}

/* the two documents are the same text; else show where they part */
static void json_equal_or_fail(const char *a, const char *b)
{
	size_t i = 0, line = 1, start = 0;

	while (a[i] && a[i] == b[i]) {
		if (a[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	if (a[i] == b[i])
		return;
	fail_msg(
		"the JSON read back differs at line %zu:\n  wrote: %.120s\n  again: %.120s",
		line, a + start, b + start);
}

static void test_a_written_model_reads_back_to_the_same_json(void **state)
{
	struct run_result run, back;
	json_t *a, *b;
	char err[512] = "";
	char *da, *db;

	(void)state;
	model_build(&run);
	assert_int_equal(analyze_run(&run), 0);
	a = results_to_json(&run);
	assert_non_null(a);
	if (results_from_json(a, "model", &back, err, sizeof(err)))
		fail_msg("%s", err);
	/* as fsprof report does: verdicts and findings are derived again */
	assert_int_equal(analyze_saved_run(&back), 0);
	b = results_to_json(&back);
	da = json_dumps(a, JSON_SORT_KEYS | JSON_INDENT(1));
	db = json_dumps(b, JSON_SORT_KEYS | JSON_INDENT(1));
	json_equal_or_fail(da, db);
	assert_true(back.cases[0].target.mkfs_output != NULL);
	assert_int_equal(back.cases[0].events.v[0].v[0], UINT64_MAX);
	free(da);
	free(db);
	json_decref(a);
	json_decref(b);
	run_result_free(&run);
	run_result_free(&back);
}

static void test_reanalysis_keeps_the_verify_result(void **state)
{
	struct run_result run, back;
	const struct finding *f;
	char err[512] = "";
	json_t *a;

	(void)state;
	model_build(&run);
	a = results_to_json(&run);
	if (results_from_json(a, "model", &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(analyze_saved_run(&back), 0);
	f = finding_list_find(&back.cases[0].phases[0].findings,
			      "xfs-log-io-bound");
	if (!f)
		fail_msg("re-analysis did not find xfs-log-io-bound again");
	assert_true(f->verified.done);
	assert_int_equal(f->verified.n_before, 2);
	assert_string_equal(
		f->verified.verdict,
		run.cases[0].phases[0].findings.v[0].verified.verdict);
	json_decref(a);
	run_result_free(&run);
	run_result_free(&back);
}

/*
 * A results file written before device_model_stack existed has the model
 * only as its device_model text: the limits are read from that, and a text
 * of another shape is an error that quotes it.
 */
static void test_a_file_without_the_model_stack_keeps_its_model(void **state)
{
	struct run_result run, back;
	json_t *a, *target;
	char err[512] = "";

	(void)state;
	model_build(&run);
	a = results_to_json(&run);
	target = json_object_get(json_array_get(json_object_get(a, "cases"), 0),
				 "target");
	assert_string_equal(
		json_string_value(json_object_get(target, "device_model")),
		"hdd: riops=0 wiops=150 rbps=0 wbps=0");
	json_object_del(target, "device_model_stack");
	if (results_from_json(a, "old", &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(back.cases[0].target.model.m.name, "hdd");
	assert_int_equal(back.cases[0].target.model.m.wiops, 150);
	assert_int_equal(back.cases[0].target.model.m.riops, 0);
	assert_string_equal(back.cases[0].target.model.placement, "");
	run_result_free(&back);
	json_object_set_new(target, "device_model", json_string("hdd, fast"));
	assert_int_not_equal(
		results_from_json(a, "old", &back, err, sizeof(err)), 0);
	if (!strstr(err, "device_model 'hdd, fast'"))
		fail_msg("the error does not quote the text: %s", err);
	json_decref(a);
	run_result_free(&run);
}

/* read text as a results file; the error must contain every want[] */
static void check_bad_file(const char *text, const char *const *want)
{
	char path[] = "/tmp/fsprof-json-read.XXXXXX", err[1024] = "";
	struct run_result run;
	int fd = mkstemp(path), ret;
	ssize_t len = (ssize_t)strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, (size_t)len), len);
	close(fd);
	ret = results_read_json(path, &run, err, sizeof(err));
	unlink(path);
	if (!ret)
		fail_msg("read a bad file without error: %s", text);
	assert_int_equal(run.n_cases, 0);
	if (!strstr(err, path))
		fail_msg("the error does not name the file: %s", err);
	for (; *want; want++)
		if (!strstr(err, *want))
			fail_msg("error '%s' does not say '%s'", err, *want);
}

static void test_bad_files_get_errors_naming_place_and_problem(void **state)
{
	static const char *const empty[] = { "is empty", NULL };
	static const char *const truncated[] = { "not valid JSON", "line",
						 "truncated", NULL };
	static const char *const not_ours[] = { "not fsprof results", NULL };
	static const char *const future[] = { "schema version 99",
					      "newer fsprof", NULL };
	static const char *const bad_type[] = { "cases[0].phases[0]",
						"'wall_ns'", NULL };
	static const char *const bad_class[] = { "io_classes.warp",
						 "unknown IO class", NULL };
	static const char *const no_cases[] = { "no cases", NULL };
	static const char *const head =
		"{\"schema_version\": 1, \"tool\": {\"name\": \"fsprof\"}, ";

	(void)state;
	check_bad_file("", empty);
	check_bad_file("{\"schema_version\": 1, \"cases\": [", truncated);
	check_bad_file("[1, 2, 3]", not_ours);
	check_bad_file(
		"{\"schema_version\": 99, \"tool\": {\"name\": \"fsprof\"}}",
		future);
	{
		char buf[1024];

		snprintf(buf, sizeof(buf),
			 "%s\"cases\": [{\"workload\": {\"name\": \"seqio\"}, "
			 "\"target\": {}, \"phases\": [{\"name\": \"write\", "
			 "\"wall_ns\": \"slow\"}]}]}",
			 head);
		check_bad_file(buf, bad_type);
		snprintf(buf, sizeof(buf),
			 "%s\"cases\": [{\"workload\": {\"name\": \"seqio\"}, "
			 "\"target\": {}, \"phases\": [{\"name\": \"write\", "
			 "\"block\": {\"traced\": true, \"io_classes\": "
			 "{\"warp\": {}}}}]}]}",
			 head);
		check_bad_file(buf, bad_class);
		snprintf(buf, sizeof(buf), "%s\"started\": \"x\"}", head);
		check_bad_file(buf, no_cases);
	}
}

static void test_a_missing_file_or_a_directory_is_said(void **state)
{
	struct run_result run;
	char err[512];

	(void)state;
	assert_int_equal(results_read_json("/nonexistent/r.json", &run, err,
					   sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/r.json"));
	assert_true(results_read_json("/tmp", &run, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "is a directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_written_model_reads_back_to_the_same_json),
		cmocka_unit_test(test_reanalysis_keeps_the_verify_result),
		cmocka_unit_test(
			test_a_file_without_the_model_stack_keeps_its_model),
		cmocka_unit_test(
			test_bad_files_get_errors_naming_place_and_problem),
		cmocka_unit_test(test_a_missing_file_or_a_directory_is_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
