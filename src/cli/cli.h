/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands and options: the only place that parses argv. */
#ifndef FSPROF_CLI_H
#define FSPROF_CLI_H

#include <stdio.h>

#include "cli/run_options.h"

/* parse argv and run the subcommand; returns the process exit code */
int cli_main(int argc, char **argv);

void cli_usage(FILE *out);

#endif
