// SPDX-License-Identifier: GPL-2.0
/* The results model (src/results/results.h) and its JSON (results/json.h) */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze/model_excess.h"
#include "results/json.h"
#include "results/results.h"
#include "stderr_capture.h"
#include "util/histogram.h"

#define NS_PER_S 1000000000ULL

/* a and b agree to a relative 1e-9 (or both are 0) */
static void check_close(double got, double want, const char *what)
{
	double tol = fabs(want) * 1e-9;

	if (fabs(got - want) > tol)
		fail_msg("%s = %.12g, want %.12g", what, got, want);
}

/* count one latency of ns into h */
static void latency_record(struct latency_hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->slot[hist_slot(ns)]++;
}

static void mb_per_s_counts_powers_of_1000_per_second(void **state)
{
	struct phase_result p = { 0 };

	(void)state;
	p.work.bytes = 256ULL << 20;
	p.wall_ns = 2 * NS_PER_S;
	check_close(phase_mb_per_s(&p), 134.217728, "256 MiB in 2 s, MB/s");
}

static void mib_per_s_counts_powers_of_1024_per_second(void **state)
{
	struct phase_result p = { 0 };

	(void)state;
	p.work.bytes = 256ULL << 20;
	p.wall_ns = 2 * NS_PER_S;
	check_close(phase_mib_per_s(&p), 128.0, "256 MiB in 2 s, MiB/s");
}

static void cpu_percent_is_user_plus_sys_over_wall(void **state)
{
	struct phase_result p = { 0 };

	(void)state;
	p.wall_ns = 2 * NS_PER_S;
	p.user_ns = 300000000ULL;
	p.sys_ns = 200000000ULL;
	check_close(phase_cpu_percent(&p), 25.0, "0.5 s CPU in 2 s, %");
	/* children on other CPUs can use more than the wall time */
	p.user_ns = 3 * NS_PER_S;
	p.sys_ns = 0;
	check_close(phase_cpu_percent(&p), 150.0, "3 s CPU in 2 s, %");
}

static void files_per_s_counts_files_per_second(void **state)
{
	struct phase_result p = { 0 };

	(void)state;
	p.work.files = 4000;
	p.wall_ns = 2 * NS_PER_S;
	check_close(phase_files_per_s(&p), 2000.0, "4000 files in 2 s, /s");
}

static void zero_wall_time_gives_zero_rates(void **state)
{
	struct phase_result p = { 0 };

	(void)state;
	p.work.bytes = 4096;
	p.work.files = 3;
	p.user_ns = 1000;
	p.sys_ns = 1000;
	assert_true(phase_mb_per_s(&p) == 0);
	assert_true(phase_mib_per_s(&p) == 0);
	assert_true(phase_cpu_percent(&p) == 0);
	assert_true(phase_files_per_s(&p) == 0);
}

/*
 * The device model's limits a phase went over: a cache flush costs the
 * throttle a write IO (200 writes + 200 flushes in 2 s break 150 IOPS),
 * bandwidth by its own limit, an untraced device never.
 */
static void
model_excess_counts_flushes_as_writes_and_checks_bandwidth(void **state)
{
	struct target_result t = { .model.m = { .wiops = 150,
						.wbps = 120000000 } };
	struct phase_result p = { .wall_ns = 2 * NS_PER_S };
	struct model_excess over[MODEL_EXCESS_MAX];

	(void)state;
	p.block.traced = true;
	p.block.cls[BLK_OPC_WRITE].ios = 200;
	p.block.cls[BLK_OPC_FLUSH].ios = 200;
	p.block.cls[BLK_OPC_WRITE].bytes = 2 * 150000000ULL;
	p.block.cls[BLK_OPC_READ].ios = 10000; /* no read limit */
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 2);
	assert_string_equal(over[0].what,
			    "write IOPS (cache flushes included)");
	check_close(over[0].rate, 200, "write + flush IOPS");
	check_close(over[0].limit, 150, "wiops");
	assert_string_equal(over[1].what, "MB/s written");
	check_close(over[1].rate, 150, "MB/s");
	check_close(over[1].limit, 120, "wbps in MB/s");
	/* 150 requests a second, 110 MB/s: held */
	p.block.cls[BLK_OPC_WRITE].ios = 150;
	p.block.cls[BLK_OPC_FLUSH].ios = 150;
	p.block.cls[BLK_OPC_WRITE].bytes = 2 * 110000000ULL;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 0);
	p.block.cls[BLK_OPC_FLUSH].ios = 250;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 1);
	p.block.traced = false;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 0);
	/*
	 * a short phase may pass one slice's quota at once: 19 writes in
	 * 0.106 s (179/s) under 150 are held, 40 (377/s) are not
	 */
	p.block.traced = true;
	p.wall_ns = 106000000ULL;
	p.block.cls[BLK_OPC_WRITE].ios = 19;
	p.block.cls[BLK_OPC_FLUSH].ios = 0;
	p.block.cls[BLK_OPC_WRITE].bytes = 19 * 4096;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 0);
	p.block.cls[BLK_OPC_WRITE].ios = 40;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 1);
	check_close(over[0].rate, 40 / 0.106, "the phase's own rate");
}

