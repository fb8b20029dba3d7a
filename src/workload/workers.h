/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Worker processes for multi-process workloads (bonnie's seekers, afd's
 * producers, copiers and sink): fork them inside a phase, let each report
 * through a MAP_SHARED anonymous mapping (a child cannot write the parent's
 * memory), wait for all of them inside the phase so their CPU lands in
 * RUSAGE_CHILDREN, then merge their op latency histograms into the phase.
 */
#ifndef FSPROF_WORKERS_H
#define FSPROF_WORKERS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workload/workload.h"

#define WORKERS_MAX 130

/* what one worker reports; lives in the shared mapping */
struct worker_slot {
	int err; /* 0, or the negative errno the worker failed with */
	int finished; /* the worker returned (1) rather than died */
	struct latency_hist op[OP_NR]; /* like phase_ctx's op.<class>_ns */
};

struct workers {
	unsigned int n; /* spawned so far */
	unsigned int cap;
	pid_t pid[WORKERS_MAX];
	bool reaped[WORKERS_MAX];
	int status[WORKERS_MAX]; /* waitpid status once reaped */
	struct worker_slot *slot; /* shared, cap entries */
	void *shared; /* shared, the workload's own area, zeroed */
	size_t map_len;
};

/* a worker body: runs in the child; returns 0 or a negative errno */
typedef int (*worker_fn)(void *arg, unsigned int index,
			 struct worker_slot *slot);

/* map room for cap workers and shared_len bytes of the workload's own */
int workers_map(struct workers *w, unsigned int cap, size_t shared_len);

/* fork worker number w->n running fn(arg, index, slot); child _exit()s */
int workers_spawn(struct workers *w, worker_fn fn, void *arg);

/*
 * Wait for every spawned worker. Every tick_ns (0: never) call tick(arg);
 * when *stop becomes set, or a worker failed or died, send SIGTERM to the
 * workers still running (their stop flag ends them) and keep waiting.
 * Returns 0 when every worker finished with err 0; -EINTR when stopped; else
 * the first worker error (-ECHILD for one that died).
 */
int workers_wait(struct workers *w, const volatile sig_atomic_t *stop,
		 uint64_t tick_ns, void (*tick)(void *arg), void *arg);

/* add every worker's op histograms into the phase's op.<class>_ns */
int workers_merge_ops(const struct workers *w, struct phase_ctx *pc);

/* kill (SIGKILL) and reap workers still running, then unmap */
void workers_release(struct workers *w);

/* in a worker: time since start_ns (clock_mono_ns()) into its op histogram */
void worker_op_record(struct worker_slot *slot, enum op_class op,
		      uint64_t start_ns);

#endif
