/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's per-phase statistics: one struct per phase in a per-CPU array
 * map indexed by the phase id, its counters listed once in
 * include/fsprof/<domain>.h. An event is counted in three steps - is it
 * the target's, the running phase's stats, the field - written once here.
 */
#ifndef FSPROF_PHASE_STATS_BPF_H
#define FSPROF_PHASE_STATS_BPF_H

#include "phase.bpf.h"

/* phase's stats in map (a per-phase per-CPU array), or NULL */
static __always_inline void *phase_stats(void *map, __u32 phase)
{
	return bpf_map_lookup_elem(map, &phase);
}

/* the running phase's stats in map for an event of the target, else NULL */
static __always_inline void *target_phase_stats(void *map, bool is_target)
{
	if (!is_target)
		return NULL;
	return phase_stats(map, current_phase());
}

/* one event of the target's: field of the running phase's type stats + 1 */
#define COUNT_TARGET_EVENT(map, type, is_target, field)          \
	({                                                       \
		type *__st = target_phase_stats(map, is_target); \
                                                                 \
		if (__st)                                        \
			__st->field++;                           \
		0;                                               \
	})

#endif
