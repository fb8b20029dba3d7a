// SPDX-License-Identifier: GPL-2.0
/* `fsprof run` option parsing, cli_parse_run() from src/cli/cmd_run.h */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "run/run.h"
#include "stderr_capture.h"
#include "util/log.h"

#define MAX_ARGS (2 * RUN_MAX_WORKLOADS + 4)
#define MAX_ARG_LEN 128

/* what one cli_parse_run() call returned and printed */
struct parse_outcome {
	int rc;
	struct run_options opt;
	struct stderr_capture err;
	/* writable copies of the arguments, as main() gets them */
	char args[MAX_ARGS][MAX_ARG_LEN];
	char *argv[MAX_ARGS + 1];
};

/*
 * cli_parse_run() restarts getopt with optind = 1, which keeps glibc's
 * position inside the previous argv's last short-option cluster; only
 * optind = 0 resets it. Each test parse reuses the same argument buffers, so
 * clear that state first, as a fresh process would have it.
 */
static void getopt_reset(void)
{
	char *none[] = { "reset", NULL };

	optind = 0;
	opterr = 0;
	while (getopt(1, none, "") != -1)
		;
}

/* parse a copy of a NULL-terminated argv whose argv[0] is "run" */
static void parse_argv(struct parse_outcome *out, const char *const *argv)
{
	int argc;

	for (argc = 0; argv[argc]; argc++) {
		assert_true(argc < MAX_ARGS);
		assert_true(strlen(argv[argc]) < MAX_ARG_LEN);
		strcpy(out->args[argc], argv[argc]);
		out->argv[argc] = out->args[argc];
	}
	out->argv[argc] = NULL;
	getopt_reset();
	memset(&out->opt, 0x5a, sizeof(out->opt));
	assert_int_equal(stderr_capture_begin(&out->err), 0);
	out->rc = cli_parse_run(argc, out->argv, &out->opt);
	stderr_capture_end(&out->err);
}

#define PARSE(out, ...) \
	parse_argv(out, (const char *const[]){ "run", ##__VA_ARGS__, NULL })

/* the parse succeeded, quietly */
static void check_accepted(const struct parse_outcome *out)
{
	if (out->rc != 0)
		fail_msg("cli_parse_run returned %d: %s", out->rc,
			 out->err.text);
	assert_string_equal(out->err.text, "");
}

/* the parse was a usage error whose message contains each of words */
static void check_usage_error(const struct parse_outcome *out, const char *word,
			      const char *word2)
{
	if (out->rc != EXIT_USAGE)
		fail_msg("cli_parse_run returned %d, want EXIT_USAGE (%d)",
			 out->rc, EXIT_USAGE);
	if (!strstr(out->err.text, word))
		fail_msg("error does not mention \"%s\": %s", word,
			 out->err.text);
	if (word2 && !strstr(out->err.text, word2))
		fail_msg("error does not mention \"%s\": %s", word2,
			 out->err.text);
}

static void no_options_give_the_defaults(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out);
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 1);
	assert_string_equal(out.opt.workloads[0].name, "seqio");
	assert_null(out.opt.workloads[0].params);
	assert_int_equal(out.opt.n_fs, 1);
	assert_string_equal(out.opt.fs[0].fstype, "ext4");
	assert_string_equal(out.opt.fs[0].mkfs_opts, "");
	assert_string_equal(out.opt.fs[0].mount_opts, "");
	assert_string_equal(out.opt.scratch, "/var/tmp/fsprof");
	assert_int_equal(out.opt.size, 0);
	assert_int_equal(out.opt.image_size, 0);
	assert_int_equal(out.opt.repeat, 1);
	assert_int_equal(out.opt.scale, SCALE_QUICK);
	assert_null(out.opt.json_path);
	assert_false(out.opt.no_trace);
}

