/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the jbd2 domain shares between bpf/jbd2.bpf.c and userspace. */
#ifndef FSPROF_JBD2_H
#define FSPROF_JBD2_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/*
 * The per-commit times jbd2_run_stats reports (in jiffies, converted to ns
 * with the kernel's CONFIG_HZ), in the order of a commit's life.
 */
enum jbd2_run_time {
	JBD2_T_REQUEST_DELAY, /* commit requested -> commit started */
	JBD2_T_RUNNING, /* transaction open, taking handles */
	JBD2_T_LOCKED, /* waiting for the open handles to finish */
	JBD2_T_FLUSHING, /* writing ordered data */
	JBD2_T_LOGGING, /* writing the transaction into the journal */
	JBD2_T_NR,
};

/* One per phase, in a per-CPU array indexed by the phase id. */
struct jbd2_stats {
	unsigned long long commits; /* jbd2_run_stats: commits completed */
	unsigned long long commits_started; /* jbd2_start_commit */
	unsigned long long commits_sync; /* started with a synchronous waiter */
	unsigned long long handles; /* handles the committed transactions held */
	unsigned long long blocks; /* metadata blocks they carried */
	unsigned long long blocks_logged; /* journal blocks written for them */
	unsigned long long checkpoints; /* jbd2_checkpoint_stats */
	unsigned long long checkpoint_written; /* buffers checkpoint wrote */
	unsigned long long checkpoint_dropped; /* buffers it found clean */
	unsigned long long lock_buffer_stalls; /* jbd2_lock_buffer_stall */
	unsigned long long lock_buffer_stall_ns;
	/* the deep set: per handle, several per file */
	unsigned long long handles_started; /* jbd2_handle_start */
	unsigned long long handles_stopped; /* jbd2_handle_stats */
	unsigned long long handle_credits; /* credits the stopped ones asked */
	unsigned long long handle_dirtied_blocks; /* blocks they dirtied */
	struct hist_counts commit_ns; /* start_commit -> end_commit, ktime */
	struct hist_counts run_ns[JBD2_T_NR]; /* from jbd2_run_stats */
};

/* One timeline bin (include/fsprof/timeline.h). */
struct jbd2_tl_bin {
	unsigned long long commits; /* jbd2_run_stats */
	unsigned long long blocks_logged;
};

#endif
