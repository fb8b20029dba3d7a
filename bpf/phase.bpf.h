/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included once by every domain object: the phase map the tracer shares
 * between all domains (see include/fsprof/phase.h), and the device filter
 * userspace sets for each case (trace/domain_state.h).
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

/*
 * Each domain's target is a global of its own, <domain>_targ_dev: the
 * target's dev_t in the kernel's encoding (major << 20 | minor); 0 between
 * cases, when nothing is counted (a writable global: the programs stay
 * loaded from case to case). Its own: the domains are one object
 * (bpf/fsprof.bpf.c), and a domain that sits a case out keeps its 0.
 */

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

/* a stretch of time spans at most this many phases (N -> 0 -> N+1) */
#define PHASE_SPLIT_MAX 4

struct phase_part {
	__u64 ns;
	__u32 phase;
};

/*
 * One part of a stretch [start, *end): from the newest switch not yet used
 * to *end, charged to the phase that switch began; *end moves back to it.
 * Plain reads only: the block domain calls it under its tracks' lock.
 */
static __always_inline void phase_split_step(const struct phase_shared *ps,
					     __u64 *seq, __u64 start,
					     __u64 *end, struct phase_part *pt)
{
	const struct phase_switch *sw;
	__u64 from;

	if (*end <= start)
		return;
	if (!*seq) {
		pt->phase = FSPROF_PHASE_NONE;
		pt->ns = *end - start;
		*end = start;
		return;
	}
	sw = &ps->log[(*seq - 1) % PHASE_LOG_LEN];
	from = sw->at_ns > start ? sw->at_ns : start;
	pt->phase = sw->phase < FSPROF_MAX_PHASES ? sw->phase :
						    FSPROF_PHASE_NONE;
	pt->ns = *end - from;
	*end = from;
	(*seq)--;
}

/*
 * Split [start, now) at the phase switches it spans, newest first, each
 * part to the phase that ran then (part[i].ns 0: no such part). Beyond
 * PHASE_SPLIT_MAX parts the rest goes to phase 0. Written out, not looped:
 * the verifier wants constant stack offsets.
 */
static __always_inline void phase_split(const struct phase_shared *ps,
					__u64 start, __u64 now,
					struct phase_part *part)
{
	__u64 seq = ps->seq, end = now;

	phase_split_step(ps, &seq, start, &end, &part[0]);
	phase_split_step(ps, &seq, start, &end, &part[1]);
	phase_split_step(ps, &seq, start, &end, &part[2]);
	phase_split_step(ps, &seq, start, &end, &part[3]);
	if (end > start) {
		part[3].phase = FSPROF_PHASE_NONE;
		part[3].ns += end - start;
	}
}

#endif
