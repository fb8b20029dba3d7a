/* SPDX-License-Identifier: GPL-2.0 */
/* The options of `fsprof run`, and of trace and record, which take run's. */
#ifndef FSPROF_CLI_RUN_OPTIONS_H
#define FSPROF_CLI_RUN_OPTIONS_H

#include "run/run.h"

/*
 * Parse `fsprof run` options (argv[0] is "run") into opt. Returns 0, or
 * EXIT_USAGE after printing the problem and the usage to stderr.
 */
int cli_parse_run(int argc, char **argv, struct run_options *opt);

/* which subcommand's options: trace takes CMD after them, record no -w */
enum cli_mode { CLI_RUN, CLI_TRACE, CLI_RECORD };

/* run's options for mode (argv[0] is the subcommand); 0 or EXIT_USAGE */
int cli_parse_options(int argc, char **argv, struct run_options *opt,
		      enum cli_mode mode);

#endif
