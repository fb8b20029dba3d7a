/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-phase keys made ready ahead of their phase. A per-CPU hash the BPF
 * programs add to without preallocation (4 KiB a key on every CPU would be
 * too much for every phase's every key) gets a new key from the BPF
 * allocator's per-CPU cache, which holds one per-CPU value at first and
 * refills later, from irq_work: in a burst of new keys the cache is empty
 * and the update fails. Userspace makes a phase's keys before the phase
 * needs them, with time to retry, and drops them once it is collected.
 *
 * When: at a phase's end, outside any phase's time, the two after it;
 * phases 0 to 3 (the spill, a run's first phases, a traced command's first
 * marked ones) at the start. A traced command's markers switch in the
 * kernel before userspace hears of it: two ahead, the next phase's keys
 * are there before the kernel switches to it.
 */
#ifndef FSPROF_PHASE_KEYS_H
#define FSPROF_PHASE_KEYS_H

#include <stdbool.h>

#include "fsprof/phase.h"

/* a case's start makes the keys of phases FSPROF_PHASE_NONE to this one */
#define PHASE_KEYS_AT_START 3

struct phase_keys {
	const char *domain; /* for the warning */
	/* make every key of phase: 0, or -errno (retries spent) */
	int (*make)(void *arg, unsigned int phase);
	void (*drop)(void *arg, unsigned int phase);
	void *arg;
	bool made[FSPROF_MAX_PHASES];
	bool warned;
};

/* a case begins (its maps emptied): the first phases' keys made */
void phase_keys_start(struct phase_keys *k);
void phase_keys_switched(struct phase_keys *k, unsigned int from,
			 unsigned int to);
/* phase was collected: its keys go (not the spill's, collected last) */
void phase_keys_collected(struct phase_keys *k, unsigned int phase);

#endif
