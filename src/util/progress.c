// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "util/clock.h"
#include "util/progress.h"

#define PROGRESS_BAR 24
#define PROGRESS_REDRAW_NS 100000000ULL

void progress_init(struct progress *p, FILE *out, bool enabled,
		   const char *label)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->enabled = enabled;
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
	char bar[PROGRESS_BAR + 1], rate[32], eta[32];
	int i, fill;

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
	snprintf(buf, len, "%-10s [%s] %3.0f%%  %s  %s", p->label, bar,
		 frac * 100, rate, eta);
}

void progress_set(struct progress *p, uint64_t done)
{
	uint64_t now;
	char line[160];

	if (!p)
		return;
	p->done = done;
	if (!p->enabled)
		return;
	now = clock_mono_ns();
	if (p->drawn && now - p->last_draw_ns < PROGRESS_REDRAW_NS)
		return;
	p->last_draw_ns = now;
	progress_render(p, now, line, sizeof(line));
	fprintf(p->out, "\r%s\033[K", line);
	fflush(p->out);
	p->drawn = true;
}

void progress_clear(struct progress *p)
{
	if (!p || !p->enabled || !p->drawn)
		return;
	fprintf(p->out, "\r\033[K");
	fflush(p->out);
	p->drawn = false;
}
