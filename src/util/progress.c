// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/progress.h"

/* the case the run is at, and the phases' last wall times by key */
#define PROGRESS_KEYS 256

static char run_case[200];
static struct {
	char key[400];
	double seconds;
} seen[PROGRESS_KEYS];
static unsigned int n_seen;
static char cur_key[400];

static char case_key[300];

void progress_case_key(const char *key)
{
	snprintf(case_key, sizeof(case_key), "%s", key);
}

void progress_case(unsigned int n, unsigned int total, const char *what)
{
	if (total)
		snprintf(run_case, sizeof(run_case), "case %u/%u %s", n, total,
			 what);
	else
		snprintf(run_case, sizeof(run_case), "%s", what);
}

static int seen_find(const char *key)
{
	unsigned int i;

	for (i = 0; i < n_seen; i++)
		if (!strcmp(seen[i].key, key))
			return (int)i;
	return -1;
}

void progress_phase_begin(struct progress *p, const char *phase)
{
	int i;

	snprintf(cur_key, sizeof(cur_key), "%s|%s", case_key, phase);
	i = seen_find(cur_key);
	if (p)
		p->estimate_s = i >= 0 ? seen[i].seconds : -1;
	if (i >= 0)
		log_info(
			"%s%sphase %s ... (about %.0f s, as in an earlier repeat)",
			run_case, run_case[0] ? ": " : "", phase,
			seen[i].seconds);
	else
		log_info("%s%sphase %s ...", run_case, run_case[0] ? ": " : "",
			 phase);
}

void progress_phase_end(struct progress *p, double seconds)
{
	int i = seen_find(cur_key);

	(void)p;
	if (i < 0 && n_seen < PROGRESS_KEYS)
		i = (int)n_seen++;
	if (i < 0)
		return;
	snprintf(seen[i].key, sizeof(seen[i].key), "%s", cur_key);
	seen[i].seconds = seconds;
}

#define PROGRESS_BAR 24
#define PROGRESS_REDRAW_NS 100000000ULL

void progress_init(struct progress *p, FILE *out, bool enabled,
		   const char *label)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->enabled = enabled;
	p->estimate_s = -1;
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->start_ns = clock_mono_ns();
}

void progress_total(struct progress *p, uint64_t total, enum progress_unit unit)
{
	if (!p)
		return;
	p->total = total;
	p->unit = unit;
}

static void rate_text(const struct progress *p, double per_s, char *buf,
		      size_t len)
{
	switch (p->unit) {
	case PROGRESS_BYTES:
		snprintf(buf, len, "%.1f MB/s", per_s / 1e6);
		break;
	case PROGRESS_FILES:
		snprintf(buf, len, "%.0f files/s", per_s);
		break;
	case PROGRESS_OPS:
		snprintf(buf, len, "%.0f ops/s", per_s);
		break;
	}
}

void progress_render(const struct progress *p, uint64_t now_ns, char *buf,
		     size_t len)
{
	double secs = (double)(now_ns - p->start_ns) / 1e9;
	double frac = p->total ? (double)p->done / (double)p->total : 0;
	double per_s = secs > 0 ? (double)p->done / secs : 0;
	char bar[PROGRESS_BAR + 1], rate[32], eta[48], where[256];
	int i, fill;

	snprintf(where, sizeof(where), "%s%s%-10s", run_case,
		 run_case[0] ? ": " : "", p->label);
	/* no count of the work (a sync): the seconds so far, the estimate */
	if (!p->total) {
		if (p->estimate_s >= 0)
			snprintf(eta, sizeof(eta), " of about %.0f s",
				 p->estimate_s);
		else
			eta[0] = '\0';
		snprintf(buf, len, "%s %.0f s%s", where, secs, eta);
		return;
	}
	if (frac > 1)
		frac = 1;
	fill = (int)(frac * PROGRESS_BAR);
	for (i = 0; i < PROGRESS_BAR; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[PROGRESS_BAR] = '\0';
	rate_text(p, per_s, rate, sizeof(rate));
	if (per_s > 0 && p->total > p->done)
		snprintf(eta, sizeof(eta), "ETA %.0fs",
			 (double)(p->total - p->done) / per_s);
	else
		snprintf(eta, sizeof(eta), "ETA -");
	snprintf(buf, len, "%s [%s] %3.0f%%  %s  %s", where, bar, frac * 100,
		 rate, eta);
}

/* the workload's thread and the ticker's draw the one line in turn */
static pthread_mutex_t draw_lock = PTHREAD_MUTEX_INITIALIZER;

static void progress_draw(struct progress *p)
{
	uint64_t now = clock_mono_ns();
	char line[400];

	pthread_mutex_lock(&draw_lock);
	if (p->drawn && now - p->last_draw_ns < PROGRESS_REDRAW_NS) {
		pthread_mutex_unlock(&draw_lock);
		return;
	}
	p->last_draw_ns = now;
	progress_render(p, now, line, sizeof(line));
	fprintf(p->out, "\r%s\033[K", line);
	fflush(p->out);
	p->drawn = true;
	pthread_mutex_unlock(&draw_lock);
}

void progress_tick(struct progress *p)
{
	if (!p || !p->enabled || p->total)
		return;
	progress_draw(p);
}

void progress_set(struct progress *p, uint64_t done)
{
	if (!p)
		return;
	p->done = done;
	if (p->enabled)
		progress_draw(p);
}

void progress_clear(struct progress *p)
{
	if (!p || !p->enabled)
		return;
	pthread_mutex_lock(&draw_lock);
	if (p->drawn) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
		p->drawn = false;
	}
	pthread_mutex_unlock(&draw_lock);
}
