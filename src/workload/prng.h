/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small seeded generator (splitmix64) so workloads make the same names,
 * sizes and trees on every run with the same seed. Not for cryptography.
 */
#ifndef FSPROF_PRNG_H
#define FSPROF_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t state;
};

static inline void prng_seed(struct prng *r, uint64_t seed)
{
	r->state = seed;
}

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n); n > 0 */
static inline uint64_t prng_below(struct prng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prng_next(r) * n) >> 64);
}

/* uniform in (0, 1) */
static inline double prng_unit(struct prng *r)
{
	return ((double)(prng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

#endif
