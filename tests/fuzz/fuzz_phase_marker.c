// SPDX-License-Identifier: GPL-2.0
/*
 * The FSPROF_PHASE_FD line parser (run/phase_marker.c): a packet split into
 * lines, each line a begin, an end or a bad line with a reason, and the
 * switches applied: a begin names 1..31 characters, phase ids only grow.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "run/phase_marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct marker_state st = { .next_phase = 1, .open_phase = 0 };
	const char *buf = (const char *)data, *line;
	unsigned int phase, last = 0;
	struct marker_line ml;
	size_t pos = 0, len;
	char why[160];

	while (phase_marker_next_line(buf, size, &pos, &line, &len)) {
		FUZZ_ASSERT(line >= buf && line + len <= buf + size);
		phase_marker_parse(line, len, &ml);
		if (ml.verb == MARKER_VERB_BAD) {
			FUZZ_ASSERT(ml.why[0]);
			continue;
		}
		if (ml.verb == MARKER_VERB_BEGIN)
			FUZZ_ASSERT(ml.name[0] &&
				    strlen(ml.name) <= MARKER_NAME_MAX);
		if (marker_state_apply(&st, &ml, &phase, why, sizeof(why)) &&
		    ml.verb == MARKER_VERB_BEGIN) {
			FUZZ_ASSERT(phase > last);
			last = phase;
		}
	}
	return 0;
}
