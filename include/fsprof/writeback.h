/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures the writeback domain shares between bpf/writeback.bpf.c and
 * userspace: flusher work and pages written by wb_reason, and writer
 * throttling in balance_dirty_pages, per phase.
 */
#ifndef FSPROF_WRITEBACK_H
#define FSPROF_WRITEBACK_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/*
 * enum wb_reason values are counted by their number; userspace names them
 * from the running kernel's BTF. Values from WB_REASON_SLOTS - 1 up share
 * the last slot.
 */
#define WB_REASON_SLOTS 16

/* "MAJ:MIN" of a backing device, as the kernel names its bdi */
#define WB_BDI_NAME_LEN 32

/* One per phase, in a per-CPU array indexed by phase. */
struct wb_phase_stats {
	unsigned long long events; /* programs run, any device */
	unsigned long long work[WB_REASON_SLOTS]; /* wb_writeback() calls */
	unsigned long long pages[WB_REASON_SLOTS]; /* pages they wrote */
	unsigned long long throttle_count; /* writer slept */
	unsigned long long throttle_pause_jiffies;
	unsigned long long throttle_pause_ns; /* 0 when CONFIG_HZ unknown */
	unsigned long long throttle_max_ns;
	unsigned long long throttle_slot[HIST_NSLOTS]; /* pause, ns */
};

/* One timeline bin (include/fsprof/timeline.h). */
struct wb_tl_bin {
	unsigned long long pages; /* written by flusher passes ending in it */
	unsigned long long throttle_count;
	unsigned long long throttle_pause; /* ns; jiffies if CONFIG_HZ unknown */
};

#endif
