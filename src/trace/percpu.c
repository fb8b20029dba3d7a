// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trace/percpu.h"

/* a zeroed buffer for one lookup: a value per possible CPU (*ncpus) */
static void *percpu_values_alloc(size_t value_size, int *ncpus, int *err)
{
	void *buf;

	*ncpus = libbpf_num_possible_cpus();
	if (*ncpus <= 0) {
		*err = *ncpus ? *ncpus : -EINVAL;
		return NULL;
	}
	buf = calloc((size_t)*ncpus, value_size);
	if (!buf)
		*err = -ENOMEM;
	return buf;
}

int percpu_stats_init(struct percpu_stats *ps, const struct bpf_map *map,
		      size_t value_size, const size_t *max_at,
		      unsigned int n_max)
{
	int err = 0;

	memset(ps, 0, sizeof(*ps));
	if (value_size % sizeof(unsigned long long))
		return -EINVAL;
	ps->values = percpu_values_alloc(value_size, &ps->ncpus, &err);
	if (!ps->values)
		return err;
	ps->map = map;
	ps->value_size = value_size;
	ps->max_at = max_at;
	ps->n_max = n_max;
	return 0;
}

static bool word_is_max(size_t offset, const size_t *max_at, unsigned int n_max)
{
	unsigned int i;

	for (i = 0; i < n_max; i++)
		if (max_at[i] == offset)
			return true;
	return false;
}

void percpu_stats_sum(void *sum, const void *values, int ncpus,
		      size_t value_size, const size_t *max_at,
		      unsigned int n_max)
{
	const size_t nwords = value_size / sizeof(unsigned long long);
	const unsigned long long *v = values;
	unsigned long long *dst = sum;
	size_t w;
	int cpu;

	memset(sum, 0, value_size);
	for (w = 0; w < nwords; w++) {
		bool is_max = word_is_max(w * sizeof(*dst), max_at, n_max);

		for (cpu = 0; cpu < ncpus; cpu++) {
			unsigned long long x = v[(size_t)cpu * nwords + w];

			if (!is_max)
				dst[w] += x;
			else if (x > dst[w])
				dst[w] = x;
		}
	}
}

int percpu_stats_read_key(struct percpu_stats *ps, const void *key, void *sum)
{
	memset(sum, 0, ps->value_size);
	if (bpf_map_lookup_elem(bpf_map__fd(ps->map), key, ps->values))
		return -errno;
	percpu_stats_sum(sum, ps->values, ps->ncpus, ps->value_size, ps->max_at,
			 ps->n_max);
	return 0;
}

int percpu_stats_read(struct percpu_stats *ps, unsigned int key, void *sum)
{
	__u32 k = key;

	return percpu_stats_read_key(ps, &k, sum);
}

/*
 * The BPF allocator refills its per-CPU cache from irq_work, and that
 * refill's atomic per-CPU allocation can itself wait for the per-CPU
 * allocator's worker to populate pages (two runs at once here: still
 * ENOMEM after 10 ms): an update that found no room is tried again every
 * KEY_RETRY_NS, for up to KEY_WAIT_NS
 */
#define KEY_RETRY_NS 1000000L
#define KEY_WAIT_NS 2000000000ULL

int percpu_key_make(struct percpu_stats *ps, const void *key)
{
	const struct timespec pause = { 0, KEY_RETRY_NS };
	uint64_t waited = 0;
	int fd = bpf_map__fd(ps->map);

	memset(ps->values, 0, (size_t)ps->ncpus * ps->value_size);
	for (;;) {
		if (!bpf_map_update_elem(fd, key, ps->values, BPF_NOEXIST) ||
		    errno == EEXIST)
			return 0;
		if ((errno != ENOMEM && errno != EBUSY) ||
		    waited >= KEY_WAIT_NS)
			return -errno;
		nanosleep(&pause, NULL);
		waited += KEY_RETRY_NS;
	}
}

void percpu_stats_fini(struct percpu_stats *ps)
{
	free(ps->values);
	ps->values = NULL;
}
