/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands cli_main dispatches to, one file each in src/cli/: argv
 * starts at the subcommand's name; each returns the process exit code.
 */
#ifndef FSPROF_COMMANDS_H
#define FSPROF_COMMANDS_H

/* fsprof report FILE [--format F] (cmd_report.c) */
int cli_report(int argc, char **argv);

/* fsprof runs [--db PATH] [--label L] [--workload W] [--fs F] [--format F]
 * (cmd_runs.c) */
int cli_runs(int argc, char **argv);

/* fsprof diff A B [options] (cmd_diff.c) */
int cli_diff(int argc, char **argv);

/* fsprof trace [options] -- CMD ARGS... (cmd_trace.c) */
int cli_trace(int argc, char **argv);

/* fsprof record --dir PATH [--duration D] [--interval D] (cmd_record.c) */
int cli_record(int argc, char **argv);

/* fsprof phase NAME | --end: a marker line to FSPROF_PHASE_FD (cmd_phase.c) */
int cli_phase(int argc, char **argv);

/* fsprof bisect-step --good RUN --metric M --threshold PCT [...]
 * (cmd_bisect.c): 0 good, 1 bad, 125 cannot tell, 128 error */
int cli_bisect(int argc, char **argv);

#endif
