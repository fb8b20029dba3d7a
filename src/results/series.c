// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/series.h"

static struct series *series_get(struct series_set *set, const char *name)
{
	struct series *s;
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].name, name))
			return &set->s[i];
	if (set->n == set->cap) {
		unsigned int cap = set->cap ? set->cap * 2 : 16;
		struct series *bigger = realloc(set->s, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		set->s = bigger;
		set->cap = cap;
	}
	s = &set->s[set->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

int series_add(struct series_set *set, const char *name, const uint64_t *v,
	       unsigned int n)
{
	struct series *s = series_get(set, name);
	unsigned int i;

	if (!s)
		return -ENOMEM;
	if (n > s->n) {
		uint64_t *bigger = realloc(s->v, n * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		memset(bigger + s->n, 0, (n - s->n) * sizeof(*bigger));
		s->v = bigger;
		s->n = n;
	}
	for (i = 0; i < n; i++)
		s->v[i] += v[i];
	return 0;
}

const struct series *series_find(const struct series_set *set, const char *name)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].name, name))
			return &set->s[i];
	return NULL;
}

uint64_t series_sum(const struct series *s)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	return sum;
}

unsigned int series_peak_bin(const struct series *s)
{
	unsigned int i, peak = 0;

	for (i = 1; i < s->n; i++)
		if (s->v[i] > s->v[peak])
			peak = i;
	return peak;
}

unsigned int series_set_bins(const struct series_set *set)
{
	unsigned int i, n = 0;

	for (i = 0; i < set->n; i++)
		if (set->s[i].n > n)
			n = set->s[i].n;
	return n;
}

unsigned int series_columns(const struct series *s, uint64_t *out,
			    unsigned int width)
{
	unsigned int per, cols, i;

	if (!width || !s->n)
		return 0;
	per = (s->n + width - 1) / width;
	cols = (s->n + per - 1) / per;
	memset(out, 0, cols * sizeof(*out));
	for (i = 0; i < s->n; i++)
		out[i / per] += s->v[i];
	return cols;
}

void series_set_free(struct series_set *set)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		free(set->s[i].v);
	free(set->s);
	memset(set, 0, sizeof(*set));
}
