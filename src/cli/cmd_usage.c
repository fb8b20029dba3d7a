// SPDX-License-Identifier: GPL-2.0
/*
 * A usage error: the problem on one line, then where the full usage is (as
 * git does; 72 lines of usage would scroll the error out of sight).
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli/cmd_usage.h"
#include "run/run.h"

static int vusage_error(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "fsprof: ");
	vfprintf(stderr, fmt, ap);
	if (cmd)
		fprintf(stderr, "\nsee 'fsprof %s --help'\n", cmd);
	else
		fprintf(stderr, "\nsee 'fsprof --help'\n");
	return EXIT_USAGE;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vusage_error(cmd, fmt, ap);
	va_end(ap);
	return code;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vusage_error(NULL, fmt, ap);
	va_end(ap);
	return code;
}
