/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Phase ids as both sides see them, and the one map every domain reads them
 * from. 0 means "between phases" (spill-over).
 *
 * The tracer creates the map once and every domain's object reuses it
 * (bpf_map__reuse_fd), so a switch is one store that every program sees at
 * the same moment. A switch is published as the next entry of a short log
 * of switches: the entry is written first, then seq is incremented. A
 * program reads seq, then the entry seq - 1: an entry is rewritten only
 * PHASE_LOG_LEN switches later, so the id and its start time always belong
 * together. The log also lets the block domain split a stretch of device
 * time across every phase switch it spans (N -> 0 -> N+1), not just one.
 */
#ifndef FSPROF_PHASE_H
#define FSPROF_PHASE_H

#define FSPROF_MAX_PHASES 64
#define FSPROF_PHASE_NONE 0

/* switches remembered; a stretch spanning more is charged in part to 0 */
#define PHASE_LOG_LEN 16

struct phase_switch {
	unsigned long long at_ns; /* bpf_ktime_get_ns() clock (CLOCK_MONOTONIC) */
	unsigned int phase; /* the phase that began then */
	unsigned int pad;
};

struct phase_shared {
	unsigned long long seq; /* switches published so far */
	struct phase_switch log[PHASE_LOG_LEN]; /* switch k at log[k % LEN] */
	/* when each phase began: written before its switch is published */
	unsigned long long start_ns[FSPROF_MAX_PHASES];
};

#endif
