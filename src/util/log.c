// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/log.h"

static enum log_level current_level = LOG_NORMAL;
static char last_error[1024];

void log_set_level(enum log_level level)
{
	current_level = level;
}

enum log_level log_get_level(void)
{
	return current_level;
}

/*
 * What the report wrote to stdout goes out first: a terminal shows both
 * streams, and a line of stderr must not land inside a line of the report
 */
static void log_begin(void)
{
	fflush(stdout);
}

static void log_vprint(const char *prefix, const char *fmt, va_list ap)
{
	log_begin();
	fprintf(stderr, "fsprof: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* printed whole (a guest's error quotes its console: kilobytes); what
 * log_last_error gives a case's error is the first 1023 bytes */
void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	log_vprint("", fmt, ap);
	va_end(ap);
}

const char *log_last_error(void)
{
	return last_error;
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprint("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (current_level < LOG_NORMAL)
		return;
	va_start(ap, fmt);
	log_vprint("", fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (current_level < LOG_VERBOSE)
		return;
	va_start(ap, fmt);
	log_vprint("", fmt, ap);
	va_end(ap);
}

const char *strerror_safe(int err)
{
	static char buf[64];
	const char *s = strerrordesc_np(err);

	if (s)
		return s;
	snprintf(buf, sizeof(buf), "error %d", err);
	return buf;
}
