/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline of one phase: named series of fixed-width time bins,
 * "<domain>.<what>" with the unit in the suffix like a metric
 * ("block.data_write_bytes", "jbd2.commits"). Bin i of every series covers
 * [start_ns + i * bin_ns, start_ns + (i + 1) * bin_ns); a series' bins add
 * up to the phase's metric of the same meaning.
 */
#ifndef FSPROF_SERIES_H
#define FSPROF_SERIES_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_NAME_LEN 48

struct series {
	char name[SERIES_NAME_LEN];
	unsigned int n; /* bins */
	uint64_t *v; /* owned */
};

struct series_set {
	uint64_t bin_ns; /* 0: no timeline */
	uint64_t start_ns; /* CLOCK_MONOTONIC of bin 0's start */
	unsigned int n, cap;
	struct series *s;
};

/*
 * Add n bins into series name (created at zero; it grows to n bins when
 * shorter). Returns 0 or -ENOMEM.
 */
int series_add(struct series_set *set, const char *name, const uint64_t *v,
	       unsigned int n);

const struct series *series_find(const struct series_set *set,
				 const char *name);

uint64_t series_sum(const struct series *s);

/* the bin with the largest value (the first of equals); 0 when empty */
unsigned int series_peak_bin(const struct series *s);

/* the most bins any series of the set has */
unsigned int series_set_bins(const struct series_set *set);

/*
 * Squeeze s into width columns: out[c] is the sum of the bins column c
 * covers (each column covers ceil(n / width) bins; fewer columns are used
 * when there are fewer bins). Returns the columns used.
 */
unsigned int series_columns(const struct series *s, uint64_t *out,
			    unsigned int width);

void series_set_free(struct series_set *set);

#endif
