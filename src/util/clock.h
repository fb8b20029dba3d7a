/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_CLOCK_H
#define FSPROF_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in ns: the clock bpf_ktime_get_ns() reads */
uint64_t clock_mono_ns(void);

/* CLOCK_REALTIME in ns, for timestamps people read */
uint64_t clock_real_ns(void);

#endif
