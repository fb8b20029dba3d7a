/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface every kernel domain implements (bpf/<domain>.bpf.c +
 * src/trace/<domain>.c). The tracer drives them through these steps, once
 * per run: open (configure its part of the one BPF object of all domains,
 * trace/bpf_group.h: its read-only globals, the same for every case, and
 * its programs on) -> the object loads -> loaded -> attach; then for each
 * case: bind (its target, into writable globals) -> set_phase ... ->
 * collect -> off; at the end destroy. A domain that cannot load is
 * reported, and the run goes on without it. What domains share (their programs and events, the
 * per-CPU sum of their per-phase statistics, their counters' names) is a
 * table entry, struct domain_def (trace/domain_def.h).
 */
#ifndef FSPROF_DOMAIN_H
#define FSPROF_DOMAIN_H

#include "results/results.h"

#include <stdbool.h>
#include <stdint.h>

#include "trace/btf_probe.h"

struct bpf_object;
struct fsprof_bpf;

/*
 * What the tracer is set up for. A run's settings (the same in every case:
 * deep, bin_ns, slow_io_ns, workload_pid, every_process, btf) are read at
 * open; a case's target (the devices, stack, log, fstype) at bind.
 */
struct trace_config {
	unsigned int kernel_dev; /* the target, major << 20 | minor */
	unsigned int disk_dev; /* the whole disk it is on (block requests) */
	/* a partition's sectors on disk_dev; 0 sectors: the whole disk */
	uint64_t part_start, part_sectors;
	bool no_requests; /* a bio-based disk: the block domain sees nothing */
	/*
	 * a stacked target (md, dm): the member disks traced in its place,
	 * and the log's ranges on them (used instead of log); or NULL
	 */
	const struct block_stack *stack;
	/* the filesystem's log in disk sectors (block log class); or NULL */
	const struct log_region *log;
	/* for probing tracepoints: btf_tracepoint_nargs(cfg->btf, "...") */
	const struct kernel_btf *btf;
	const char *fstype; /* as mounted: "ext4", "xfs" ... */
	bool deep; /* --probes deep: also the per-file hot events */
	uint64_t bin_ns; /* timeline bin width (--bin); 0: the default */
	uint64_t slow_io_ns; /* --slow-io: a block IO event above; 0: default */
	/* the workload: fsprof (0) or a command's process tree (its pid) */
	int workload_pid;
	/* every process is the workload (fsprof record): no one to follow */
	bool every_process;
};

struct fsprof_event;

struct trace_domain_ops {
	const char *name;
	/* which phase its work is charged to (in the JSON's case.charging) */
	const char *charging;
	/* the filesystems whose events it traces; NULL: every filesystem */
	const char *const *fstypes;
	/*
	 * its part of skel (opened, not loaded): its read-only
	 * configuration, its programs on (autoload) where the kernel has
	 * their events; the domain keeps skel for its maps and globals
	 */
	int (*open)(void **priv, struct fsprof_bpf *skel,
		    const struct trace_config *cfg);
	/* optional: skel loaded, its programs not yet attached */
	int (*loaded)(void *priv);
	/*
	 * optional: skel failed to load with this domain alone in it (err):
	 * 0 keeps the domain, unloaded, for its attach to say why; else
	 * (or without it) the domain is dropped
	 */
	int (*load_failed)(void *priv, int err);
	/* attach what exists; one attach_record per program into list */
	int (*attach)(void *priv, struct attach_list *list);
	/*
	 * A case begins on cfg's target: the tracer has emptied the domain's
	 * maps and put its writable globals back as they were at load (every
	 * target setting 0: off, trace/domain_state.h); set the case's
	 * target in them, and start the user side's own state afresh.
	 * -ENODEV: the domain sees nothing of this target (said why); it sits
	 * the case out, off.
	 */
	int (*bind)(void *priv, const struct trace_config *cfg);
	/* optional: the case ended (the domain is off): its user side's end */
	void (*unbind)(void *priv);
	/*
	 * Optional, around a phase switch from -> to (0: between phases): the
	 * tracer publishes the new phase in the one phase map all domains
	 * share (include/fsprof/phase.h) between the two calls. For peers
	 * read at the switch (jbd2's /proc, XFS's sysfs stats). exact: the
	 * tracer publishes the switch itself, between the two calls; false
	 * when the kernel switched earlier (a traced command's marker, see
	 * bpf/marker.bpf.c): a peer read then is not at the programs'
	 * boundary, and its count for the phase is not reported.
	 */
	void (*phase_before)(void *priv, unsigned int from, unsigned int to,
			     bool exact);
	void (*phase_after)(void *priv, unsigned int from, unsigned int to,
			    bool exact);
	/*
	 * Optional, around an unmount and mount again of the target between
	 * phases (a cold phase's prepare step; mounted false before the
	 * unmount, true after the mount): for peers that are the mount's own
	 * statistics and start again from zero with it.
	 */
	void (*remount)(void *priv, bool mounted);
	/*
	 * Optional: how much work charged to phase is still in flight (block
	 * requests). Collect waits for it to drain, up to a bound.
	 */
	unsigned int (*in_flight)(void *priv, unsigned int phase);
	/*
	 * Add what the kernel counted for phase into out: block into
	 * out->block, everything else as named metrics "<domain>.<what>" into
	 * out->metrics. Phase 0 is the work seen between phases.
	 */
	int (*collect)(void *priv, unsigned int phase,
		       struct phase_result *out);
	/* optional: the fd of its ring of rare events (BPF ringbuf), or < 0 */
	int (*event_ring)(void *priv);
	/* optional: fill the strings of a raw event from its ring */
	void (*event_name)(void *priv, const struct fsprof_event *raw,
			   struct event_record *rec);
	/* its user side freed, its programs detached (skel is the tracer's) */
	void (*destroy)(void *priv);
};

extern const struct trace_domain_ops block_domain;
extern const struct trace_domain_ops jbd2_domain;
extern const struct trace_domain_ops ext4_domain;
extern const struct trace_domain_ops writeback_domain;
extern const struct trace_domain_ops xfs_domain;
extern const struct trace_domain_ops btrfs_domain;
extern const struct trace_domain_ops sched_domain;

#endif
