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

struct bpf_object;
struct marker_bpf;

struct marker_tracer {
	struct marker_bpf *skel; /* NULL: not running, userspace switches */
};

/*
 * Load the marker program for the pipe whose write end is write_fd,
 * publishing into pm: before the domains load, so that its libbpf parse of
 * the kernel's BTF (11-12 MB at its peak) is not on top of their mapped
 * rings. Returns 0, or -errno (warned of).
 */
int marker_tracer_load(struct marker_tracer *m, const struct phase_map *pm,
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

/* the loaded object (for fsprof's own cost), NULL when not running */
const struct bpf_object *marker_tracer_object(const struct marker_tracer *m);

/*
 * The traced command has exited: its marker program goes (what the kernel
 * recorded stays readable until the stop). A BTF tracepoint's link goes
 * without waiting (no close over 1 ms, strace -T); the syscalls event's
 * perf event, before, waited for an RCU grace period.
 */
void marker_tracer_detach(struct marker_tracer *m);

void marker_tracer_stop(struct marker_tracer *m);

#endif
