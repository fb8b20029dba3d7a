/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Phase markers a traced command writes to FSPROF_PHASE_FD (a packet-mode
 * pipe: one write, one packet), shared between bpf/marker.bpf.c and
 * userspace. The kernel side switches the phase in the write's own system
 * call, before it returns, when the write is exactly one well-formed line
 * ("begin NAME" or "end", an optional newline); it logs what it did for
 * every write on the pipe, in order. Anything else is left to userspace,
 * which reads the same writes in the same order, parses them
 * (src/run/phase_marker.c) and applies or reports them.
 */
#ifndef FSPROF_MARKER_H
#define FSPROF_MARKER_H

/* a phase name: 1..31 of [A-Za-z0-9_.:-] */
#define MARKER_NAME_MAX 31
/* the longest write the kernel side parses ("begin " + name + "\n") */
#define MARKER_WRITE_MAX 40
/* writes remembered; userspace reads them long before the log wraps */
#define MARKER_LOG_LEN 256

enum marker_action {
	MARKER_DEFERRED, /* left to userspace */
	MARKER_BEGAN, /* began phase */
	MARKER_ENDED, /* ended phase (0 runs now) */
};

struct marker_entry {
	unsigned long long at_ns; /* when the kernel switched */
	unsigned int action; /* enum marker_action */
	unsigned int phase; /* the phase begun or ended */
};

#endif
