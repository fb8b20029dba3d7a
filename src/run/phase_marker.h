/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines a traced command writes to FSPROF_PHASE_FD: "begin NAME"
 * (NAME: 1..31 of [A-Za-z0-9_.:-]) switches to a new phase, "end" ends the
 * open one. The same grammar as the kernel side (bpf/marker.bpf.c); this is
 * what reports a bad line and applies what the kernel left to userspace.
 */
#ifndef FSPROF_PHASE_MARKER_H
#define FSPROF_PHASE_MARKER_H

#include <stdbool.h>
#include <stddef.h>

#include "fsprof/marker.h"

enum marker_verb { MARKER_VERB_BEGIN, MARKER_VERB_END, MARKER_VERB_BAD };

struct marker_line {
	enum marker_verb verb;
	char name[MARKER_NAME_MAX + 1]; /* begin: the phase's name */
	char why[160]; /* bad: what is wrong with it */
};

/* parse one line, without its newline */
void phase_marker_parse(const char *line, size_t len, struct marker_line *out);

/*
 * The next line of a packet from *pos: *line and *len (no newline); false
 * when none is left. A packet's last line needs no newline.
 */
bool phase_marker_next_line(const char *buf, size_t size, size_t *pos,
			    const char **line, size_t *len);

/* the switches so far: the next id to give, the marked phase open (0: none) */
struct marker_state {
	unsigned int next_phase;
	unsigned int open_phase;
};

/*
 * The switch a well-formed line makes: true and *phase (begin: the new
 * phase; end: the one ended), or false with why (end with no phase open,
 * no phase id left).
 */
bool marker_state_apply(struct marker_state *st, const struct marker_line *ml,
			unsigned int *phase, char *why, size_t why_len);

#endif
