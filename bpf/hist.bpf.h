/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting into the log2 histograms every domain keeps (include/fsprof/
 * hist.h), in a form every kernel's verifier accepts.
 */
#ifndef FSPROF_HIST_BPF_H
#define FSPROF_HIST_BPF_H

#include "fsprof/hist.h"

/*
 * The histogram slot of v as an array index the verifier can bound. With
 * `__u32 slot = hist_slot(v); if (slot < HIST_NSLOTS) a[slot]++;` clang
 * zero-extends the u32 twice, once for the compare and once for the index,
 * and the 6.1 verifier does not carry the bound from one copy to the other
 * ("R0 unbounded memory access"); a u64 behind a barrier is one register.
 * Keep the result in a __u64.
 */
static __always_inline __u64 hist_slot_index(__u64 v)
{
	__u64 slot = hist_slot(v);

	barrier_var(slot);
	return slot;
}

/* count v in a HIST_NSLOTS histogram */
static __always_inline void hist_count(unsigned long long *slots, __u64 v)
{
	__u64 slot = hist_slot_index(v);

	if (slot < HIST_NSLOTS)
		slots[slot]++;
}

/* count v into a whole histogram */
static __always_inline void hist_add(struct hist_counts *h, __u64 v)
{
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	hist_count(h->slot, v);
}

#endif