static void size_takes_a_binary_unit(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--size", "256M");
	check_accepted(&out);
	assert_int_equal(out.opt.size, 268435456ULL);

	PARSE(&out, "--size=4G", "--image-size", "10G");
	check_accepted(&out);
	assert_int_equal(out.opt.size, 4ULL << 30);
	assert_int_equal(out.opt.image_size, 10ULL << 30);
}

static void zero_size_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--size", "0");
	check_usage_error(&out, "--size", "zero");
}

static void garbage_size_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--size", "lots");
	check_usage_error(&out, "--size", "lots");
	PARSE(&out, "--image-size", "4Kb");
	check_usage_error(&out, "--image-size", "4Kb");
}

static void unknown_option_is_a_usage_error_naming_it(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--bogus");
	check_usage_error(&out, "--bogus", "see 'fsprof run --help'");
	PARSE(&out, "-x");
	check_usage_error(&out, "-x", "see 'fsprof run --help'");
}

/* one line of error and one hint line: the usage would scroll it away */
static void usage_error_is_the_error_and_one_hint_line(void **state)
{
	struct parse_outcome out;
	const char *p;
	int lines = 0;

	(void)state;
	PARSE(&out, "--size", "lots");
	check_usage_error(&out, "'lots' is not a size",
			  "\nsee 'fsprof run --help'\n");
	for (p = out.err.text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	assert_null(strstr(out.err.text, "usage:"));
}

/* --bin 1ns would make 36000 one-nanosecond bins */
static void absurd_durations_are_usage_errors_naming_the_range(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--bin", "1ns");
	check_usage_error(&out, "--bin 1ns is out of range", "1ms to 1h");
	PARSE(&out, "--bin", "2h");
	check_usage_error(&out, "--bin 2h", "1ms to 1h");
	PARSE(&out, "--slow-io", "11min");
	check_usage_error(&out, "--slow-io 11min", "1ns to 10min");
	PARSE(&out, "--bin", "1ms", "--slow-io", "1ns");
	check_accepted(&out);
	assert_int_equal(out.opt.bin_ns, 1000000);
	assert_int_equal(out.opt.slow_io_ns, 1);
}

/* a workload name is copied, and the argument is never written to */
static void workload_option_leaves_its_argument_as_it_was(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "seqio:size=4M");
	check_accepted(&out);
	assert_string_equal(out.opt.workloads[0].name, "seqio");
	assert_string_equal(out.opt.workloads[0].params, "size=4M");
	PARSE(&out, "-w", "averyveryveryverylongworkloadname_beyond_32:x=1");
	check_usage_error(&out, "unknown workload", "averyvery");
}

static void option_without_its_value_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--json");
	check_usage_error(&out, "--json", "needs a value");
	PARSE(&out, "-w");
	check_usage_error(&out, "-w", "needs a value");
	PARSE(&out, "--size");
	check_usage_error(&out, "--size", "needs a value");
}

static void unknown_workload_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "nosuchload");
	check_usage_error(&out, "unknown workload", "nosuchload");
	PARSE(&out, "-w", "nosuchload:size=1M");
	check_usage_error(&out, "unknown workload 'nosuchload'", NULL);
	PARSE(&out, "--workload", "");
	check_usage_error(&out, "unknown workload", NULL);
}

static void cold_takes_phases_of_the_runs_workloads(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "files1m", "--cold", "read,remove");
	check_accepted(&out);
	assert_string_equal(out.opt.cold, "read,remove");
	PARSE(&out, "-w", "files1m", "--cold", "delete");
	check_usage_error(&out, "--cold",
			  "no workload of this run has a phase 'delete'");
	/* warm reads and a cold remove (phase_cache.c says which is which) */
	PARSE(&out, "-w", "files1m", "--cold", "remove", "--warm");
	check_accepted(&out);
	assert_true(out.opt.warm);
	assert_string_equal(out.opt.cold, "remove");
	PARSE(&out, "-w", "files1m", "--cold", "remove", "--dir", "/tmp");
	check_usage_error(&out, "--cold", "--dir");
}

