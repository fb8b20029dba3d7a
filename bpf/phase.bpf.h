/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included once by every domain object: the phase id userspace writes through
 * the skeleton's mmapped .bss, and the device filter it sets before load.
 */
#ifndef FSPROF_PHASE_BPF_H
#define FSPROF_PHASE_BPF_H

#include "fsprof/phase.h"

/* written by userspace at every phase switch; 0 = between phases */
__u32 phase = FSPROF_PHASE_NONE;

/*
 * when the current phase id was set, bpf_ktime_get_ns() clock
 * (CLOCK_MONOTONIC); userspace writes it before the id
 */
__u64 phase_start_ns = 0;

/* the target's dev_t in the kernel's encoding (major << 20 | minor) */
const volatile __u32 targ_dev = 0;

static __always_inline __u32 current_phase(void)
{
	__u32 p = phase;

	return p < FSPROF_MAX_PHASES ? p : FSPROF_PHASE_NONE;
}

#endif
