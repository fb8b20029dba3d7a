// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/marker_reader.h"
#include "util/clock.h"
#include "util/log.h"

void marker_reader_init(struct marker_reader *mr, int fd,
			struct marker_tracer *kernel, struct live_phases *lp,
			bool by_time)
{
	memset(mr, 0, sizeof(*mr));
	mr->fd = fd;
	mr->kernel = kernel;
	mr->lp = lp;
	mr->by_time = by_time;
	/* phase 1 is the command before its first marker */
	mr->state.next_phase = 2;
}

/* the line as it can be shown on a terminal: controls as ?, cut at size */
static void line_show(const char *line, size_t len, char *out, size_t size)
{
	size_t i, n = len < size - 4 ? len : size - 4;

	for (i = 0; i < n; i++)
		out[i] = (unsigned char)line[i] >= 0x20 && line[i] != 0x7f ?
				 line[i] :
				 '?';
	out[i] = '\0';
	if (n < len)
		strcat(out, "...");
}

static void marker_report(struct marker_reader *mr, const char *line,
			  size_t len, const char *why)
{
	char shown[72];

	mr->bad++;
	if (mr->bad > MARKER_BAD_SHOWN)
		return;
	line_show(line, len, shown, sizeof(shown));
	log_warn(
		"FSPROF_PHASE_FD line %u \"%s\": %s; the line is ignored%s",
		mr->lines, shown, why,
		mr->bad == MARKER_BAD_SHOWN ?
			"; further bad lines are ignored unsaid, counted in trace.marker_lines_bad" :
			"");
}

/* a line the kernel left to userspace: applied now, after its write */
static void marker_line_apply(struct marker_reader *mr, const char *line,
			      size_t len)
{
	struct marker_line ml;
	unsigned int phase;
	char why[160];

	mr->lines++;
	phase_marker_parse(line, len, &ml);
	if (mr->by_time && ml.verb != MARKER_VERB_BAD) {
		marker_report(mr, line, len,
			      "--interval slices the command by time");
		return;
	}
	if (!marker_state_apply(&mr->state, &ml, &phase, why, sizeof(why))) {
		marker_report(mr, line, len, why);
		return;
	}
	if (mr->kernel->skel)
		mr->late++;
	mr->marked = true;
	live_phases_switch(mr->lp,
			   ml.verb == MARKER_VERB_BEGIN ? phase :
							  FSPROF_PHASE_NONE,
			   ml.name, clock_mono_ns(), true);
	marker_tracer_set_state(mr->kernel, mr->state.next_phase,
				mr->state.open_phase);
}

/* one write of the command: the kernel switched already, or it is ours */
static void marker_packet(struct marker_reader *mr, const char *buf, size_t n)
{
	struct marker_entry e = { 0 };
	struct marker_line ml;
	const char *line;
	size_t pos = 0, len;

	if (marker_tracer_entry(mr->kernel, mr->writes++, &e) ||
	    e.action == MARKER_DEFERRED) {
		while (phase_marker_next_line(buf, n, &pos, &line, &len))
			marker_line_apply(mr, line, len);
		return;
	}
	/* one well-formed line, switched at e.at_ns */
	mr->lines++;
	mr->marked = true;
	phase_marker_next_line(buf, n, &pos, &line, &len);
	phase_marker_parse(line, len, &ml);
	if (e.action == MARKER_BEGAN) {
		mr->state.next_phase = e.phase + 1;
		mr->state.open_phase = e.phase;
		live_phases_switch(mr->lp, e.phase, ml.name, e.at_ns, false);
	} else {
		mr->state.open_phase = 0;
		live_phases_switch(mr->lp, FSPROF_PHASE_NONE, "", e.at_ns,
				   false);
	}
}

bool marker_reader_drain(struct marker_reader *mr)
{
	char buf[4097];
	unsigned int i;
	ssize_t n;

	for (i = 0; i < MARKER_DRAIN_PACKETS; i++) {
		n = read(mr->fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			return n < 0 && (errno == EAGAIN || errno == EINTR);
		marker_packet(mr, buf, (size_t)n);
	}
	return true; /* more may wait: the next call reads them */
}