static void age_is_parsed_whole_and_refused_with_why(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "files1m", "--age",
	      "fill=90,sizes=small,pattern=random,delete=30,seed=7");
	check_accepted(&out);
	assert_true(out.opt.age.on);
	assert_int_equal(out.opt.age.fill_pct, 90);
	assert_int_equal(out.opt.age.sizes, AGE_SMALL);
	assert_int_equal(out.opt.age.pattern, AGE_RANDOM);
	assert_int_equal(out.opt.age.delete_pct, 30);
	assert_true(out.opt.age.seed == 7);
	PARSE(&out, "-w", "files1m");
	check_accepted(&out);
	assert_false(out.opt.age.on);
	PARSE(&out, "-w", "files1m", "--age", "fill=99");
	check_usage_error(&out, "fill=99", "give fill=95 or less");
	PARSE(&out, "-w", "files1m", "--age", "fill=90,pattern=zigzag");
	check_usage_error(&out, "unknown pattern", "every-other");
	PARSE(&out, "-w", "files1m", "--age", "fill=50", "--dir", "/tmp");
	check_usage_error(&out, "--age", "--dir");
}

static void stray_argument_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "seqio");
	check_usage_error(&out, "unexpected argument 'seqio'", NULL);
}

static void json_path_and_scratch_dir_are_stored(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--json", "/tmp/out.json", "--scratch", "/srv/scratch",
	      "--no-trace");
	check_accepted(&out);
	assert_string_equal(out.opt.json_path, "/tmp/out.json");
	assert_string_equal(out.opt.scratch, "/srv/scratch");
	assert_true(out.opt.no_trace);
}

static void seqio_workload_is_accepted_short_and_long(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "seqio");
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 1);
	assert_string_equal(out.opt.workloads[0].name, "seqio");
	PARSE(&out, "--workload=seqio");
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 1);
	assert_string_equal(out.opt.workloads[0].name, "seqio");
}

static void workload_parameters_follow_a_colon(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "seqio:size=1M,block=4k");
	check_accepted(&out);
	assert_string_equal(out.opt.workloads[0].name, "seqio");
	assert_string_equal(out.opt.workloads[0].params, "size=1M,block=4k");
}

static void repeated_workload_option_adds_a_workload(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "seqio", "-w", "seqio:size=1M");
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 2);
	assert_null(out.opt.workloads[0].params);
	assert_string_equal(out.opt.workloads[1].params, "size=1M");
}

static void more_workloads_than_fit_is_a_usage_error(void **state)
{
	const char *argv[2 * RUN_MAX_WORKLOADS + 4] = { "run" };
	struct parse_outcome out;
	int i, n = 1;

	(void)state;
	for (i = 0; i <= RUN_MAX_WORKLOADS; i++) {
		argv[n++] = "-w";
		argv[n++] = "seqio";
	}
	argv[n] = NULL;
	parse_argv(&out, argv);
	check_usage_error(&out, "more than", "workloads");
}

static void filesystem_list_is_stored_in_order(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--fs", "ext3,ext4,xfs:mount=logbsize=256k");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 3);
	assert_string_equal(out.opt.fs[0].fstype, "ext3");
	assert_string_equal(out.opt.fs[1].fstype, "ext4");
	assert_string_equal(out.opt.fs[2].fstype, "xfs");
	assert_string_equal(out.opt.fs[2].mount_opts, "logbsize=256k");

	PARSE(&out, "--fs", "ext4:mount='noatime,nodelalloc'");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 1);
	assert_string_equal(out.opt.fs[0].mount_opts, "noatime,nodelalloc");
}

