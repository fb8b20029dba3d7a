/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline of a phase, as both sides see it: fixed bins of bin_ns,
 * bin i covering [phase start + i * bin_ns, phase start + (i + 1) * bin_ns).
 * Each domain keeps one small struct of counters per bin in a shared,
 * mmappable BPF array (bpf/timeline.bpf.h); userspace reads and clears the
 * bins at the end of every phase, so the array holds one phase at a time.
 * A phase longer than TL_MAX_BINS bins adds the rest into the last bin.
 */
#ifndef FSPROF_TIMELINE_H
#define FSPROF_TIMELINE_H

#define TL_BIN_NS_DEFAULT 100000000ULL /* 100 ms */
/* one hour at 100 ms; --bin 1s makes it ten */
#define TL_MAX_BINS 36000

#endif