/*
 * A stack's members are each a disk of the model: each one's requests
 * against the limits, not the sum. A RAID1 of two members at 150 write
 * IOPS each writes 300 a second in all, held; a member at 200 is not.
 */
static void
model_excess_holds_each_member_of_a_stack_to_the_limits(void **state)
{
	static struct target_result t;
	static struct phase_result p;
	struct model_excess over[MODEL_EXCESS_MAX];

	(void)state;
	t.model.m.wiops = 150;
	t.model.n_members = 2;
	t.stack.n = 2;
	snprintf(t.stack.member[1].name, sizeof(t.stack.member[1].name),
		 "loop7");
	p.wall_ns = 2 * NS_PER_S;
	p.block.traced = true;
	p.block.n_members = 2;
	/* the phase's sum: 600 requests in 2 s, twice the limit */
	p.block.cls[BLK_OPC_WRITE].ios = 560;
	p.block.cls[BLK_OPC_FLUSH].ios = 40;
	p.block.member[0].ios[BLK_IOC_DATA_WRITE] = 260;
	p.block.member[0].ios[BLK_IOC_FLUSH] = 20;
	p.block.member[1].ios[BLK_IOC_LOG_WRITE] = 280;
	p.block.member[1].ios[BLK_IOC_FLUSH] = 20;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 0);
	/* one member faster than its throttle allows: named */
	p.block.member[1].ios[BLK_IOC_META_WRITE] = 100;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 1);
	assert_int_equal(over[0].member, 1);
	assert_string_equal(over[0].metric, "block.members.write_ios");
	check_close(over[0].rate, 200, "member 1's write + flush IOPS");
	/* not throttled member by member: the sum against the limits */
	t.model.n_members = 0;
	assert_int_equal(phase_model_excess(&t, &p, 1.15, over), 1);
	assert_int_equal(over[0].member, -1);
}

static void block_total_sums_every_class(void **state)
{
	struct block_result b = { 0 };
	struct block_class_result total;

	(void)state;
	b.traced = true;
	b.cls[BLK_OPC_READ].ios = 10;
	b.cls[BLK_OPC_READ].bytes = 40960;
	latency_record(&b.cls[BLK_OPC_READ].lat, 5000);
	b.cls[BLK_OPC_WRITE].ios = 64;
	b.cls[BLK_OPC_WRITE].bytes = 256ULL << 20;
	latency_record(&b.cls[BLK_OPC_WRITE].lat, 90000);
	latency_record(&b.cls[BLK_OPC_WRITE].lat, 7000);
	b.cls[BLK_OPC_FLUSH].ios = 2;
	latency_record(&b.cls[BLK_OPC_FLUSH].lat, 2000000);
	b.cls[BLK_OPC_OTHER].ios = 1;
	b.cls[BLK_OPC_OTHER].bytes = 512;

	memset(&total, 0xff, sizeof(total));
	block_result_total(&b, &total);
	assert_int_equal(total.ios, 77);
	assert_int_equal(total.bytes, 40960 + (256ULL << 20) + 512);
	assert_int_equal(total.lat.count, 4);
	assert_int_equal(total.lat.sum_ns, 5000 + 90000 + 7000 + 2000000);
	assert_int_equal(total.lat.max_ns, 2000000);
	assert_int_equal(total.lat.slot[hist_slot(5000)], 1);
	assert_int_equal(total.lat.slot[hist_slot(2000000)], 1);
	assert_int_equal(hist_total(total.lat.slot, HIST_NSLOTS), 4);
}

