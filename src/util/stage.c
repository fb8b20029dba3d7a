// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/stage.h"

/*
 * marks kept before the log level is known: main's, the one mark before
 * the options are parsed; without -v every later mark returns at once
 */
#define STAGE_PENDING 1

struct stage {
	char name[64];
	uint64_t mono_ns;
	double cpu_ms;
	long rss_kib, peak_kib;
};

static struct stage pending[STAGE_PENDING];
static unsigned int n_pending;

/*
 * VmRSS and VmHWM from /proc/self/status: getrusage's ru_maxrss would
 * carry the peak of the process that spawned this one (an exec keeps it)
 */
static void rss_read(long *rss_kib, long *peak_kib)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	*rss_kib = *peak_kib = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "VmHWM:", 6))
			*peak_kib = strtol(line + 6, NULL, 10);
		else if (!strncmp(line, "VmRSS:", 6))
			*rss_kib = strtol(line + 6, NULL, 10);
	}
	fclose(f);
}

static void stage_log(const struct stage *s)
{
	log_debug("stage: %s at %llu ns, cpu %.1f ms, rss %ld kB, peak %ld kB",
		  s->name, (unsigned long long)s->mono_ns, s->cpu_ms,
		  s->rss_kib, s->peak_kib);
}

void stage_mark(const char *fmt, ...)
{
	struct stage s = { .mono_ns = clock_mono_ns() };
	struct rusage ru;
	bool verbose = log_get_level() >= LOG_VERBOSE;
	unsigned int i;
	va_list ap;

	if (!verbose && n_pending == STAGE_PENDING)
		return; /* not asked for */
	va_start(ap, fmt);
	vsnprintf(s.name, sizeof(s.name), fmt, ap);
	va_end(ap);
	if (!getrusage(RUSAGE_SELF, &ru))
		s.cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
				   1e3 +
			   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
				   1e3;
	rss_read(&s.rss_kib, &s.peak_kib);
	if (!verbose) {
		pending[n_pending++] = s;
		return;
	}
	for (i = 0; i < n_pending; i++)
		stage_log(&pending[i]);
	n_pending = 0;
	stage_log(&s);
}