static void targets_get_short_names(void **state)
{
	struct parse_outcome out;

	(void)state;
	/* NAME= as given; else the fstype, #2 for its second target */
	PARSE(&out, "--fs",
	      "old=ext3:mkfs='-b 4096 -m 0':mount='noatime,commit=15',ext4,ext4:mount=nodelalloc,xfs");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 4);
	assert_string_equal(out.opt.fs[0].name, "old");
	assert_string_equal(out.opt.fs[0].fstype, "ext3");
	assert_string_equal(out.opt.fs[0].mkfs_opts, "-b 4096 -m 0");
	assert_string_equal(out.opt.fs[1].name, "ext4");
	assert_string_equal(out.opt.fs[2].name, "ext4#2");
	assert_string_equal(out.opt.fs[3].name, "xfs");
	/* the label stays the full spec, without the name */
	assert_string_equal(out.opt.fs[0].label,
			    "ext3:mkfs='-b 4096 -m 0':mount=noatime,commit=15");
}

static void a_bad_or_repeated_target_name_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--fs", "a=ext4,a=xfs");
	check_usage_error(&out, "--fs", "two filesystems are named 'a'");
	PARSE(&out, "--fs", "my disk=ext4");
	check_usage_error(&out, "--fs", "letters, digits");
	PARSE(&out, "--fs", "=ext4");
	check_usage_error(&out, "--fs", "empty target name");
	PARSE(&out, "--fs", "a-name-that-is-far-too-long-for-a-column=ext4");
	check_usage_error(&out, "--fs", "longer than 31");
}

static void unknown_filesystem_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--fs", "../ext4");
	check_usage_error(&out, "--fs", "../ext4");
	PARSE(&out, "--fs", "ext4,");
	check_usage_error(&out, "--fs", "trailing comma");
	PARSE(&out, "--fs", "");
	check_usage_error(&out, "--fs", "empty");
}

static void repeat_takes_a_count_from_1_to_1000(void **state)
{
	static const char *const bad[] = { "0", "-1", "1001", "3x", "" };
	struct parse_outcome out;
	size_t i;

	(void)state;
	PARSE(&out, "--repeat", "3");
	check_accepted(&out);
	assert_int_equal(out.opt.repeat, 3);
	PARSE(&out, "--repeat=1000");
	check_accepted(&out);
	assert_int_equal(out.opt.repeat, 1000);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		PARSE(&out, "--repeat", bad[i]);
		check_usage_error(&out, "--repeat", "1 to 1000");
	}
}

static void verify_takes_an_optional_count_from_2_to_32(void **state)
{
	static const char *const bad[] = { "--verify=1", "--verify=33",
					   "--verify=x", "--verify=" };
	struct parse_outcome out;
	size_t i;

	(void)state;
	PARSE(&out, "-w", "seqio");
	check_accepted(&out);
	assert_false(out.opt.verify);
	PARSE(&out, "--verify");
	check_accepted(&out);
	assert_true(out.opt.verify);
	assert_int_equal(out.opt.verify_repeats, 0);
	PARSE(&out, "--verify=5");
	check_accepted(&out);
	assert_true(out.opt.verify);
	assert_int_equal(out.opt.verify_repeats, 5);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		PARSE(&out, bad[i]);
		check_usage_error(&out, "--verify", "2 to 32");
	}
}

static void scale_is_quick_unless_full_is_asked_for(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--scale", "full");
	check_accepted(&out);
	assert_int_equal(out.opt.scale, SCALE_FULL);
	PARSE(&out, "--scale=quick");
	check_accepted(&out);
	assert_int_equal(out.opt.scale, SCALE_QUICK);
	PARSE(&out, "--scale", "huge");
	check_usage_error(&out, "--scale", "huge");
}

static void unknown_suite_is_a_usage_error(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--suite", "modern");
	check_usage_error(&out, "unknown suite 'modern'", "classic");
}