static void latency_percentile_never_exceeds_the_maximum(void **state)
{
	static const double ps[] = { 50, 90, 99, 99.9, 99.99, 100 };
	struct latency_hist h = { 0 };
	uint64_t ns;
	size_t i;

	(void)state;
	/* 1100 is low in its slot [1024, 1280): interpolation overshoots */
	for (ns = 1000; ns <= 1100; ns++)
		latency_record(&h, ns);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double v = latency_hist_percentile(&h, ps[i]);

		if (v > (double)h.max_ns)
			fail_msg("p%g = %f above the maximum %llu", ps[i], v,
				 (unsigned long long)h.max_ns);
	}
	check_close(latency_hist_percentile(&h, 100), 1100, "p100");
}

static void latency_percentile_of_nothing_is_zero(void **state)
{
	struct latency_hist h = { 0 };

	(void)state;
	assert_true(latency_hist_percentile(&h, 50) == 0);
	assert_true(latency_hist_percentile(&h, 100) == 0);
}

/* a finished run of one case, two phases: "write" block-traced, "read" not */
static struct run_result *sample_run(void)
{
	struct run_result *run = calloc(1, sizeof(*run));
	struct phase_result *p;
	struct case_result *c;

	assert_non_null(run);
	snprintf(run->tool_version, sizeof(run->tool_version), "0.1-test");
	snprintf(run->kernel_release, sizeof(run->kernel_release), "6.1.0");
	run->started_real_ns = 1700000000ULL * NS_PER_S;

	c = run_result_add_case(run, 2);
	assert_non_null(c);
	snprintf(c->workload, sizeof(c->workload), "seqio");
	snprintf(c->params, sizeof(c->params), "size=256M");
	c->size = 256ULL << 20;
	c->repeat = 1;
	c->complete = true;
	snprintf(c->target.fstype, sizeof(c->target.fstype), "ext4");
	snprintf(c->target.device, sizeof(c->target.device), "/dev/loop3");

	p = &c->phases[c->n_phases++];
	snprintf(p->name, sizeof(p->name), "write");
	p->id = 1;
	p->wall_ns = 1234567891ULL;
	p->user_ns = 10000000ULL;
	p->sys_ns = 300000000ULL;
	p->work.bytes = 256ULL << 20;
	p->work.ops = 256;
	p->work.files = 1;
	p->block.traced = true;
	p->block.cls[BLK_OPC_WRITE].ios = 300;
	p->block.cls[BLK_OPC_WRITE].bytes = 256ULL << 20;
	latency_record(&p->block.cls[BLK_OPC_WRITE].lat, 120000);
	latency_record(&p->block.cls[BLK_OPC_WRITE].lat, 1100);
	p->block.cls[BLK_OPC_FLUSH].ios = 3;
	latency_record(&p->block.cls[BLK_OPC_FLUSH].lat, 900000);
	p->block.cls[BLK_OPC_READ].ios = 5;
	p->block.cls[BLK_OPC_READ].bytes = 20480;

	p = &c->phases[c->n_phases++];
	snprintf(p->name, sizeof(p->name), "read");
	p->id = 2;
	p->wall_ns = 987654321ULL;
	p->work.bytes = 3ULL << 20;
	p->work.files = 1;
	return run;
}

static void free_run(struct run_result *run)
{
	run_result_free(run);
	free(run);
}

static json_t *case_json_at(json_t *root, size_t i)
{
	json_t *c = json_array_get(json_object_get(root, "cases"), i);

	if (!c)
		fail_msg("JSON has no cases[%zu]", i);
	return c;
}

static json_t *phase_json_at(json_t *root, size_t i)
{
	json_t *phases = json_object_get(case_json_at(root, 0), "phases");
	json_t *phase = json_array_get(phases, i);

	if (!phase)
		fail_msg("JSON has no cases[0].phases[%zu]", i);
	return phase;
}

/* the number at key in obj, which must exist */
static double json_number_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_number(v))
		fail_msg("JSON has no number \"%s\"", key);
	return json_number_value(v);
}

