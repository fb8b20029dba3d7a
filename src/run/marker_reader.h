/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reading side of FSPROF_PHASE_FD: every packet (one write of the
 * command) paired with what the kernel did with it (trace/marker.h); a
 * write the kernel switched is booked at the kernel's time, any other is
 * parsed (run/phase_marker.h) and applied now, or reported with its line.
 */
#ifndef FSPROF_MARKER_READER_H
#define FSPROF_MARKER_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "run/live_phases.h"
#include "run/phase_marker.h"
#include "trace/marker.h"

struct marker_reader {
	int fd; /* the pipe's read end, non-blocking */
	struct marker_tracer *kernel; /* its skel NULL: no kernel side */
	struct live_phases *lp;
	bool by_time; /* --interval: lines are read, reported, ignored */
	struct marker_state state;
	uint64_t writes; /* packets read: write k pairs with marker log k */
	unsigned int lines, bad, late;
	bool marked; /* a marker switched the phase */
};

void marker_reader_init(struct marker_reader *mr, int fd,
			struct marker_tracer *kernel, struct live_phases *lp,
			bool by_time);

/*
 * At most this many packets a call: a command that writes to the pipe as
 * fast as it is read (its output sent there by mistake: yes >&FD) kept
 * the read loop from ever ending, and fsprof from its stop signals and
 * the command's exit. The pipe holds 16 packets (a page each): a call
 * reads all a writer that is gone left.
 */
#define MARKER_DRAIN_PACKETS 64

/*
 * The bad lines said one by one, the first this many; the rest counted
 * (trace.marker_lines_bad): yes >&FD made a million warning lines in 3 s
 */
#define MARKER_BAD_SHOWN 10

/*
 * the packets waiting, up to MARKER_DRAIN_PACKETS; false once no writer is
 * left
 */
bool marker_reader_drain(struct marker_reader *mr);

#endif