/* the suite's workloads in order; -w gives one of them its parameters */
static void suite_classic_takes_parameters_from_w(void **state)
{
	static const char *const order[] = { "seqio", "files1m", "untar",
					     "bonnie", "afd" };
	struct parse_outcome out;
	unsigned int i;

	(void)state;
	PARSE(&out, "--suite", "classic");
	check_accepted(&out);
	assert_string_equal(out.opt.suite, "classic");
	assert_int_equal(out.opt.n_workloads, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(out.opt.workloads[i].name, order[i]);
		assert_null(out.opt.workloads[i].params);
	}
	/* after the suite: its files1m takes them, no sixth workload */
	PARSE(&out, "--suite", "classic", "-w", "files1m:files=20");
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 5);
	assert_string_equal(out.opt.workloads[1].params, "files=20");
	/* before it: the suite does not add a second files1m */
	PARSE(&out, "-w", "files1m:files=30", "--suite", "classic");
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 5);
	assert_string_equal(out.opt.workloads[0].name, "files1m");
	assert_string_equal(out.opt.workloads[0].params, "files=30");
	/* a second -w of it is a second workload, as without the suite */
	PARSE(&out, "--suite", "classic", "-w", "afd:files=9", "-w",
	      "afd:files=8");
	check_accepted(&out);
	assert_int_equal(out.opt.n_workloads, 6);
	assert_string_equal(out.opt.workloads[4].params, "files=9");
	assert_string_equal(out.opt.workloads[5].params, "files=8");
	/* without --suite no suite is recorded */
	PARSE(&out, "-w", "afd");
	check_accepted(&out);
	assert_string_equal(out.opt.suite, "");
}

/* the --fs labels of the targets workload i of out runs on, joined by , */
static void planned_targets(const struct parse_outcome *out, unsigned int i,
			    char *buf, size_t len)
{
	unsigned int t;
	size_t off = 0;

	buf[0] = '\0';
	for (t = 0; t < out->opt.n_fs; t++)
		if (workload_on_target(&out->opt.workloads[i], t))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? "," : "",
						out->opt.fs[t].label);
}

/* without --fs each experiment runs on its original's targets; --fs
 * runs every workload on those given, and --dir on the one there */
static void suite_classic_runs_each_original_on_its_targets(void **state)
{
	static const char *const want[] = {
		"ext3,ext4", "ext3,ext4", "ext4,xfs,xfs:mount=logbsize=256k",
		"ext3,ext4", "ext3,ext4",
	};
	struct parse_outcome out;
	char got[512];
	unsigned int i;

	(void)state;
	PARSE(&out, "--suite", "classic", "-w", "untar:files=50");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 4);
	/* the union in the order first named, named as --fs would name it */
	assert_string_equal(out.opt.fs[0].label, "ext3");
	assert_string_equal(out.opt.fs[2].name, "xfs");
	assert_string_equal(out.opt.fs[3].name, "xfs#2");
	for (i = 0; i < 5; i++) {
		planned_targets(&out, i, got, sizeof(got));
		assert_string_equal(got, want[i]);
	}
	/* a workload no original ran: every target of the suite */
	PARSE(&out, "--suite", "classic", "-w", "mdcreate");
	check_accepted(&out);
	planned_targets(&out, 5, got, sizeof(got));
	assert_string_equal(got, "ext3,ext4,xfs,xfs:mount=logbsize=256k");
	/* --fs, before or after the suite, overrides: every workload */
	PARSE(&out, "--fs", "ext4,xfs", "--suite", "classic");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 2);
	for (i = 0; i < 5; i++) {
		assert_int_equal(out.opt.workloads[i].fs_mask, 0);
		planned_targets(&out, i, got, sizeof(got));
		assert_string_equal(got, "ext4,xfs");
	}
	PARSE(&out, "--dir", "/mnt", "--suite", "classic");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 1);
	assert_int_equal(out.opt.workloads[2].fs_mask, 0);
	/* no suite: the default target, every workload on it */
	PARSE(&out, "-w", "untar");
	check_accepted(&out);
	assert_int_equal(out.opt.n_fs, 1);
	assert_int_equal(out.opt.workloads[0].fs_mask, 0);
}

static void verbose_and_quiet_set_the_log_level(void **state)
{
	struct parse_outcome out;
	enum log_level was = log_get_level();

	(void)state;
	PARSE(&out, "-v");
	check_accepted(&out);
	assert_int_equal(log_get_level(), LOG_VERBOSE);
	PARSE(&out, "--quiet");
	check_accepted(&out);
	assert_int_equal(log_get_level(), LOG_QUIET);
	log_set_level(was);
}

