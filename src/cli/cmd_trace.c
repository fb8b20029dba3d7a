// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof trace [target and tracing options] [--interval D] -- CMD ARGS...:
 * profile any command, with the phases it marks itself.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/cmd_run.h"
#include "run/trace_cmd.h"

static void trace_usage(FILE *out)
{
	fputs("usage: fsprof trace [--fs TARGET | --dir PATH | --device DEV [--force]]\n"
	      "                    [run's target, tracing and output options]\n"
	      "                    [--interval D] [--openmetrics FILE] -- CMD ARGS...\n"
	      "\n"
	      "Runs CMD on a target fsprof sets up as `fsprof run` does (or in a new\n"
	      "directory under --dir), traced as the workload with every process it\n"
	      "starts, and reports it as run reports a workload. CMD runs in the\n"
	      "target's directory, also given as $FSPROF_DIR.\n"
	      "\n"
	      "Phases: CMD (or any child) writes a line 'begin NAME' or 'end' to the\n"
	      "file descriptor $FSPROF_PHASE_FD, or runs `fsprof phase NAME` /\n"
	      "`fsprof phase --end`; the switch takes effect in the kernel before the\n"
	      "write returns. NAME: 1-31 of A-Z a-z 0-9 _ . : -. Without markers the\n"
	      "whole command is one phase, 'cmd'; --interval D cuts it into time\n"
	      "phases of D (100ms to 24h). A bad line is reported, with its number and\n"
	      "text, and ignored.\n"
	      "\n",
	      out);
	cli_options_print(CLI_TRACE, out);
	fputs("\n"
	      "exit status: CMD's own (128+N when a signal N ended it); 127 when CMD\n"
	      "is not found, 126 when it cannot be executed; fsprof's own failures\n"
	      "1 (run failed), 2 (usage), 3 (environment). SIGINT, SIGTERM and SIGHUP\n"
	      "go to CMD's process group; fsprof waits for it, tears everything down,\n"
	      "reports the phases that ended (the case marked incomplete) and exits\n"
	      "128+N.\n",
	      out);
}

int cli_trace(int argc, char **argv)
{
	static const struct cli_command trace = {
		.id = CLI_TRACE,
		.usage = trace_usage,
		.operand_ends_options = true,
	};
	struct run_options opt;
	int err;

	err = cli_parse_options(&trace, argc, argv, &opt);
	if (err)
		return cli_parse_exit(err);
	if (!opt.n_command)
		return cmd_usage_error(
			"trace",
			"no command: fsprof trace [options] -- CMD ARGS...");
	if (opt.n_fs > 1)
		return cmd_usage_error(
			"trace", "--fs: trace runs CMD on one target, not %u",
			opt.n_fs);
	return trace_command(&opt, opt.command);
}
