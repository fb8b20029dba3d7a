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

#endif
