/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands and options: the only place that parses argv. */
#ifndef FSPROF_CLI_H
#define FSPROF_CLI_H

#include "cli/cmd_run.h"

/* parse argv and run the subcommand; returns the process exit code */
int cli_main(int argc, char **argv);

#endif
