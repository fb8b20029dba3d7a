/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included once by every domain object: the phase map the tracer shares
 * between all domains (see include/fsprof/phase.h), and the device filter
 * userspace sets before load.
 */
#ifndef FSPROF_PHASE_BPF_H
#define FSPROF_PHASE_BPF_H

#include "fsprof/phase.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct phase_shared);
} phase_shared SEC(".maps");

/* the target's dev_t in the kernel's encoding (major << 20 | minor) */
const volatile __u32 targ_dev = 0;

static __always_inline struct phase_shared *phase_map(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&phase_shared, &zero);
}

/* the newest switch: the phase running now and when it began */
static __always_inline struct phase_switch phase_now(void)
{
	struct phase_switch sw = {};
	struct phase_shared *ps = phase_map();
	__u64 seq;

	if (!ps)
		return sw;
	seq = *(volatile __u64 *)&ps->seq;
	if (!seq)
		return sw;
	sw = ps->log[(seq - 1) % PHASE_LOG_LEN];
	if (sw.phase >= FSPROF_MAX_PHASES)
		sw.phase = FSPROF_PHASE_NONE;
	return sw;
}

static __always_inline __u32 current_phase(void)
{
	return phase_now().phase;
}

/* when phase began (0 for none or for phase 0, which is many stretches) */
static __always_inline __u64 phase_start(__u32 phase)
{
	struct phase_shared *ps = phase_map();

	if (!ps || phase == FSPROF_PHASE_NONE || phase >= FSPROF_MAX_PHASES)
		return 0;
	return ps->start_ns[phase];
}

#endif
