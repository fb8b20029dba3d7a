/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for people, at most TEXT_WIDTH columns: a line wrapped at word
 * boundaries, its continuation lines indented under the text.
 */
#ifndef FSPROF_REPORT_WRAP_H
#define FSPROF_REPORT_WRAP_H

#include <stdio.h>

#define TEXT_WIDTH 100

/* the columns s takes on a terminal: colour escapes take none */
unsigned int visible_len(const char *s);

/*
 * indent spaces, lead, then text wrapped at TEXT_WIDTH; continuation lines
 * start under the text (indent + lead's width), and a newline ends it.
 */
void text_wrapped(FILE *out, unsigned int indent, const char *lead,
		  const char *text);

/*
 * printf-formatted text from column 0, wrapped at TEXT_WIDTH, continuation
 * lines indented by hang; a newline ends it.
 */
void text_hanging(FILE *out, unsigned int hang, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
