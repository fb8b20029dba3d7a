/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which way is better for a metric, and whether it is a KPI (a headline:
 * workload throughput, wall time of a phase, fsync and tail latency), as
 * data: rows of GLOB, DIRECTION, KPI and why, from data/kpi.tsv (embedded
 * at build time). The first row whose glob matches a metric's name, as
 * fsprof diff names it (fnmatch), decides; the last row is "*".
 */
#ifndef FSPROF_KPI_H
#define FSPROF_KPI_H

#include <stdbool.h>
#include <stddef.h>

enum kpi_dir {
	KPI_DIR_NONE, /* neither way is better: a mechanism's count */
	KPI_LOWER_BETTER,
	KPI_HIGHER_BETTER,
};

struct kpi_row {
	char glob[64];
	enum kpi_dir dir;
	bool key; /* a KPI */
	char why[256];
};

struct kpi_table {
	unsigned int n;
	struct kpi_row *rows;
};

/*
 * Parse the text of a KPI file: lines "GLOB\tDIRECTION\tKPI\tWHY" with
 * DIRECTION higher, lower or none and KPI yes or no, blank lines and "#"
 * comments skipped. 0, -ENOMEM, or -EINVAL with the line and what is wrong
 * with it in err.
 */
int kpi_parse(const char *text, struct kpi_table *out, char *err,
	      size_t errlen);

void kpi_free(struct kpi_table *t);

/* the first row matching metric (the "*" row at worst) */
const struct kpi_row *kpi_lookup(const struct kpi_table *t,
				 const char *metric);

/*
 * The embedded data/kpi.tsv, parsed at the first call and kept; the build
 * and a unit test check the file, so this cannot fail but for memory
 * (NULL, with the reason printed).
 */
const struct kpi_table *kpi_builtin(void);

/* the built-in table's answers (none and no when it cannot be had) */
enum kpi_dir kpi_direction(const char *metric);
bool kpi_is_key(const char *metric);

/* "higher", "lower", "none": as in the file */
const char *kpi_dir_name(enum kpi_dir d);

/* the embedded file's text (build/gen/kpi_tsv.c) */
extern const char kpi_tsv[];

#endif
