// SPDX-License-Identifier: GPL-2.0
/* Rows of a tab-separated data file, one at a time. */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

static const char *glob_row_add(void *ctx, const struct tsv_row *r)
{
	struct tsv_glob_table *t = ctx;
	char *bigger, *row;
	const char *why;

	if (!r->f[0][0] || strlen(r->f[0]) >= TSV_GLOB_LEN)
		return "the glob is empty or longer than 63 characters";
	bigger = realloc(t->rows, (t->n + 1) * t->row_size);
	if (!bigger)
		return "out of memory";
	t->rows = bigger;
	row = bigger + t->n * t->row_size;
	memset(row, 0, t->row_size);
	snprintf(row, TSV_GLOB_LEN, "%s", r->f[0]);
	why = t->fill(row, r);
	if (!why)
		t->n++;
	return why;
}

int tsv_glob_table_parse(struct tsv_glob_table *t, const char *text,
			 char *err, size_t errlen)
{
	int ret;

	t->n = 0;
	t->rows = NULL;
	ret = tsv_each_row(text, glob_row_add, t, err, errlen);
	if (!ret && (!t->n || strcmp((char *)t->rows + (t->n - 1) * t->row_size,
				     "*"))) {
		snprintf(err, errlen,
			 "the last row is not '*': a metric no row matches "
			 "would have no %s",
			 t->lacking);
		ret = -EINVAL;
	}
	if (ret) {
		free(t->rows);
		t->rows = NULL;
		t->n = 0;
	}
	return ret;
}

const void *tsv_glob_lookup(const void *rows, unsigned int n, size_t row_size,
			    const char *name)
{
	const char *row = rows;
	unsigned int i;

	for (i = 0; i < n; i++, row += row_size)
		if (!fnmatch(row, name, 0))
			return row;
	return NULL;
}
