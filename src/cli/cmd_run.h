/* SPDX-License-Identifier: GPL-2.0 */
/* fsprof run's usage, and the argv of run, trace and record parsed. */
#ifndef FSPROF_CLI_CMD_RUN_H
#define FSPROF_CLI_CMD_RUN_H

#include <stdio.h>

#include "cli/options.h"
#include "run/run.h"

/*
 * Parse `fsprof run` options (argv[0] is "run") into opt. Returns 0,
 * EXIT_USAGE after printing the problem and the hint to stderr, or
 * CLI_HELP_SHOWN after printing the usage.
 */
int cli_parse_run(int argc, char **argv, struct run_options *opt);

/*
 * The options of cmd (run, trace or record; argv[0] is its name), and
 * their cross checks; trace's CMD ARGS... are the operands. As
 * cli_parse_run.
 */
int cli_parse_options(const struct cli_command *cmd, int argc, char **argv,
		      struct run_options *opt);

/* fsprof --help: the commands, run's options, the exit codes */
void cli_usage(FILE *out);

#endif