static void json_rates_agree_with_its_own_bytes_and_wall_time(void **state)
{
	struct run_result *run = sample_run();
	json_t *root = results_to_json(run);
	size_t i;

	(void)state;
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(case_json_at(root, 0),
							 "phases")),
			 2);
	for (i = 0; i < 2; i++) {
		json_t *phase = phase_json_at(root, i);
		json_t *work = json_object_get(phase, "workload");
		json_t *cpu = json_object_get(phase, "cpu");
		double bytes = json_number_at(work, "bytes");
		double wall_s = json_number_at(phase, "wall_ns") / 1e9;

		assert_true(bytes > 0 && wall_s > 0);
		check_close(json_number_at(work, "mb_per_s"),
			    bytes / 1e6 / wall_s, "workload.mb_per_s");
		check_close(json_number_at(work, "mib_per_s"),
			    bytes / 1048576.0 / wall_s, "workload.mib_per_s");
		check_close(json_number_at(work, "bw_bytes"), bytes / wall_s,
			    "workload.bw_bytes");
		check_close(json_number_at(work, "files_per_s"),
			    json_number_at(work, "files") / wall_s,
			    "workload.files_per_s");
		check_close(json_number_at(cpu, "percent"),
			    100 *
				    (json_number_at(cpu, "user_ns") +
				     json_number_at(cpu, "sys_ns")) /
				    1e9 / wall_s,
			    "cpu.percent");
	}
	/* and the model's own numbers made it in */
	check_close(json_number_at(json_object_get(phase_json_at(root, 0),
						   "workload"),
				   "bytes"),
		    (double)run->cases[0].phases[0].work.bytes,
		    "phases[0].workload.bytes");
	check_close(json_number_at(phase_json_at(root, 0), "wall_ns"),
		    (double)run->cases[0].phases[0].wall_ns,
		    "phases[0].wall_ns");
	json_decref(root);
	free_run(run);
}

static void json_block_total_is_the_sum_of_its_classes(void **state)
{
	struct run_result *run = sample_run();
	json_t *root = results_to_json(run);
	json_t *block, *total, *classes, *cls;
	double ios = 0, bytes = 0, count = 0;
	const char *name;

	(void)state;
	assert_non_null(root);
	block = json_object_get(phase_json_at(root, 0), "block");
	assert_true(json_is_true(json_object_get(block, "traced")));
	total = json_object_get(block, "total");
	classes = json_object_get(block, "classes");
	assert_int_equal(json_object_size(classes), BLK_OPC_NR);
	json_object_foreach(classes, name, cls)
	{
		ios += json_number_at(cls, "ios");
		bytes += json_number_at(cls, "bytes");
		count += json_number_at(json_object_get(cls, "latency"),
					"count");
	}
	check_close(json_number_at(total, "ios"), ios, "block.total.ios");
	check_close(json_number_at(total, "ios"), 308, "block.total.ios");
	check_close(json_number_at(total, "bytes"), bytes, "block.total.bytes");
	check_close(json_number_at(json_object_get(total, "latency"), "count"),
		    count, "block.total.latency.count");
	json_decref(root);
	free_run(run);
}

static void json_percentiles_never_exceed_max_ns(void **state)
{
	struct run_result *run = sample_run();
	json_t *root = results_to_json(run);
	json_t *classes, *cls, *pct, *v;
	const char *name, *key;

	(void)state;
	assert_non_null(root);
	classes = json_object_get(
		json_object_get(phase_json_at(root, 0), "block"), "classes");
	json_object_foreach(classes, name, cls)
	{
		json_t *lat = json_object_get(cls, "latency");
		double max = json_number_at(lat, "max");

		pct = json_object_get(lat, "percentile");
		assert_true(json_object_size(pct) > 0);
		json_object_foreach(pct, key, v)
		{
			if (json_number_value(v) > max)
				fail_msg("%s p%s = %f above max_ns %f", name,
					 key, json_number_value(v), max);
		}
	}
	json_decref(root);
	free_run(run);
}

static void untraced_block_result_says_so_and_has_no_classes(void **state)
{
	struct run_result *run = sample_run();
	json_t *root = results_to_json(run);
	json_t *block;

	(void)state;
	assert_non_null(root);
	block = json_object_get(phase_json_at(root, 1), "block");
	assert_true(json_is_false(json_object_get(block, "traced")));
	assert_null(json_object_get(block, "classes"));
	json_decref(root);
	free_run(run);
}

