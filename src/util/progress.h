/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live line for the running phase on a terminal: a bar (done / total), the
 * rate and the ETA, cleared when the phase ends. Drawn only when enabled
 * (stdout is a tty and not --quiet); every call accepts NULL.
 */
#ifndef FSPROF_PROGRESS_H
#define FSPROF_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum progress_unit { PROGRESS_BYTES, PROGRESS_FILES, PROGRESS_OPS };

struct progress {
	bool enabled;
	FILE *out;
	char label[48];
	enum progress_unit unit;
	uint64_t total, done;
	uint64_t start_ns, last_draw_ns;
	bool drawn;
};

void progress_init(struct progress *p, FILE *out, bool enabled,
		   const char *label);

/* what 100% is, and in which unit */
void progress_total(struct progress *p, uint64_t total,
		    enum progress_unit unit);

/* done so far; redraws at most ten times a second */
void progress_set(struct progress *p, uint64_t done);

/* erase the line */
void progress_clear(struct progress *p);

/* render the line into buf (for tests): "write [####....]  45% ..." */
void progress_render(const struct progress *p, uint64_t now_ns, char *buf,
		     size_t len);

#endif
