/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel side of phase markers (bpf/marker.bpf.c): loaded for a traced
 * command, on the phase map the tracer shares, watching one pipe.
 */
#ifndef FSPROF_TRACE_MARKER_H
#define FSPROF_TRACE_MARKER_H

#include <stdbool.h>
#include <stdint.h>

#include "fsprof/marker.h"
#include "results/results.h"
#include "trace/phase_map.h"
#include "util/teardown.h"

struct fsprof_bpf;
struct tracer;

struct marker_tracer {
	/* the tracer's loaded object; NULL: not running, userspace switches */
	struct fsprof_bpf *skel;
	uint64_t pipe_ino; /* the pipe it watches */
	uint32_t pipe_sdev; /* its superblock, in the kernel's encoding */
};

/*
 * The marker program for the pipe whose write end is write_fd, in t's one
 * BPF object of every program (trace/bpf_group.h): it loads with the
 * domains, publishing into their phase map. After t's load m->skel is set
 * when it loaded; when it did not, that is warned of. 0, or -errno.
 */
int marker_tracer_prepare(struct marker_tracer *m, struct tracer *t,
			  int write_fd);

/*
 * Attach it once the domains are bound: the program recorded in programs,
 * the stop onto td. On failure the tracer is left
 * stopped (userspace switches).
 */
int marker_tracer_attach(struct marker_tracer *m, struct attach_list *programs,
			 struct teardown *td);

/*
 * What the kernel did with write k (0-based): 0 and *out, or -EAGAIN when
 * it has not seen that write (yet), -ENOENT when not running.
 */
int marker_tracer_entry(const struct marker_tracer *m, uint64_t k,
			struct marker_entry *out);

/*
 * Only writers in the cgroup of this id (cgroup2) are looked at; 0: every
 * writer. Set before the command runs, once it is in the cgroup.
 */
void marker_tracer_set_cgroup(struct marker_tracer *m, uint64_t cgroup_id);

/* after userspace applied a deferred write: the kernel side's state */
void marker_tracer_set_state(struct marker_tracer *m, unsigned int next_phase,
			     unsigned int open_phase);

/*
 * The traced command has exited: its marker program goes (what the kernel
 * recorded stays readable until the stop). A BTF tracepoint's link goes
 * without waiting (no close over 1 ms, strace -T); the syscalls event's
 * perf event, before, waited for an RCU grace period.
 */
void marker_tracer_detach(struct marker_tracer *m);

/* detached, and not running any more (the object is the tracer's) */
void marker_tracer_stop(struct marker_tracer *m);

#endif
