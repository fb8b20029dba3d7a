// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof record --dir PATH [--duration D] [--interval D]: a live
 * filesystem traced with no command of ours, every process its workload.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/run_options.h"
#include "run/record_cmd.h"

static void record_usage(FILE *out)
{
	fprintf(out,
		"usage: fsprof record --dir PATH [--duration D] [--interval D]\n"
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
		"\n"
		"  (and --scratch, --device-model, --json, --csv, --html, --trace,\n"
		"   --openmetrics, --probes, --bin, --slow-io, -v, -q as for fsprof run)\n"
		"\n"
		"exit codes: 0 ok; 1 the recording failed; 2 usage error; 3 this\n"
		"environment cannot trace; 143 / 129 after SIGTERM / SIGHUP.\n");
}

int cli_record(int argc, char **argv)
{
	struct run_options opt;
	int err;

	if (argc == 2 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		record_usage(stdout);
		return EXIT_OK;
	}
	err = cli_parse_options(argc, argv, &opt, CLI_RECORD);
	if (err)
		return err;
	if (!opt.dir)
		return cmd_usage_error(
			"record",
			"--dir PATH: the mounted filesystem to record");
	if (opt.device || opt.n_workloads || opt.repeat > 1 || opt.verify ||
	    opt.no_trace || opt.warm || opt.size || opt.image_size)
		return cmd_usage_error(
			"record",
			"record traces what runs on PATH: --device, -w, --fs, --repeat, --verify, --no-trace, --warm, --size, --image-size do not apply");
	if (opt.format && strcmp(opt.format, "text"))
		return cmd_usage_error("record", "--format %s needs a workload",
				       opt.format);
	return record_command(&opt);
}
