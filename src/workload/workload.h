/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads are C generators: parameters, an optional untimed setup, and a
 * list of phases, each with an untimed prepare step (cache drop) and a timed
 * body that includes its own sync. Workloads know nothing of tracing, nor
 * of the target's mount (a cold phase's mount again is the run's).
 */
#ifndef FSPROF_WORKLOAD_H
#define FSPROF_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"
#include "workload/params.h"

struct progress;

struct workload_env {
	const char *dir; /* the directory the workload owns */
	const struct workload_params *params;
	void *state; /* the workload's own, made by setup */
	const volatile sig_atomic_t *stop; /* non-zero: return -EINTR soon */
	bool warm; /* --warm: phases that drop caches first do not */
};

/* operation classes timed per call into "op.<class>_ns" histograms */
enum op_class {
	OP_WRITE,
	OP_READ,
	OP_CREATE,
	OP_OPEN,
	OP_CLOSE,
	OP_UNLINK,
	OP_MKDIR,
	OP_RMDIR,
	OP_FSYNC, /* fsync and fdatasync */
	OP_SYNC, /* sync, syncfs */
	OP_SEEK,
	OP_RENAME,
	OP_READDIR,
	OP_NR,
};

/* what a phase body reports into */
struct phase_ctx {
	struct phase_result *result; /* work counters, metrics, intervals */
	struct latency_hist *op_hist[OP_NR]; /* made on first use */
	struct progress *progress; /* NULL: nobody is watching */
};

struct phase_def {
	const char *name;
	/*
	 * cache state at the start: "warm"; "dropped" (its prepare drops
	 * caches); "cold" (the run mounts the target again after prepare,
	 * run/phase_cache.h), where the original experiment started cold
	 */
	const char *cache;
	const char *sync; /* the flush the timing includes */
	/* untimed, before the phase (a cache drop); may be NULL */
	int (*prepare)(const struct workload_env *env);
	int (*body)(const struct workload_env *env, struct phase_ctx *pc);
};

struct workload_def {
	const char *name;
	const char *description;
	const struct param_def *params;
	unsigned int n_params;
	const struct phase_def *phases;
	unsigned int n_phases;
	/*
	 * Refuse parameter values that cannot work, before anything is made
	 * (said; -EINVAL); may be NULL.
	 */
	int (*check)(const struct workload_params *params);
	/* untimed, before the first phase (decode a tarball...); may be NULL */
	int (*setup)(struct workload_env *env);
	/* frees env->state; may be NULL */
	void (*cleanup)(struct workload_env *env);
	/* data and directory bytes the workload stores at its peak */
	uint64_t (*space_needed)(const struct workload_params *params);
	/* inodes it holds at its peak (files, dirs, links); NULL: a handful */
	uint64_t (*files_needed)(const struct workload_params *params);
};

/*
 * Bytes an image needs for the workload: its data, plus ext4's default
 * 16 KiB of image per inode (mkfs.ext4 makes one inode per 16 KiB, so an
 * image sized for the data alone runs out of inodes first).
 */
uint64_t workload_image_need(const struct workload_def *wl,
			     const struct workload_params *params);

/* inodes the workload needs: files_needed, or a handful without it */
uint64_t workload_files_needed(const struct workload_def *wl,
			       const struct workload_params *params);

const struct workload_def *workload_find(const char *name);

/* the registry, for listing */
const struct workload_def *const *workload_all(unsigned int *n);

const char *op_class_name(enum op_class op);

/* time since start_ns (clock_mono_ns()) into the op's histogram */
void op_record(struct phase_ctx *pc, enum op_class op, uint64_t start_ns);

/* count work done: bytes moved, operations, files */
static inline void work_add(struct phase_ctx *pc, uint64_t bytes, uint64_t ops,
			    uint64_t files)
{
	pc->result->work.bytes += bytes;
	pc->result->work.ops += ops;
	pc->result->work.files += files;
}

/* a per-interval sample (afd's "files bytes => files/s MiB/s" lines) */
int interval_add(struct phase_ctx *pc, uint64_t t_ns, uint64_t files,
		 uint64_t bytes);

extern const struct workload_def seqio_workload;
extern const struct workload_def bonnie_workload;
extern const struct workload_def afd_workload;
extern const struct workload_def files1m_workload;
extern const struct workload_def mdcreate_workload;
extern const struct workload_def fsync_workload;
extern const struct workload_def untar_workload;

#endif
