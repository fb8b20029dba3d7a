// SPDX-License-Identifier: GPL-2.0
/* The KPI file (data/kpi.tsv): parsing it and looking a metric up. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/kpi.h"
#include "util/tsv.h"

static const char *const dir_names[] = {
	[KPI_DIR_NONE] = "none",
	[KPI_LOWER_BETTER] = "lower",
	[KPI_HIGHER_BETTER] = "higher",
};

const char *kpi_dir_name(enum kpi_dir d)
{
	return d <= KPI_HIGHER_BETTER ? dir_names[d] : "?";
}

static bool dir_parse(const char *s, enum kpi_dir *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(dir_names) / sizeof(dir_names[0]); i++)
		if (!strcmp(s, dir_names[i])) {
			*out = (enum kpi_dir)i;
			return true;
		}
	return false;
}

_Static_assert(offsetof(struct kpi_row, glob) == 0 &&
		       sizeof(((struct kpi_row *)0)->glob) == TSV_GLOB_LEN,
	       "a glob table's row begins with its glob");

/* the direction, KPI and reason of a "GLOB\tDIR\tKPI\tWHY" row */
static const char *kpi_fill(void *row, const struct tsv_row *r)
{
	struct kpi_row *k = row;

	if (r->n != 4)
		return "a row is GLOB<TAB>DIRECTION<TAB>KPI<TAB>why";
	if (!dir_parse(r->f[1], &k->dir))
		return "the direction is not higher, lower or none";
	if (strcmp(r->f[2], "yes") && strcmp(r->f[2], "no"))
		return "KPI is not yes or no";
	if (!r->f[3][0])
		return "the reason is empty";
	k->key = !strcmp(r->f[2], "yes");
	snprintf(k->why, sizeof(k->why), "%s", r->f[3]);
	return NULL;
}

int kpi_parse(const char *text, struct kpi_table *out, char *err,
	      size_t errlen)
{
	struct tsv_glob_table t = { .row_size = sizeof(*out->rows),
				     .fill = kpi_fill,
				     .lacking = "direction" };
	int ret = tsv_glob_table_parse(&t, text, err, errlen);

	out->rows = t.rows;
	out->n = t.n;
	return ret;
}

void kpi_free(struct kpi_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

const struct kpi_row *kpi_lookup(const struct kpi_table *t, const char *metric)
{
	const struct kpi_row *row =
		tsv_glob_lookup(t->rows, t->n, sizeof(*t->rows), metric);

	return row ? row : &t->rows[t->n - 1];
}

const struct kpi_table *kpi_builtin(void)
{
	static struct kpi_table t;
	static bool parsed;
	char err[160];

	if (parsed)
		return &t;
	if (kpi_parse(kpi_tsv, &t, err, sizeof(err))) {
		fprintf(stderr, "fsprof: the built-in data/kpi.tsv: %s\n", err);
		return NULL;
	}
	parsed = true;
	return &t;
}

enum kpi_dir kpi_direction(const char *metric)
{
	const struct kpi_table *t = kpi_builtin();

	return t ? kpi_lookup(t, metric)->dir : KPI_DIR_NONE;
}

bool kpi_is_key(const char *metric)
{
	const struct kpi_table *t = kpi_builtin();

	return t && kpi_lookup(t, metric)->key;
}
