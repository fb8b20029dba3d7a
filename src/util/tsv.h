/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tab-separated data files fsprof embeds (data/NAME.tsv): rows of fields
 * split at tabs, blank lines and "#" comments skipped, and an error that
 * names the line a row was refused at.
 */
#ifndef FSPROF_UTIL_TSV_H
#define FSPROF_UTIL_TSV_H

#include <stddef.h>

#define TSV_MAX_FIELDS 8
#define TSV_ROW_LEN 2048

struct tsv_row {
	unsigned int n; /* fields */
	char *f[TSV_MAX_FIELDS];
	char buf[TSV_ROW_LEN];
};

/* NULL, or why the row is refused ("out of memory" gives -ENOMEM) */
typedef const char *(*tsv_row_fn)(void *ctx, const struct tsv_row *row);

/*
 * fn on every row of text in order. 0; -EINVAL with "line N: why" in err
 * (a row too long or wide, or one fn refused); -ENOMEM.
 */
int tsv_each_row(const char *text, tsv_row_fn fn, void *ctx, char *err,
		 size_t errlen);

/*
 * A glob table: rows whose first field is a glob (fnmatch) a name is looked
 * up by, the first match winning, and whose last row is "*", so that every
 * name has one. Each row struct begins with char glob[TSV_GLOB_LEN].
 */
#define TSV_GLOB_LEN 64

/* the rest of row (its glob set) from the fields of r; NULL or why not */
typedef const char *(*tsv_glob_fill)(void *row, const struct tsv_row *r);

struct tsv_glob_table {
	size_t row_size;
	tsv_glob_fill fill;
	const char *lacking; /* what a name no row matches would lack */
	unsigned int n;
	void *rows; /* malloc'd: the caller frees it */
};

/*
 * t's rows from text (row_size, fill and lacking set). 0; -EINVAL with
 * "line N: why" in err, or a last row that is not "*"; -ENOMEM. On error
 * t has no rows.
 */
int tsv_glob_table_parse(struct tsv_glob_table *t, const char *text,
			 char *err, size_t errlen);

/* the first of n rows of row_size bytes whose glob matches name, or NULL */
const void *tsv_glob_lookup(const void *rows, unsigned int n, size_t row_size,
			    const char *name);

#endif
