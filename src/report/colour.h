/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Colour in the text report: only when the stream is a terminal and
 * NO_COLOR (https://no-color.org) is not set to a non-empty value. Files,
 * pipes and saved reports stay plain text.
 */
#ifndef FSPROF_REPORT_COLOUR_H
#define FSPROF_REPORT_COLOUR_H

#include <stdbool.h>
#include <stdio.h>

enum colour_role {
	COLOUR_WARNING, /* a warning finding's tag */
	COLOUR_INFO,
	COLOUR_OK,
	COLOUR_HEADING, /* "untar on ext4" */
};

/* should text written to out be coloured? */
bool colour_enabled(FILE *out);

/* the escape sequence that starts role, "" when out is not coloured */
const char *colour_start(FILE *out, enum colour_role role);

/* the one that ends it, "" when out is not coloured */
const char *colour_end(FILE *out);

#endif
