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

/*
 * The counters of struct jbd2_stats, one list for both sides, in the order
 * the results list them: X(field, metric, prog) - the field the kernel side
 * counts into, its metric's name after "jbd2.", and the program counting
 * it (enum jbd2_prog, src/trace/jbd2.c: a counter is reported only when
 * its program is traced).
 */
#define JBD2_COUNTERS(X)                                                       \
	X(commits, commits, J2_STATS) /* jbd2_run_stats: commits completed */  \
	X(commits_started, commits_started, J2_START) /* jbd2_start_commit */  \
	X(commits_sync, commits_sync,                                          \
	  J2_START) /* with a synchronous waiter */                            \
	/* no one asked (t_requested 0): the journal's timer (commit=) */      \
	X(commits_timer, commits_timer, J2_START)                              \
	X(handles, handles, J2_STATS) /* handles the commits held */           \
	X(blocks, blocks, J2_STATS) /* metadata blocks they carried */         \
	X(blocks_logged, blocks_logged, J2_STATS) /* journal blocks written */ \
	X(checkpoints, checkpoints, J2_CHKPT) /* jbd2_checkpoint_stats */      \
	X(checkpoint_written, checkpoint_written_blocks,                       \
	  J2_CHKPT) /* buffers checkpoint wrote */                             \
	X(checkpoint_dropped, checkpoint_dropped_blocks,                       \
	  J2_CHKPT) /* buffers it found clean */                               \
	X(lock_buffer_stalls, lock_buffer_stalls, J2_STALL)                    \
	X(lock_buffer_stall_ns, lock_buffer_stall_ns, J2_STALL)                \
	/* the deep set: per handle, several per file */                       \
	X(handles_started, handles_started, J2_HBEG) /* jbd2_handle_start */   \
	X(handles_stopped, handles_stopped, J2_HSTAT) /* jbd2_handle_stats */  \
	X(handle_credits, handle_credits, J2_HSTAT) /* credits asked */        \
	X(handle_dirtied_blocks, handle_dirtied_blocks, J2_HSTAT)

#define JBD2_STATS_FIELD(field, metric, prog) unsigned long long field;

/* One per phase, in a per-CPU array indexed by the phase id. */
struct jbd2_stats {
	JBD2_COUNTERS(JBD2_STATS_FIELD)
	struct hist_counts commit_ns; /* start_commit -> end_commit, ktime */
	struct hist_counts run_ns[JBD2_T_NR]; /* from jbd2_run_stats */
};

/* One timeline bin (include/fsprof/timeline.h). */
struct jbd2_tl_bin {
	unsigned long long commits; /* jbd2_run_stats */
	unsigned long long blocks_logged;
};

#endif
