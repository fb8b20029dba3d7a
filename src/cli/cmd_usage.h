/* SPDX-License-Identifier: GPL-2.0 */
/* A subcommand's usage error: one line, then where its usage is. */
#ifndef FSPROF_CMD_USAGE_H
#define FSPROF_CMD_USAGE_H

/*
 * "fsprof: CMD: <message>" and "see 'fsprof CMD --help'" on stderr;
 * returns EXIT_USAGE
 */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "fsprof: <message>" and "see 'fsprof --help'"; returns EXIT_USAGE */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* a bad `fsprof run` option: "see 'fsprof run --help'"; returns EXIT_USAGE */
int cli_run_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
