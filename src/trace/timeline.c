// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "fsprof/timeline.h"
#include "trace/timeline.h"

uint64_t timeline_bin_ns(uint64_t asked)
{
	return asked ? asked : TL_BIN_NS_DEFAULT;
}

int timeline_map_open(struct timeline_map *tl, struct bpf_map *map,
		      uint64_t bin_ns)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *mem;

	memset(tl, 0, sizeof(*tl));
	/* an mmappable array lays its values out 8-byte aligned */
	tl->stride = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	tl->max_bins = bpf_map__max_entries(map);
	tl->len = (tl->stride * tl->max_bins + page - 1) / page * page;
	tl->bin_ns = bin_ns;
	mem = mmap(NULL, tl->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   bpf_map__fd(map), 0);
	if (mem == MAP_FAILED)
		return -errno;
	tl->mem = mem;
	return 0;
}

static uint64_t bin_value(const struct timeline_map *tl, unsigned int bin,
			  size_t offset)
{
	const char *p = (const char *)tl->mem + (size_t)bin * tl->stride;

	return __atomic_load_n((const uint64_t *)(p + offset),
			       __ATOMIC_RELAXED);
}

static bool bin_used(const struct timeline_map *tl, unsigned int bin)
{
	size_t off;

	for (off = 0; off + sizeof(uint64_t) <= tl->stride;
	     off += sizeof(uint64_t))
		if (bin_value(tl, bin, off))
			return true;
	return false;
}

/* the bins p covers: its wall time, an event just after it, an overflow */
static unsigned int phase_bins(const struct timeline_map *tl,
			       const struct phase_result *p)
{
	uint64_t n = p->wall_ns / tl->bin_ns + 1;

	if (n >= tl->max_bins || bin_used(tl, tl->max_bins - 1))
		return tl->max_bins;
	if (bin_used(tl, (unsigned int)n))
		n++;
	return (unsigned int)n;
}

int timeline_map_collect(struct timeline_map *tl, struct phase_result *p,
			 const struct timeline_field *fields,
			 unsigned int n_fields)
{
	unsigned int n, f, b;
	uint64_t *v;
	int err = 0;

	if (!tl->mem || !tl->bin_ns)
		return 0;
	n = phase_bins(tl, p);
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->timeline.bin_ns = tl->bin_ns;
	p->timeline.start_ns = p->start_mono_ns;
	for (f = 0; f < n_fields && !err; f++) {
		for (b = 0; b < n; b++)
			v[b] = bin_value(tl, b, fields[f].offset);
		err = series_add(&p->timeline, fields[f].series, v, n);
	}
	free(v);
	/* the next phase starts from empty bins */
	memset(tl->mem, 0, (size_t)n * tl->stride);
	return err;
}

void timeline_map_close(struct timeline_map *tl)
{
	if (tl->mem)
		munmap(tl->mem, tl->len);
	memset(tl, 0, sizeof(*tl));
}
