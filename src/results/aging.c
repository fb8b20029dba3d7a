// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>

#include "results/aging.h"

const struct freespace_bucket *
freespace_median_bucket(const struct freespace_table *t)
{
	uint64_t total = 0, sum = 0;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		total += t->b[i].blocks;
	for (i = 0; i < t->n; i++) {
		sum += t->b[i].blocks;
		if (total && 2 * sum >= total)
			return &t->b[i];
	}
	return NULL;
}
