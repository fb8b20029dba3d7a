// SPDX-License-Identifier: GPL-2.0
/* Per-phase keys made ready ahead of their phase: see phase_keys.h. */
#include "trace/phase_keys.h"
#include "util/log.h"

static void keys_make(struct phase_keys *k, unsigned int phase)
{
	int err;

	if (phase >= FSPROF_MAX_PHASES || k->made[phase])
		return;
	err = k->make(k->arg, phase);
	if (err && !k->warned) {
		k->warned = true;
		log_warn(
			"%s domain: phase %u's statistics could not be made ready: %s; what comes first in it may go uncounted",
			k->domain, phase, strerror_safe(-err));
	}
	k->made[phase] = true;
}

void phase_keys_start(struct phase_keys *k)
{
	unsigned int p;

	/* a case begins with its maps emptied: no phase has its keys */
	for (p = 0; p < FSPROF_MAX_PHASES; p++)
		k->made[p] = false;
	for (p = FSPROF_PHASE_NONE; p <= PHASE_KEYS_AT_START; p++)
		keys_make(k, p);
}

/*
 * Keys are made only at a phase's end, outside any phase's time (a make
 * may wait for the BPF allocator), two phases ahead: a traced command's
 * next marker switches in the kernel before userspace hears of it, and
 * live_phases hands that direct N -> M switch to the domains as
 * N -> 0 -> M, so while userspace knows of phase N, N + 1 must be ready
 * (made one ahead, a traced command's second marked phase had its keys
 * only after the kernel had switched to it: its first request uncounted 1
 * run in 8, trace_command.bats 3). At a phase's start they are there: its
 * make is a check.
 */
void phase_keys_switched(struct phase_keys *k, unsigned int from,
			 unsigned int to)
{
	if (to == FSPROF_PHASE_NONE) {
		keys_make(k, from + 1);
		keys_make(k, from + 2);
		return;
	}
	keys_make(k, to);
}

void phase_keys_collected(struct phase_keys *k, unsigned int phase)
{
	if (phase == FSPROF_PHASE_NONE || phase >= FSPROF_MAX_PHASES)
		return;
	k->drop(k->arg, phase);
	k->made[phase] = false;
}
