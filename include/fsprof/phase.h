/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Phase ids as both sides see them. Userspace writes the running phase into
 * each BPF object's .bss; 0 means "between phases" (spill-over).
 */
#ifndef FSPROF_PHASE_H
#define FSPROF_PHASE_H

#define FSPROF_MAX_PHASES 64
#define FSPROF_PHASE_NONE 0

#endif
