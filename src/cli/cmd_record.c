// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof record --dir PATH [--duration D] [--interval D]: a live
 * filesystem traced with no command of ours, every process its workload.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/cmd_run.h"
#include "run/record_cmd.h"

static void record_usage(FILE *out)
{
	fputs("usage: fsprof record --dir PATH [--duration D] [--interval D]\n"
	      "                     [--openmetrics FILE] [run's tracing and output options]\n"
	      "\n"
	      "Traces the filesystem mounted at PATH (its device) while the system\n"
	      "runs, for --duration D (100ms to 24h), or until SIGINT (Ctrl-C ends\n"
	      "the recording; it is not an interruption). Every process is the\n"
	      "workload; each phase names the 10 processes that issued the most\n"
	      "block IO. --interval D cuts the recording into time phases of D.\n"
	      "fsprof makes one empty directory, PATH/fsprof.XXXXXX, and removes it.\n"
	      "There is no time budget (no one workload's threads to follow), and no\n"
	      "CPU share.\n"
	      "\n",
	      out);
	cli_options_print(CLI_RECORD, out);
	fputs("\n"
	      "exit codes: 0 ok; 1 the recording failed; 2 usage error; 3 this\n"
	      "environment cannot trace; 143 / 129 after SIGTERM / SIGHUP.\n",
	      out);
}

int cli_record(int argc, char **argv)
{
	static const struct cli_command record = { .id = CLI_RECORD,
						   .usage = record_usage,
						   .no_operands = true };
	struct run_options opt;
	int err;

	err = cli_parse_options(&record, argc, argv, &opt);
	if (err)
		return cli_parse_exit(err);
	if (!opt.dir)
		return cmd_usage_error(
			"record",
			"--dir PATH: the mounted filesystem to record");
	return record_command(&opt);
}
