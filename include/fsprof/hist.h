/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log2 histogram with 4 linear sub-buckets per power of two, shared by the
 * BPF side (which fills it) and userspace (which reads percentiles from it).
 * Slot width is at most a quarter of its lower bound, so a percentile read
 * from the histogram is within 25% of the true value (interpolated: closer).
 */
#ifndef FSPROF_HIST_H
#define FSPROF_HIST_H

#define HIST_SUB_BITS 2
#define HIST_SUBS (1 << HIST_SUB_BITS)
/* values 0..3 get their own slots; each power 2^2..2^63 gets HIST_SUBS */
#define HIST_NSLOTS (HIST_SUBS + (64 - HIST_SUB_BITS) * HIST_SUBS)

/* index of the most significant set bit; v must be non-zero */
static inline unsigned int hist_msb(unsigned long long v)
{
	unsigned int r = 0, shift;

	shift = (v > 0xFFFFFFFFULL) << 5;
	v >>= shift;
	r |= shift;
	shift = (v > 0xFFFF) << 4;
	v >>= shift;
	r |= shift;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

static inline unsigned int hist_slot(unsigned long long v)
{
	unsigned int msb, sub;

	if (v < HIST_SUBS)
		return (unsigned int)v;
	msb = hist_msb(v);
	sub = (unsigned int)(v >> (msb - HIST_SUB_BITS)) & (HIST_SUBS - 1);
	return (msb - HIST_SUB_BITS + 1) * HIST_SUBS + sub;
}

/* a histogram as the BPF side keeps it (per CPU), in any unit */
struct hist_counts {
	unsigned long long count;
	unsigned long long sum; /* in the histogram's unit (ns, blocks...) */
	unsigned long long max;
	unsigned long long slot[HIST_NSLOTS];
};

#endif
