// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "cli/cmd_usage.h"
#include "run/run.h"

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fsprof: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'fsprof %s --help'\n", cmd);
	return EXIT_USAGE;
}

/*
 * A usage error: the problem on one line, then where the full usage is (as
 * git does; 72 lines of usage would scroll the error out of sight).
 */
static int vusage_error(const char *hint, const char *fmt, va_list ap)
{
	fprintf(stderr, "fsprof: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nsee '%s'\n", hint);
	return EXIT_USAGE;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vusage_error("fsprof --help", fmt, ap);
	va_end(ap);
	return code;
}

int cli_run_usage_error(const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vusage_error("fsprof run --help", fmt, ap);
	va_end(ap);
	return code;
}
