// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "util/histogram.h"

uint64_t hist_slot_low(unsigned int slot)
{
	unsigned int msb, sub;

	if (slot < HIST_SUBS)
		return slot;
	msb = slot / HIST_SUBS + HIST_SUB_BITS - 1;
	sub = slot % HIST_SUBS;
	return (1ULL << msb) + ((uint64_t)sub << (msb - HIST_SUB_BITS));
}

uint64_t hist_slot_high(unsigned int slot)
{
	if (slot + 1 >= HIST_NSLOTS)
		return UINT64_MAX;
	return hist_slot_low(slot + 1);
}

uint64_t hist_total(const uint64_t *slots, unsigned int nslots)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < nslots; i++)
		total += slots[i];
	return total;
}

double hist_percentile(const uint64_t *slots, unsigned int nslots, double p)
{
	uint64_t total = hist_total(slots, nslots);
	double rank, seen = 0;
	unsigned int i;

	if (!total || p <= 0)
		return 0;
	if (p > 100)
		p = 100;
	rank = p / 100.0 * (double)total;
	for (i = 0; i < nslots; i++) {
		double lo, hi;

		if (!slots[i])
			continue;
		if (seen + (double)slots[i] >= rank) {
			/* slots below HIST_SUBS hold one exact value each */
			if (i < HIST_SUBS)
				return (double)i;
			lo = (double)hist_slot_low(i);
			hi = (double)hist_slot_high(i);
			/* values sit uniformly in [lo, hi): interpolate */
			return lo +
			       (hi - lo) * ((rank - seen) / (double)slots[i]);
		}
		seen += (double)slots[i];
	}
	return (double)hist_slot_low(nslots - 1);
}

void hist_fold_log2(const uint64_t *slots, unsigned int nslots,
		    uint64_t out[HIST_LOG2_BUCKETS])
{
	unsigned int s;

	for (s = 0; s < HIST_LOG2_BUCKETS; s++)
		out[s] = 0;
	for (s = 0; s < nslots; s++) {
		uint64_t low = hist_slot_low(s);

		/* the slots of one power of two share its bit length */
		out[low ? 64 - (unsigned int)__builtin_clzll(low) : 0] +=
			slots[s];
	}
}

uint64_t hist_log2_low(unsigned int k)
{
	return k ? 1ULL << (k - 1) : 0;
}
