/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads are C generators: a list of phases, each with an untimed prepare
 * step (cache drop) and a timed body that includes its own sync. Workloads
 * know nothing of tracing.
 */
#ifndef FSPROF_WORKLOAD_H
#define FSPROF_WORKLOAD_H

#include <signal.h>
#include <stdint.h>

#include "results/results.h"

struct workload_env {
	const char *dir; /* the directory the workload owns */
	uint64_t size; /* bytes (seqio: the file size) */
	const volatile sig_atomic_t *stop; /* non-zero: return -EINTR soon */
};

struct phase_def {
	const char *name;
	const char *cache; /* cache state at the start: "dropped", "warm" */
	const char *sync; /* the flush the timing includes */
	int (*prepare)(const struct workload_env *env); /* untimed; may be NULL */
	int (*body)(const struct workload_env *env,
		    struct workload_counters *out);
};

struct workload_def {
	const char *name;
	const char *description;
	const struct phase_def *phases;
	unsigned int n_phases;
	uint64_t default_size;
	/* bytes the workload stores at its peak, for sizing the image */
	uint64_t (*space_needed)(uint64_t size);
};

const struct workload_def *workload_find(const char *name);

/* the registry, for listing */
const struct workload_def *const *workload_all(unsigned int *n);

extern const struct workload_def seqio_workload;

#endif
