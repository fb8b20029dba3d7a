/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --age fill=PCT[,pattern=P][,delete=PCT][,sizes=S][,seed=N]: what the
 * untimed aging step before a case's first phase makes of the filesystem.
 * Parsing and the numbers derived from a spec; workload/age.c runs it.
 */
#ifndef FSPROF_AGE_SPEC_H
#define FSPROF_AGE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fill above this leaves ENOSPC, not allocation, as the story */
#define AGE_FILL_MAX 95

enum age_pattern {
	AGE_EVERY_OTHER, /* delete files 1, 3, 5, ... in the order written */
	AGE_RANDOM, /* delete each with probability delete_pct, seeded */
	AGE_KEEP, /* "none": delete nothing, the filesystem only full */
};

enum age_sizes {
	AGE_SMALL, /* 4 KiB - 64 KiB */
	AGE_MIXED, /* 4 KiB - 4 MiB */
	AGE_LARGE, /* 1 MiB - 32 MiB */
};

struct age_spec {
	bool on; /* --age given */
	unsigned int fill_pct; /* 1..AGE_FILL_MAX: used share after the fill */
	enum age_pattern pattern;
	unsigned int delete_pct; /* random: the share deleted, 1..99 */
	enum age_sizes sizes;
	uint64_t seed;
};

/*
 * Parse text into out (defaults: pattern=every-other, sizes=mixed,
 * seed=1; delete=50 with pattern=random). 0, or -EINVAL with what is wrong,
 * why and what to give in why.
 */
int age_spec_parse(const char *text, struct age_spec *out, char *why,
		   size_t whylen);

/* "fill=90,pattern=every-other,sizes=small,seed=1": every field */
void age_spec_format(const struct age_spec *s, char *buf, size_t len);

/* the file sizes a spec draws from, in bytes (inclusive) */
void age_sizes_range(enum age_sizes sizes, uint64_t *min, uint64_t *max);

const char *age_pattern_name(enum age_pattern p);
const char *age_sizes_name(enum age_sizes s);

/*
 * The share of the filesystem the aging leaves free (0..1): what the fill
 * leaves, plus what the pattern deletes of it (random: its expectation).
 */
double age_spec_free_share(const struct age_spec *s);

#endif
