/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading per-CPU BPF maps: one lookup returns a value per possible CPU.
 *
 * Every domain keeps its per-phase statistics the same way: a per-CPU array
 * whose value is a struct of unsigned long long words (counters, and the
 * count/sum/max/slots of struct hist_counts). Reading one key adds up every
 * word over the CPUs, except the maxima, which take the largest.
 */
#ifndef FSPROF_PERCPU_H
#define FSPROF_PERCPU_H

#include <stddef.h>

struct bpf_map;

/* the byte offset of a struct hist_counts member's max, for max_at */
#define PERCPU_HIST_MAX(type, member) offsetof(type, member.max)

struct percpu_stats {
	const struct bpf_map *map;
	size_t value_size; /* a multiple of 8: unsigned long long words */
	const size_t *max_at; /* byte offsets of the words that are maxima */
	unsigned int n_max;
	int ncpus;
	void *values; /* ncpus values, for one lookup */
};

/* ps ready to read map (the skeleton's, before or after load); -errno */
int percpu_stats_init(struct percpu_stats *ps, const struct bpf_map *map,
		      size_t value_size, const size_t *max_at,
		      unsigned int n_max);

/* key's values over every CPU, added up into sum (value_size bytes) */
int percpu_stats_read(struct percpu_stats *ps, unsigned int key, void *sum);

/*
 * The same for a map of any key type (a per-CPU hash): key points to the
 * map's key. -ENOENT when the map has no such key; sum is zeroed then.
 */
int percpu_stats_read_key(struct percpu_stats *ps, const void *key, void *sum);

/*
 * Make key in ps's map (a per-CPU hash), zeroed on every CPU, unless it is
 * there. An update the BPF allocator's cache has no room for yet is tried
 * again a little later (trace/phase_keys.h). 0, or -errno.
 */
int percpu_key_make(struct percpu_stats *ps, const void *key);

void percpu_stats_fini(struct percpu_stats *ps);

/*
 * The sum itself: ncpus values of value_size bytes, one after another, into
 * sum; the words at max_at take the largest value instead.
 */
void percpu_stats_sum(void *sum, const void *values, int ncpus,
		      size_t value_size, const size_t *max_at,
		      unsigned int n_max);

#endif
