/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the run is. On a terminal a live line for the running phase: the
 * case counter and phase, a bar (done / total), the rate and the ETA when
 * the workload counts its work, else the seconds so far and the estimate
 * from an earlier repeat; cleared when the phase ends. Drawn only when
 * enabled (stdout is a tty and not --quiet); every call accepts NULL. In a
 * pipe, a line on stderr as each phase starts, with the same counter.
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
	double estimate_s; /* an earlier repeat's wall time, or < 0 */
};

/*
 * The case the run is at: "case 2/6 untar on xfs" (n of total), or
 * "verify round 1/2: untar on ext4 +mkfs -J size=64" (total 0: what is
 * given); what the next phase lines and the live line start with
 */
void progress_case(unsigned int n, unsigned int total, const char *what);

/*
 * the case's workload, parameters and target: an earlier repeat of it (or
 * a --verify round of it) has the same key, and its phases' wall times
 * are the estimates
 */
void progress_case_key(const char *key);

/*
 * A phase starts: its line ("case 2/6 untar on xfs: phase ex-sync ...
 * (about 16 s, as in an earlier repeat)")
 */
void progress_phase_begin(struct progress *p, const char *phase);

/* ... and ended after seconds: the estimate of its next repeat */
void progress_phase_end(struct progress *p, double seconds);

/* redraw a live line with no count of work: the seconds so far */
void progress_tick(struct progress *p);

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
