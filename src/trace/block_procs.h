/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block IO by process (fsprof record, every process the workload): the
 * top PROC_TOP_MAX processes of a phase by bytes, read from the block
 * domain's proc_io and proc_comm maps.
 */
#ifndef FSPROF_BLOCK_PROCS_H
#define FSPROF_BLOCK_PROCS_H

#include "results/results.h"

int block_procs_collect(int io_fd, int comm_fd, unsigned int phase,
			struct proc_top *out);

/* keep rec in top (sorted by bytes, most first) if it belongs there */
void proc_top_offer(struct proc_top *top, const struct proc_io_record *rec);

#endif
