// SPDX-License-Identifier: GPL-2.0
/* Rows of a tab-separated data file, one at a time. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/tsv.h"

/* split a line of len characters at tabs; false when too long or wide */
static bool row_split(const char *line, size_t len, struct tsv_row *r)
{
	char *p, *tab;

	if (len >= sizeof(r->buf))
		return false;
	memcpy(r->buf, line, len);
	r->buf[len] = '\0';
	r->n = 0;
	for (p = r->buf;; p = tab + 1) {
		if (r->n == TSV_MAX_FIELDS)
			return false;
		r->f[r->n++] = p;
		tab = strchr(p, '\t');
		if (!tab)
			return true;
		*tab = '\0';
	}
}

int tsv_each_row(const char *text, tsv_row_fn fn, void *ctx, char *err,
		 size_t errlen)
{
	static const char too_big[] =
		"a row longer than 2047 characters or of more than 8 fields";
	const char *line = text;
	unsigned int lineno = 0;
	struct tsv_row row;

	while (*line) {
		const char *nl = strchrnul(line, '\n'), *why = NULL;
		size_t len = (size_t)(nl - line);

		lineno++;
		if (len && line[0] != '#')
			why = row_split(line, len, &row) ? fn(ctx, &row) :
							   too_big;
		if (why) {
			snprintf(err, errlen, "line %u: %s", lineno, why);
			return strcmp(why, "out of memory") ? -EINVAL : -ENOMEM;
		}
		line = *nl ? nl + 1 : nl;
	}
	return 0;
}