static void dotted_metric_names_nest_by_domain(void **state)
{
	struct run_result *run = sample_run();
	struct phase_result *p = &run->cases[0].phases[0];
	json_t *root, *metrics, *hists;
	struct latency_hist *h;

	(void)state;
	assert_int_equal(metric_add(&p->metrics, "jbd2.commits", 7), 0);
	assert_int_equal(metric_add(&p->metrics, "jbd2.commits", 5), 0);
	assert_int_equal(metric_max(&p->metrics, "block.inflight_max", 9), 0);
	h = metric_hist(&p->metrics, "op.write_ns");
	assert_non_null(h);
	latency_record(h, 4000);
	root = results_to_json(run);
	assert_non_null(root);
	metrics = json_object_get(phase_json_at(root, 0), "metrics");
	hists = json_object_get(phase_json_at(root, 0), "histograms");
	check_close(json_number_at(json_object_get(metrics, "jbd2"), "commits"),
		    12, "metrics.jbd2.commits");
	check_close(json_number_at(json_object_get(metrics, "block"),
				   "inflight_max"),
		    9, "metrics.block.inflight_max");
	check_close(json_number_at(json_object_get(json_object_get(hists, "op"),
						   "write_ns"),
				   "count"),
		    1, "histograms.op.write_ns.count");
	json_decref(root);
	free_run(run);
}

static void finished_run_is_complete(void **state)
{
	struct run_result *run = sample_run();
	json_t *root = results_to_json(run);

	(void)state;
	assert_non_null(root);
	assert_int_equal(
		json_integer_value(json_object_get(root, "schema_version")),
		RESULTS_SCHEMA_VERSION);
	assert_true(json_is_true(json_object_get(root, "complete")));
	assert_true(json_is_false(json_object_get(root, "interrupted")));
	assert_true(json_is_true(
		json_object_get(case_json_at(root, 0), "complete")));
	json_decref(root);
	free_run(run);
}

static void interrupted_run_is_not_complete(void **state)
{
	struct run_result *run = sample_run();
	json_t *root;

	(void)state;
	run->interrupted = true;
	run->signal = 2;
	root = results_to_json(run);
	assert_non_null(root);
	assert_true(json_is_false(json_object_get(root, "complete")));
	assert_true(json_is_true(json_object_get(root, "interrupted")));
	assert_int_equal(json_integer_value(json_object_get(root, "signal")),
			 2);
	json_decref(root);
	free_run(run);
}

static void run_with_an_unfinished_case_is_not_complete(void **state)
{
	struct run_result *run = sample_run();
	struct case_result *c;
	json_t *root;

	(void)state;
	c = run_result_add_case(run, 2);
	assert_non_null(c);
	c->complete = false;
	assert_false(run_result_complete(run));
	root = results_to_json(run);
	assert_non_null(root);
	assert_true(json_is_false(json_object_get(root, "complete")));
	assert_true(json_is_false(
		json_object_get(case_json_at(root, 1), "complete")));
	json_decref(root);
	free_run(run);
}

static void run_without_cases_is_not_complete(void **state)
{
	struct run_result run = { 0 };

	(void)state;
	assert_false(run_result_complete(&run));
}

static void adding_cases_keeps_the_earlier_ones(void **state)
{
	struct run_result *run = calloc(1, sizeof(*run));
	unsigned int i;

	(void)state;
	assert_non_null(run);
	for (i = 0; i < 20; i++) {
		struct case_result *c = run_result_add_case(run, 3);

		assert_non_null(c);
		assert_int_equal(c->phases_cap, 3);
		assert_int_equal(c->n_phases, 0);
		c->repeat = i + 1;
		c->complete = true;
		/* the phases are zeroed and writable */
		assert_int_equal(c->phases[2].wall_ns, 0);
		c->phases[2].wall_ns = i;
	}
	assert_int_equal(run->n_cases, 20);
	for (i = 0; i < 20; i++) {
		assert_int_equal(run->cases[i].repeat, i + 1);
		assert_int_equal(run->cases[i].phases[2].wall_ns, i);
	}
	assert_true(run_result_complete(run));
	free_run(run);
}

/* a fresh empty directory under $TMPDIR, removed after the test */
struct temp_dir {
	char path[4096];
};

