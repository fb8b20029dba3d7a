/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way to print a usage error: one line, then where the usage is.
 * Every subcommand's errors name that subcommand's --help.
 */
#ifndef FSPROF_CMD_USAGE_H
#define FSPROF_CMD_USAGE_H

/*
 * "fsprof: <message>" and "see 'fsprof CMD --help'" on stderr (CMD is the
 * subcommand that was run: argv[0] of its parser); returns EXIT_USAGE
 */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* no subcommand (or an unknown one): "see 'fsprof --help'"; EXIT_USAGE */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
