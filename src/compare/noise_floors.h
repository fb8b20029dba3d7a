/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof diff's noise floors per metric kind: rows of GLOB, FLOOR and how
 * the floor was derived, from data/noise-floors.tsv (embedded at build
 * time; derived from A/A runs by scripts/bench/noise-floors.sh). The first
 * row whose glob matches a metric's name (fnmatch) gives its floor; the
 * last row is "*", so every metric has one.
 */
#ifndef FSPROF_NOISE_FLOORS_H
#define FSPROF_NOISE_FLOORS_H

#include <stddef.h>

struct noise_floor_row {
	char glob[64];
	double floor; /* relative: 0.02 is 2% */
	char how[256]; /* how it was derived */
};

struct noise_floors {
	unsigned int n;
	struct noise_floor_row *rows;
};

/*
 * Parse the text of a noise-floors file: lines "GLOB\tPCT%\tHOW", blank
 * lines and "#" comments skipped. 0, -ENOMEM, or -EINVAL with the line
 * and what is wrong with it in err.
 */
int noise_floors_parse(const char *text, struct noise_floors *out, char *err,
		       size_t errlen);

void noise_floors_free(struct noise_floors *nf);

/* the first row matching metric (the "*" row at worst) */
const struct noise_floor_row *noise_floors_lookup(const struct noise_floors *nf,
						  const char *metric);

/*
 * The embedded data/noise-floors.tsv, parsed at the first call and kept;
 * the build and a unit test check the file, so this cannot fail but for
 * memory (NULL, with the reason printed).
 */
const struct noise_floors *noise_floors_builtin(void);

/* the embedded file's text (build/gen/noise_floors_tsv.c) */
extern const char noise_floors_tsv[];

#endif
