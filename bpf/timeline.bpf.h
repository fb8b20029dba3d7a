/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's timeline: TIMELINE_MAP(d, struct x_tl_bin) declares its bins,
 * d_timeline (a
 * shared array userspace mmaps, see include/fsprof/timeline.h) and
 * timeline_bin() finds the bin of the running phase that a time falls in.
 * Bins are shared by all CPUs: add to them with __sync_fetch_and_add.
 * Include after phase.bpf.h.
 */
#ifndef FSPROF_TIMELINE_BPF_H
#define FSPROF_TIMELINE_BPF_H

#include "fsprof/timeline.h"

/* bin width, set by userspace before load (--bin): one for every domain */
const volatile __u64 tl_bin_ns = TL_BIN_NS_DEFAULT;

#define TIMELINE_MAP(d, value_type)                \
	struct {                                   \
		__uint(type, BPF_MAP_TYPE_ARRAY);  \
		__uint(map_flags, BPF_F_MMAPABLE); \
		__uint(max_entries, TL_MAX_BINS);  \
		__type(key, __u32);                \
		__type(value, value_type);         \
	} d##_timeline SEC(".maps")

/*
 * The bin of phase that now falls in; NULL between phases (phase 0 has no
 * timeline: it is many gaps, not one stretch of time).
 */
static __always_inline void *timeline_bin(void *map, __u32 phase, __u64 now)
{
	__u64 start, bin = 0;
	__u32 key;

	if (phase == FSPROF_PHASE_NONE)
		return NULL;
	start = phase_start(phase);
	if (now > start && tl_bin_ns)
		bin = (now - start) / tl_bin_ns;
	key = bin < TL_MAX_BINS ? (__u32)bin : TL_MAX_BINS - 1;
	return bpf_map_lookup_elem(map, &key);
}

#endif
