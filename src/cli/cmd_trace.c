// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof trace [target and tracing options] [--interval D] -- CMD ARGS...:
 * profile any command, with the phases it marks itself.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/run_options.h"
#include "run/trace_cmd.h"

static void trace_usage(FILE *out)
{
	fprintf(out,
		"usage: fsprof trace [--fs TARGET | --dir PATH | --device DEV [--force]]\n"
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
		"\n"
		"  --image-size S      the image (default 4G, sparse)\n"
		"  --openmetrics FILE  also write the per-phase metrics, time budget and\n"
		"                      findings in OpenMetrics text (written atomically)\n"
		"  (and --fs, --dir, --device, --force, --scratch, --device-model,\n"
		"   --json, --csv, --html, --trace, --no-trace, --probes, --bin,\n"
		"   --slow-io, -v, -q as for fsprof run)\n"
		"\n"
		"exit status: CMD's own (128+N when a signal N ended it); 127 when CMD\n"
		"is not found, 126 when it cannot be executed; fsprof's own failures\n"
		"1 (run failed), 2 (usage), 3 (environment). SIGINT, SIGTERM and SIGHUP\n"
		"go to CMD's process group; fsprof waits for it, tears everything down,\n"
		"reports the phases that ended (the case marked incomplete) and exits\n"
		"128+N.\n");
}

int cli_trace(int argc, char **argv)
{
	struct run_options opt;
	int err;

	if (argc == 2 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		trace_usage(stdout);
		return EXIT_OK;
	}
	err = cli_parse_options(argc, argv, &opt, CLI_TRACE);
	if (err)
		return err;
	if (!opt.n_command)
		return cmd_usage_error(
			"trace",
			"no command: fsprof trace [options] -- CMD ARGS...");
	if (opt.n_workloads)
		return cmd_usage_error(
			"trace",
			"-w runs a workload: use fsprof run, or give trace a command");
	if (opt.repeat > 1 || opt.verify)
		return cmd_usage_error(
			"trace",
			"--repeat and --verify re-run a workload; trace runs CMD once");
	if (opt.n_fs > 1)
		return cmd_usage_error(
			"trace", "--fs: trace runs CMD on one target, not %u",
			opt.n_fs);
	if (opt.duration_ns)
		return cmd_usage_error(
			"trace",
			"--duration is for fsprof record; trace ends with CMD");
	if (opt.format && strcmp(opt.format, "text"))
		return cmd_usage_error("trace", "--format %s needs a workload",
				       opt.format);
	return trace_command(&opt, opt.command);
}
