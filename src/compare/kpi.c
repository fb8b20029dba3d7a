// SPDX-License-Identifier: GPL-2.0
/* The KPI file (data/kpi.tsv): parsing it and looking a metric up. */
#include <errno.h>
#include <fnmatch.h>
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

static const char *row_add(void *ctx, const struct tsv_row *r)
{
	struct kpi_table *t = ctx;
	struct kpi_row row, *bigger;

	if (r->n != 4)
		return "a row is GLOB<TAB>DIRECTION<TAB>KPI<TAB>why";
	if (!r->f[0][0] || strlen(r->f[0]) >= sizeof(row.glob))
		return "the glob is empty or longer than 63 characters";
	if (!dir_parse(r->f[1], &row.dir))
		return "the direction is not higher, lower or none";
	if (strcmp(r->f[2], "yes") && strcmp(r->f[2], "no"))
		return "KPI is not yes or no";
	if (!r->f[3][0])
		return "the reason is empty";
	row.key = !strcmp(r->f[2], "yes");
	snprintf(row.glob, sizeof(row.glob), "%s", r->f[0]);
	snprintf(row.why, sizeof(row.why), "%s", r->f[3]);
	bigger = realloc(t->rows, (t->n + 1) * sizeof(*bigger));
	if (!bigger)
		return "out of memory";
	t->rows = bigger;
	t->rows[t->n++] = row;
	return NULL;
}

int kpi_parse(const char *text, struct kpi_table *out, char *err,
	      size_t errlen)
{
	int ret;

	out->n = 0;
	out->rows = NULL;
	ret = tsv_each_row(text, row_add, out, err, errlen);
	if (!ret && (!out->n || strcmp(out->rows[out->n - 1].glob, "*"))) {
		snprintf(err, errlen,
			 "the last row is not '*': a metric no row matches "
			 "would have no direction");
		ret = -EINVAL;
	}
	if (ret)
		kpi_free(out);
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
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!fnmatch(t->rows[i].glob, metric, 0))
			return &t->rows[i];
	return &t->rows[t->n - 1];
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
