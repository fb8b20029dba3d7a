// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "fsprof/phase.h"
#include "run/phase_marker.h"

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

static void marker_bad(struct marker_line *out, const char *fmt,
		       const char *arg)
{
	out->verb = MARKER_VERB_BAD;
	snprintf(out->why, sizeof(out->why), fmt, arg);
}

static void parse_name(const char *name, size_t len, struct marker_line *out)
{
	char shown[MARKER_NAME_MAX + 8];
	size_t i;

	if (!len) {
		marker_bad(out, "begin needs a phase name (begin NAME)%s", "");
		return;
	}
	if (len > MARKER_NAME_MAX) {
		snprintf(shown, sizeof(shown), "%zu", len);
		marker_bad(
			out,
			"a phase name of %s characters: at most 31 (MARKER_NAME_MAX)",
			shown);
		return;
	}
	for (i = 0; i < len; i++) {
		if (name_char(name[i]))
			continue;
		if ((unsigned char)name[i] >= 0x20 && name[i] != 0x7f)
			snprintf(shown, sizeof(shown), "'%c'", name[i]);
		else
			snprintf(shown, sizeof(shown), "byte 0x%02x",
				 (unsigned char)name[i]);
		marker_bad(
			out,
			"the phase name has %s: names are made of A-Z a-z 0-9 _ . : -",
			shown);
		return;
	}
	out->verb = MARKER_VERB_BEGIN;
	memcpy(out->name, name, len);
	out->name[len] = '\0';
}

void phase_marker_parse(const char *line, size_t len, struct marker_line *out)
{
	char verb[16];
	size_t n;

	memset(out, 0, sizeof(*out));
	if (len == 3 && !memcmp(line, "end", 3)) {
		out->verb = MARKER_VERB_END;
		return;
	}
	if (len >= 6 && !memcmp(line, "begin ", 6)) {
		parse_name(line + 6, len - 6, out);
		return;
	}
	if (len == 5 && !memcmp(line, "begin", 5)) {
		parse_name(line, 0, out);
		return;
	}
	if (len > 3 && !memcmp(line, "end", 3) && line[3] == ' ') {
		marker_bad(out,
			   "end takes no name (a line is begin NAME or end)%s",
			   "");
		return;
	}
	if (!len) {
		marker_bad(out, "an empty line (a line is begin NAME or end)%s",
			   "");
		return;
	}
	for (n = 0; n < len && n < sizeof(verb) - 1 && line[n] != ' '; n++)
		verb[n] = (unsigned char)line[n] >= 0x20 ? line[n] : '?';
	verb[n] = '\0';
	marker_bad(out, "unknown verb '%s' (a line is begin NAME or end)",
		   verb);
}

bool phase_marker_next_line(const char *buf, size_t size, size_t *pos,
			    const char **line, size_t *len)
{
	const char *nl;

	if (*pos >= size)
		return false;
	*line = buf + *pos;
	nl = memchr(*line, '\n', size - *pos);
	*len = nl ? (size_t)(nl - *line) : size - *pos;
	*pos += *len + (nl ? 1 : 0);
	return true;
}

bool marker_state_apply(struct marker_state *st, const struct marker_line *ml,
			unsigned int *phase, char *why, size_t why_len)
{
	if (ml->verb == MARKER_VERB_END) {
		if (!st->open_phase) {
			snprintf(why, why_len, "end with no phase open");
			return false;
		}
		*phase = st->open_phase;
		st->open_phase = 0;
		return true;
	}
	if (ml->verb != MARKER_VERB_BEGIN) {
		snprintf(why, why_len, "%s", ml->why);
		return false;
	}
	if (st->next_phase >= FSPROF_MAX_PHASES) {
		snprintf(
			why, why_len,
			"no phase id left: fsprof attributes at most %d phases per case",
			FSPROF_MAX_PHASES - 1);
		return false;
	}
	*phase = st->next_phase++;
	st->open_phase = *phase;
	return true;
}