static int temp_dir_setup(void **state)
{
	struct temp_dir *t = calloc(1, sizeof(*t));
	const char *base = getenv("TMPDIR");

	if (!t)
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/fsprof-unit.XXXXXX",
		 base ? base : "/tmp");
	if (!mkdtemp(t->path)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

/* remove dir and what a test left in it (files, empty directories) */
static int temp_dir_teardown(void **state)
{
	struct temp_dir *t = *state;
	struct dirent *e;
	DIR *d = opendir(t->path);

	while (d && (e = readdir(d))) {
		char entry[4400];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(entry, sizeof(entry), "%s/%s", t->path, e->d_name);
		if (unlink(entry))
			rmdir(entry);
	}
	if (d)
		closedir(d);
	rmdir(t->path);
	free(t);
	return 0;
}

/* number of entries in dir besides . and .. */
static int count_dir_entries(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void
json_write_into_a_missing_directory_fails_and_leaves_nothing(void **state)
{
	struct run_result *run = sample_run();
	const char *dir = ((struct temp_dir *)*state)->path;
	char path[4200];
	struct stderr_capture cap;
	const char *said;
	int err;

	snprintf(path, sizeof(path), "%s/missing/results.json", dir);

	assert_int_equal(stderr_capture_begin(&cap), 0);
	err = results_write_json(run, path);
	said = stderr_capture_end(&cap);

	assert_true(err < 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(count_dir_entries(dir), 0);
	/* the error says which file */
	if (!strstr(said, path))
		fail_msg("error does not name %s: \"%s\"", path, said);
	free_run(run);
}

static void
json_write_that_cannot_rename_removes_its_temporary_file(void **state)
{
	struct run_result *run = sample_run();
	const char *dir = ((struct temp_dir *)*state)->path;
	char path[4200];
	struct stderr_capture cap;
	const char *said;
	int err;

	/* the temporary file can be written beside it, the rename must fail */
	snprintf(path, sizeof(path), "%s/taken", dir);
	assert_int_equal(mkdir(path, 0700), 0);

	assert_int_equal(stderr_capture_begin(&cap), 0);
	err = results_write_json(run, path);
	said = stderr_capture_end(&cap);

	assert_true(err < 0);
	assert_int_equal(count_dir_entries(dir), 1);
	assert_int_equal(count_dir_entries(path), 0);
	if (!strstr(said, path))
		fail_msg("error does not name %s: \"%s\"", path, said);
	free_run(run);
}

static void json_write_produces_a_loadable_file_and_no_leftovers(void **state)
{
	struct run_result *run = sample_run();
	const char *dir = ((struct temp_dir *)*state)->path;
	char path[4200];
	json_error_t jerr;
	json_t *root;

	snprintf(path, sizeof(path), "%s/results.json", dir);

	assert_int_equal(results_write_json(run, path), 0);
	root = json_load_file(path, 0, &jerr);
	if (!root)
		fail_msg("json_load_file %s: %s (line %d)", path, jerr.text,
			 jerr.line);
	assert_int_equal(
		json_integer_value(json_object_get(root, "schema_version")),
		RESULTS_SCHEMA_VERSION);
	assert_int_equal(json_array_size(json_object_get(root, "cases")), 1);
	assert_string_equal(json_string_value(json_object_get(
				    phase_json_at(root, 0), "name")),
			    "write");
	/* the temporary file was renamed, not left beside it */
	assert_int_equal(count_dir_entries(dir), 1);
	json_decref(root);
	free_run(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mb_per_s_counts_powers_of_1000_per_second),
		cmocka_unit_test(mib_per_s_counts_powers_of_1024_per_second),
		cmocka_unit_test(cpu_percent_is_user_plus_sys_over_wall),
		cmocka_unit_test(files_per_s_counts_files_per_second),
		cmocka_unit_test(zero_wall_time_gives_zero_rates),
		cmocka_unit_test(
			model_excess_counts_flushes_as_writes_and_checks_bandwidth),
		cmocka_unit_test(
			model_excess_holds_each_member_of_a_stack_to_the_limits),
		cmocka_unit_test(block_total_sums_every_class),
		cmocka_unit_test(latency_percentile_never_exceeds_the_maximum),
		cmocka_unit_test(latency_percentile_of_nothing_is_zero),
		cmocka_unit_test(
			json_rates_agree_with_its_own_bytes_and_wall_time),
		cmocka_unit_test(json_block_total_is_the_sum_of_its_classes),
		cmocka_unit_test(json_percentiles_never_exceed_max_ns),
		cmocka_unit_test(
			untraced_block_result_says_so_and_has_no_classes),
		cmocka_unit_test(dotted_metric_names_nest_by_domain),
		cmocka_unit_test(finished_run_is_complete),
		cmocka_unit_test(interrupted_run_is_not_complete),
		cmocka_unit_test(run_with_an_unfinished_case_is_not_complete),
		cmocka_unit_test(run_without_cases_is_not_complete),
		cmocka_unit_test(adding_cases_keeps_the_earlier_ones),
		cmocka_unit_test_setup_teardown(
			json_write_into_a_missing_directory_fails_and_leaves_nothing,
			temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(
			json_write_that_cannot_rename_removes_its_temporary_file,
			temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(
			json_write_produces_a_loadable_file_and_no_leftovers,
			temp_dir_setup, temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
