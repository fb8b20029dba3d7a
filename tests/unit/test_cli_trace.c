// SPDX-License-Identifier: GPL-2.0
/* trace and record options: cli_parse_options() from src/cli/cmd_run.h */
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

#define MAX_ARGS 16

struct parse {
	int rc;
	struct run_options opt;
	struct stderr_capture err;
	char *argv[MAX_ARGS + 1];
	char args[MAX_ARGS][64];
};

static struct parse p;

/* parse the NULL-terminated arguments (argv[0] is the subcommand) */
static int parse_args(enum cli_cmd mode, const char *const *args)
{
	const struct cli_command cmd = {
		.id = mode,
		.operand_ends_options = mode == CLI_TRACE,
		.no_operands = mode != CLI_TRACE,
	};
	int n;

	memset(&p, 0, sizeof(p));
	for (n = 0; args[n] && n < MAX_ARGS; n++) {
		snprintf(p.args[n], sizeof(p.args[n]), "%s", args[n]);
		p.argv[n] = p.args[n];
	}
	p.argv[n] = NULL;
	optind = 0;
	assert_int_equal(stderr_capture_begin(&p.err), 0);
	p.rc = cli_parse_options(&cmd, n, p.argv, &p.opt);
	stderr_capture_end(&p.err);
	return p.rc;
}

static void trace_takes_the_command_after_its_options(void **state)
{
	const char *const dashes[] = { "trace", "--fs", "xfs",	  "--",
				       "sh",	"-c",	"exit 3", NULL };
	const char *const bare[] = { "trace", "--interval", "10s", "ls",
				     "-l",    "--json",	    "x",   NULL };

	(void)state;
	assert_int_equal(parse_args(CLI_TRACE, dashes), 0);
	assert_int_equal(p.opt.n_command, 3);
	assert_string_equal(p.opt.command[0], "sh");
	assert_string_equal(p.opt.command[1], "-c");
	assert_null(p.opt.command[3]); /* execv's terminator */
	assert_string_equal(p.opt.fs[0].fstype, "xfs");
	assert_int_equal(p.opt.n_workloads, 0); /* no default seqio */
	/* the first non-option begins CMD: its options are its own */
	assert_int_equal(parse_args(CLI_TRACE, bare), 0);
	assert_int_equal(p.opt.interval_ns, 10000000000ULL);
	assert_int_equal(p.opt.n_command, 4);
	assert_string_equal(p.opt.command[0], "ls");
	assert_string_equal(p.opt.command[2], "--json");
	assert_null(p.opt.json_path);
}

static void live_durations_and_openmetrics_parse(void **state)
{
	const char *const rec[] = { "record",	   "--dir", "/srv",
				    "--duration",  "1.5s",  "--openmetrics",
				    "/tmp/x.prom", NULL };
	const char *const tiny[] = { "record",	   "--dir", "/srv",
				     "--interval", "10ms",  NULL };
	const char *const stray[] = { "record", "--dir", "/srv", "ls", NULL };

	(void)state;
	assert_int_equal(parse_args(CLI_RECORD, rec), 0);
	assert_int_equal(p.opt.duration_ns, 1500000000ULL);
	assert_string_equal(p.opt.openmetrics_path, "/tmp/x.prom");
	assert_string_equal(p.opt.dir, "/srv");
	assert_int_equal(parse_args(CLI_RECORD, tiny), EXIT_USAGE);
	assert_non_null(strstr(p.err.text, "--interval 10ms is out of range"));
	assert_int_equal(parse_args(CLI_RECORD, stray), EXIT_USAGE);
	assert_non_null(strstr(p.err.text, "unexpected argument 'ls'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trace_takes_the_command_after_its_options),
		cmocka_unit_test(live_durations_and_openmetrics_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
