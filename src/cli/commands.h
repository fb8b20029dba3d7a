/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands cli_main dispatches to, one file each in src/cli/: argv
 * starts at the subcommand's name; each returns the process exit code.
 */
#ifndef FSPROF_COMMANDS_H
#define FSPROF_COMMANDS_H

/* fsprof report FILE [--format F] (cmd_report.c) */
int cli_report(int argc, char **argv);

/* fsprof runs [--db PATH] [--label L] [--workload W] [--fs F] (cmd_runs.c) */
int cli_runs(int argc, char **argv);

#endif