/* --kernel: each guest's fsprof run gets the run's options, not the host's
 * (where results go, the history, the scratch, the kernels themselves) */
static void guests_get_the_runs_options_but_not_the_hosts(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "-w", "fsync:files=50", "--kernel", "6.1,6.12", "--fs",
	      "ext4,xfs", "--json", "/tmp/ab.json", "--repeat", "2", "--db",
	      "/tmp/h.db", "--kernel-timeout", "5min", "-q");
	check_accepted(&out);
	assert_string_equal(out.opt.kernels, "6.1,6.12");
	assert_int_equal(out.opt.kernel_timeout_ns, 300000000000ULL);
	assert_int_equal(out.opt.n_guest_args, 3);
	assert_string_equal(out.opt.guest_args[0].name, "workload");
	assert_string_equal(out.opt.guest_args[0].value, "fsync:files=50");
	assert_string_equal(out.opt.guest_args[1].name, "fs");
	assert_string_equal(out.opt.guest_args[2].name, "repeat");
	assert_string_equal(out.opt.guest_args[2].value, "2");
}

static void kernel_options_need_kernel_and_exclude_dir(void **state)
{
	struct parse_outcome out;

	(void)state;
	PARSE(&out, "--kernel-timeout", "5min");
	check_usage_error(&out, "--kernel-timeout", "--kernel LIST");
	PARSE(&out, "--kernel", "6.1", "--dir", "/tmp");
	check_usage_error(&out, "--kernel", "--dir");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_options_give_the_defaults),
		cmocka_unit_test(size_takes_a_binary_unit),
		cmocka_unit_test(zero_size_is_a_usage_error),
		cmocka_unit_test(garbage_size_is_a_usage_error),
		cmocka_unit_test(unknown_option_is_a_usage_error_naming_it),
		cmocka_unit_test(usage_error_is_the_error_and_one_hint_line),
		cmocka_unit_test(
			absurd_durations_are_usage_errors_naming_the_range),
		cmocka_unit_test(workload_option_leaves_its_argument_as_it_was),
		cmocka_unit_test(option_without_its_value_is_a_usage_error),
		cmocka_unit_test(unknown_workload_is_a_usage_error),
		cmocka_unit_test(stray_argument_is_a_usage_error),
		cmocka_unit_test(json_path_and_scratch_dir_are_stored),
		cmocka_unit_test(seqio_workload_is_accepted_short_and_long),
		cmocka_unit_test(workload_parameters_follow_a_colon),
		cmocka_unit_test(repeated_workload_option_adds_a_workload),
		cmocka_unit_test(more_workloads_than_fit_is_a_usage_error),
		cmocka_unit_test(filesystem_list_is_stored_in_order),
		cmocka_unit_test(targets_get_short_names),
		cmocka_unit_test(
			a_bad_or_repeated_target_name_is_a_usage_error),
		cmocka_unit_test(unknown_filesystem_is_a_usage_error),
		cmocka_unit_test(repeat_takes_a_count_from_1_to_1000),
		cmocka_unit_test(verify_takes_an_optional_count_from_2_to_32),
		cmocka_unit_test(scale_is_quick_unless_full_is_asked_for),
		cmocka_unit_test(unknown_suite_is_a_usage_error),
		cmocka_unit_test(suite_classic_takes_parameters_from_w),
		cmocka_unit_test(
			suite_classic_runs_each_original_on_its_targets),
		cmocka_unit_test(verbose_and_quiet_set_the_log_level),
		cmocka_unit_test(guests_get_the_runs_options_but_not_the_hosts),
		cmocka_unit_test(kernel_options_need_kernel_and_exclude_dir),
		cmocka_unit_test(cold_takes_phases_of_the_runs_workloads),
		cmocka_unit_test(age_is_parsed_whole_and_refused_with_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
