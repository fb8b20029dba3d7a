// SPDX-License-Identifier: GPL-2.0
/* The noise floors file: parsing it and looking a metric up. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/noise_floors.h"
#include "util/tsv.h"

/* "2%", "0.5%" -> 0.02, 0.005; false unless a percentage of 0..100 */
static bool parse_pct(const char *s, double *out)
{
	char *end;
	double pct;

	pct = strtod(s, &end);
	if (end == s || strcmp(end, "%") || !(pct >= 0) || pct > 100)
		return false;
	*out = pct / 100;
	return true;
}

_Static_assert(offsetof(struct noise_floor_row, glob) == 0 &&
		       sizeof(((struct noise_floor_row *)0)->glob) ==
			       TSV_GLOB_LEN,
	       "a glob table's row begins with its glob");

/* the floor and derivation of a "GLOB\tPCT%\tHOW" row */
static const char *floor_fill(void *row, const struct tsv_row *r)
{
	struct noise_floor_row *nfr = row;

	if (r->n == 1)
		return "no tab: a row is GLOB<TAB>FLOOR%<TAB>how it was derived";
	if (r->n == 2)
		return "one tab: a row is GLOB<TAB>FLOOR%<TAB>how it was derived";
	if (r->n > 3)
		return "more than 3 tab-separated fields";
	if (!parse_pct(r->f[1], &nfr->floor))
		return "the floor is not a percentage of 0 to 100 (e.g. 2%)";
	if (!r->f[2][0])
		return "how the floor was derived is empty";
	snprintf(nfr->how, sizeof(nfr->how), "%s", r->f[2]);
	return NULL;
}

int noise_floors_parse(const char *text, struct noise_floors *out, char *err,
		       size_t errlen)
{
	struct tsv_glob_table t = { .row_size = sizeof(*out->rows),
				     .fill = floor_fill,
				     .lacking = "floor" };
	int ret = tsv_glob_table_parse(&t, text, err, errlen);

	out->rows = t.rows;
	out->n = t.n;
	return ret;
}

void noise_floors_free(struct noise_floors *nf)
{
	free(nf->rows);
	nf->rows = NULL;
	nf->n = 0;
}

const struct noise_floor_row *noise_floors_lookup(const struct noise_floors *nf,
						  const char *metric)
{
	const struct noise_floor_row *row =
		tsv_glob_lookup(nf->rows, nf->n, sizeof(*nf->rows), metric);

	return row ? row : &nf->rows[nf->n - 1];
}

const struct noise_floors *noise_floors_builtin(void)
{
	static struct noise_floors nf;
	static bool parsed;
	char err[160];

	if (parsed)
		return &nf;
	if (noise_floors_parse(noise_floors_tsv, &nf, err, sizeof(err))) {
		fprintf(stderr,
			"fsprof: the built-in data/noise-floors.tsv: %s\n",
			err);
		return NULL;
	}
	parsed = true;
	return &nf;
}
