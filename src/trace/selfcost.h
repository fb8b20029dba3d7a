/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fsprof's own BPF programs cost, per phase: the kernel's run time and
 * run count of every loaded program (bpf_prog_info), with run-time stats
 * switched on through BPF_ENABLE_STATS - an fd that switches them off again
 * when it is closed, so kernel.bpf_stats_enabled is never left changed.
 */
#ifndef FSPROF_SELFCOST_H
#define FSPROF_SELFCOST_H

#include <stdbool.h>
#include <stdint.h>

#include "fsprof/phase.h"
#include "results/metrics.h"

struct bpf_object;

#define SELFCOST_MAX_PROGS 96

struct selfcost_sample {
	uint64_t run_ns, run_cnt;
	/*
	 * events a program did not run for: it was running on that CPU
	 * already (an interrupt's event inside it), bpf_prog_info's
	 * recursion_misses
	 */
	uint64_t missed;
};

struct selfcost {
	bool off; /* FSPROF_SELF_COST=0: not measured, no self.* metrics */
	int stats_fd; /* BPF_ENABLE_STATS; -1 when unavailable */
	bool sysctl_set; /* fallback: we set kernel.bpf_stats_enabled */
	unsigned int n_fds;
	int fds[SELFCOST_MAX_PROGS];
	struct selfcost_sample at_start; /* when the case began */
	struct selfcost_sample begin; /* at the current phase's begin */
	struct selfcost_sample phase[FSPROF_MAX_PHASES];
};

/*
 * switch run-time stats on; why not in the log when it fails.
 * FSPROF_SELF_COST=0 leaves them off (each run of every BPF program of the
 * machine then skips two clock reads): for measuring what they cost.
 */
void selfcost_start(struct selfcost *sc);

/* remember the programs of a loaded object */
void selfcost_add_object(struct selfcost *sc, const struct bpf_object *obj);

/* a case begins: its phases' costs from zero, its spill from now */
void selfcost_case_start(struct selfcost *sc);

/* at a phase switch: before the id is set, and after it is cleared */
void selfcost_phase_begin(struct selfcost *sc);
void selfcost_phase_end(struct selfcost *sc, unsigned int phase);

/* self.bpf_run_ns and self.bpf_runs of phase (0: between phases) */
int selfcost_collect(struct selfcost *sc, unsigned int phase,
		     struct metric_set *m);

/* switch the stats off again (restores the sysctl when it was set) */
void selfcost_stop(struct selfcost *sc);

#endif
