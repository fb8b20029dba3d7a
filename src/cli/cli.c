// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof's dispatch to its subcommands, and the small ones: list, cleanup,
 * check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "run/run_command.h"
#include "target/leftovers.h"
#include "target/scratch.h"
#include "util/stage.h"
#include "version.h"
#include "workload/workload.h"

static void list_workloads(FILE *out)
{
	const struct workload_def *const *all;
	unsigned int n, i, j;

	all = workload_all(&n);
	for (i = 0; i < n; i++) {
		const struct workload_def *w = all[i];

		fprintf(out, "%s\n  %s\n  phases:", w->name, w->description);
		for (j = 0; j < w->n_phases; j++)
			fprintf(out, " %s", w->phases[j].name);
		fprintf(out, "\n");
		for (j = 0; j < w->n_params; j++)
			fprintf(out, "  %-12s %s (quick %s, full %s)\n",
				w->params[j].key, w->params[j].help,
				w->params[j].quick, w->params[j].full);
		if (i + 1 < n)
			fputc('\n', out);
	}
}

static void list_usage(FILE *out)
{
	fputs("usage: fsprof list workloads | fsprof list probes [--deep]\n"
	      "\n"
	      "workloads: every workload, its phases and parameters.\n"
	      "probes: every BPF program, attached on this kernel, missing\n"
	      "(no such tracepoint) or failed, and why.\n"
	      "\n",
	      out);
	cli_options_print(CLI_LIST, out);
	fputs("\n"
	      "exit codes: 0 ok; 2 usage error; 3 this environment cannot\n"
	      "load BPF (probes).\n",
	      out);
}

static int cli_list(int argc, char **argv)
{
	static const struct cli_command list = { .id = CLI_LIST,
						 .usage = list_usage };
	struct cli_values v = { 0 };
	int first, err;

	err = cli_options_parse(&list, argc, argv, &v, &first);
	if (err)
		return cli_parse_exit(err);
	if (first == argc)
		return cmd_usage_error(
			"list",
			"list what? (fsprof list workloads | probes [--deep])");
	if (first + 1 < argc)
		return cmd_usage_error("list",
				       "unknown argument '%s' for list %s",
				       argv[first + 1], argv[first]);
	if (!strcmp(argv[first], "probes"))
		return run_list_probes(v.deep);
	if (strcmp(argv[first], "workloads"))
		return cmd_usage_error(
			"list",
			"unknown argument '%s' for list (fsprof list workloads | probes [--deep])",
			argv[first]);
	if (v.deep)
		return cmd_usage_error(
			"list", "--deep is for list probes, not workloads");
	list_workloads(stdout);
	return EXIT_OK;
}

static void cleanup_usage(FILE *out)
{
	fputs("usage: fsprof cleanup [--scratch DIR] [--dry-run]\n"
	      "\n"
	      "Remove what killed fsprof runs left in DIR (default " SCRATCH_DEFAULT
	      "):\n"
	      "their loop devices, mounts, device-model engines, images and\n"
	      "directories, as far as their state files (DIR/fsprof-PID.state)\n"
	      "prove them theirs. A run still alive is left alone.\n"
	      "\n",
	      out);
	cli_options_print(CLI_CLEANUP, out);
	fputs("\n"
	      "exit codes: 0 nothing left; 1 something could not be removed (said);\n"
	      "2 usage error; 3 DIR cannot be read.\n",
	      out);
}

/* fsprof cleanup [--scratch DIR] [--dry-run] */
static int cli_cleanup(int argc, char **argv)
{
	static const struct cli_command cleanup = { .id = CLI_CLEANUP,
						    .usage = cleanup_usage,
						    .no_operands = true };
	struct cli_values v;
	int first, failed;

	failed = cli_options_parse(&cleanup, argc, argv, &v, &first);
	if (failed)
		return cli_parse_exit(failed);
	failed = leftovers_cleanup(v.scratch ? v.scratch : SCRATCH_DEFAULT,
				   v.dry_run);
	if (failed < 0)
		return EXIT_ENVIRONMENT;
	return failed ? EXIT_RUN_FAILED : EXIT_OK;
}

static void check_usage(FILE *out)
{
	fputs("usage: fsprof check [--format text|json] [--scratch DIR]\n"
	      "\n"
	      "Report whether this machine can run fsprof, and why not:\n"
	      "privileges, BTF, kernel features, tools.\n"
	      "\n",
	      out);
	cli_options_print(CLI_CHECK, out);
	fputs("\n"
	      "exit codes: 0 it can; 2 usage error; 3 it cannot (said why).\n",
	      out);
}

static int cli_check(int argc, char **argv)
{
	static const struct cli_command check = { .id = CLI_CHECK,
						  .usage = check_usage,
						  .no_operands = true };
	struct cli_values v;
	int first, err;

	err = cli_options_parse(&check, argc, argv, &v, &first);
	if (err)
		return cli_parse_exit(err);
	return check_command(v.json, v.scratch);
}

int cli_main(int argc, char **argv)
{
	struct run_options opt;
	const char *cmd;
	int err;

	stage_mark("main");
	if (argc < 2) {
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "run")) {
		err = cli_parse_run(argc - 1, argv + 1, &opt);
		return err ? cli_parse_exit(err) : run_command(&opt);
	}
	if (!strcmp(cmd, "cleanup"))
		return cli_cleanup(argc - 1, argv + 1);
	if (!strcmp(cmd, "runs"))
		return cli_runs(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cli_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cli_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return cli_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return cli_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "record"))
		return cli_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "phase"))
		return cli_phase(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cli_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "bisect-step"))
		return cli_bisect(argc - 1, argv + 1);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h")) {
		/* fsprof help COMMAND: that command's --help */
		if (argc == 3 && !strcmp(cmd, "help") &&
		    strcmp(argv[2], "help") && argv[2][0] != '-') {
			char *sub[] = { argv[0], argv[2], "--help", NULL };

			return cli_main(3, sub);
		}
		if (argc > 2)
			return cli_usage_error("unknown argument '%s' for %s",
					       argv[2], cmd);
		cli_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		if (argc > 2)
			return cli_usage_error(
				"unknown argument '%s' for version", argv[2]);
		printf("fsprof %s\n", FSPROF_VERSION);
		return EXIT_OK;
	}
	return cli_usage_error("unknown command '%s'", cmd);
}
