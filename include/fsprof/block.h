/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the block domain shares between bpf/block.bpf.c and userspace. */
#ifndef FSPROF_BLOCK_H
#define FSPROF_BLOCK_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/* What a request does, decided at issue from the running kernel's req_op. */
enum blk_opclass {
	BLK_OPC_READ,
	BLK_OPC_WRITE,
	BLK_OPC_FLUSH, /* REQ_OP_FLUSH, or a write carrying no data */
	BLK_OPC_DISCARD, /* discard, secure erase, write zeroes */
	BLK_OPC_OTHER,
	BLK_OPC_NR,
};

/* One per (phase, op class), in a per-CPU array indexed blk_stats_index(). */
struct blk_stats {
	unsigned long long ios; /* requests issued */
	unsigned long long bytes; /* their data bytes */
	unsigned long long lat_count; /* completions paired with an issue */
	unsigned long long lat_sum_ns;
	unsigned long long lat_max_ns;
	unsigned long long lat_slot[HIST_NSLOTS]; /* issue -> complete, ns */
};

static inline unsigned int blk_stats_index(unsigned int phase,
					   unsigned int opclass)
{
	return phase * BLK_OPC_NR + opclass;
}

#define BLK_STATS_ENTRIES (FSPROF_MAX_PHASES * BLK_OPC_NR)

#endif
