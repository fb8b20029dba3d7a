// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
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

	memset(tl, 0, sizeof(*tl));
	if (bpf_map__fd(map) < 0)
		return -EBADF;
	tl->fd = bpf_map__fd(map);
	/* an mmappable array lays its values out 8-byte aligned */
	tl->stride = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	tl->max_bins = bpf_map__max_entries(map);
	tl->len = (tl->stride * tl->max_bins + page - 1) / page * page;
	tl->bin_ns = bin_ns;
	return 0;
}

static uint64_t bin_value(const void *mem, size_t stride, unsigned int bin,
			  size_t offset)
{
	const char *p = (const char *)mem + (size_t)bin * stride;

	return __atomic_load_n((const uint64_t *)(p + offset),
			       __ATOMIC_RELAXED);
}

static bool bin_used(const void *mem, size_t stride, unsigned int bin)
{
	size_t off;

	for (off = 0; off + sizeof(uint64_t) <= stride;
	     off += sizeof(uint64_t))
		if (bin_value(mem, stride, bin, off))
			return true;
	return false;
}

/* the last bin, where an overflowing phase adds the rest: used? */
static bool last_bin_used(const struct timeline_map *tl)
{
	unsigned int key = tl->max_bins - 1;
	uint64_t v[16] = { 0 };

	if (tl->stride > sizeof(v) ||
	    bpf_map_lookup_elem(tl->fd, &key, v))
		return true; /* not known: every bin is read */
	return bin_used(v, tl->stride, 0);
}

/*
 * The bins p covers: its wall time, an event just after it (bin n, read
 * through the mapping), an overflow; *mapped, the bins to map for that
 */
static unsigned int phase_bins(const struct timeline_map *tl,
			       const struct phase_result *p,
			       unsigned int *mapped)
{
	uint64_t n = p->wall_ns / tl->bin_ns + 1;

	if (n >= tl->max_bins || last_bin_used(tl)) {
		*mapped = tl->max_bins;
		return tl->max_bins;
	}
	*mapped = n + 1 < tl->max_bins ? (unsigned int)n + 1 : tl->max_bins;
	return (unsigned int)n;
}

int timeline_map_collect(struct timeline_map *tl, struct phase_result *p,
			 const struct timeline_field *fields,
			 unsigned int n_fields)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	unsigned int n, mapped, f, b;
	uint64_t *v;
	void *mem;
	int err = 0;

	if (!tl->stride || !tl->bin_ns)
		return 0;
	n = phase_bins(tl, p, &mapped);
	/* only the bins read: the whole array would be 2 MB of RSS */
	len = ((size_t)mapped * tl->stride + page - 1) / page * page;
	if (len > tl->len)
		len = tl->len;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, tl->fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	if (n < mapped && bin_used(mem, tl->stride, n))
		n++;
	v = malloc(n * sizeof(*v));
	if (!v) {
		munmap(mem, len);
		return -ENOMEM;
	}
	p->timeline.bin_ns = tl->bin_ns;
	p->timeline.start_ns = p->start_mono_ns;
	for (f = 0; f < n_fields && !err; f++) {
		for (b = 0; b < n; b++)
			v[b] = bin_value(mem, tl->stride, b, fields[f].offset);
		err = series_add(&p->timeline, fields[f].series, v, n);
	}
	free(v);
	/* the next phase starts from empty bins */
	memset(mem, 0, (size_t)n * tl->stride);
	munmap(mem, len);
	return err;
}

void timeline_map_close(struct timeline_map *tl)
{
	memset(tl, 0, sizeof(*tl));
}
