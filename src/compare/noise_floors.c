// SPDX-License-Identifier: GPL-2.0
/* The noise floors file: parsing it and looking a metric up. */
#include <errno.h>
#include <stdbool.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/noise_floors.h"

/* "2%", "0.5%" -> 0.02, 0.005; false unless a percentage of 0..100 */
static bool parse_pct(const char *s, size_t len, double *out)
{
	char buf[32], *end;
	double pct;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	pct = strtod(buf, &end);
	if (end == buf || strcmp(end, "%") || !(pct >= 0) || pct > 100)
		return false;
	*out = pct / 100;
	return true;
}

/* one "GLOB\tPCT%\tHOW" line of len characters into row */
static const char *parse_row(const char *line, size_t len,
			     struct noise_floor_row *row)
{
	const char *t1 = memchr(line, '\t', len), *t2;

	if (!t1)
		return "no tab: a row is GLOB<TAB>FLOOR%<TAB>how it was derived";
	t2 = memchr(t1 + 1, '\t', len - (size_t)(t1 + 1 - line));
	if (!t2)
		return "one tab: a row is GLOB<TAB>FLOOR%<TAB>how it was derived";
	if (t1 == line || (size_t)(t1 - line) >= sizeof(row->glob))
		return "the glob is empty or longer than 63 characters";
	if (memchr(t2 + 1, '\t', len - (size_t)(t2 + 1 - line)))
		return "more than 3 tab-separated fields";
	if (!parse_pct(t1 + 1, (size_t)(t2 - t1 - 1), &row->floor))
		return "the floor is not a percentage of 0 to 100 (e.g. 2%)";
	if (t2 + 1 == line + len)
		return "how the floor was derived is empty";
	snprintf(row->glob, sizeof(row->glob), "%.*s", (int)(t1 - line), line);
	snprintf(row->how, sizeof(row->how), "%.*s",
		 (int)(len - (size_t)(t2 + 1 - line)), t2 + 1);
	return NULL;
}

static int add_row(struct noise_floors *nf, const struct noise_floor_row *r)
{
	struct noise_floor_row *bigger =
		realloc(nf->rows, (nf->n + 1) * sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	nf->rows = bigger;
	nf->rows[nf->n++] = *r;
	return 0;
}

int noise_floors_parse(const char *text, struct noise_floors *out, char *err,
		       size_t errlen)
{
	const char *line = text;
	unsigned int lineno = 0;

	out->n = 0;
	out->rows = NULL;
	while (*line) {
		const char *nl = strchrnul(line, '\n'), *why;
		size_t len = (size_t)(nl - line);
		struct noise_floor_row row;

		lineno++;
		if (len && line[0] != '#') {
			why = parse_row(line, len, &row);
			if (why) {
				snprintf(err, errlen, "line %u: %s", lineno,
					 why);
				noise_floors_free(out);
				return -EINVAL;
			}
			if (add_row(out, &row)) {
				noise_floors_free(out);
				return -ENOMEM;
			}
		}
		line = *nl ? nl + 1 : nl;
	}
	if (!out->n || strcmp(out->rows[out->n - 1].glob, "*")) {
		snprintf(err, errlen,
			 "the last row is not '*': a metric no row matches "
			 "would have no floor");
		noise_floors_free(out);
		return -EINVAL;
	}
	return 0;
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
	unsigned int i;

	for (i = 0; i < nf->n; i++)
		if (!fnmatch(nf->rows[i].glob, metric, 0))
			return &nf->rows[i];
	return &nf->rows[nf->n - 1];
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
