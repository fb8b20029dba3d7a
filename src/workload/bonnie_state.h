/* SPDX-License-Identifier: GPL-2.0 */
/* What bonnie's phases share: the file, its geometry and the seek tickets. */
#ifndef FSPROF_BONNIE_STATE_H
#define FSPROF_BONNIE_STATE_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "workload/workload.h"

#define BONNIE_FILE "Bonnie.dat"
/* bonnie++'s UpdateSeek: one ticket in ten also rewrites its chunk */
#define BONNIE_UPDATE_ONE_IN 10
/* a ticket's top bit: rewrite the chunk after reading it */
#define BONNIE_TICKET_UPDATE (1ULL << 63)
/* the unit bonnie++ times as one operation, per phase */
#define BONNIE_LATENCY_METRIC "bonnie.latency_ns"

struct bonnie_state {
	char path[PATH_MAX];
	uint64_t size; /* bytes in the file */
	size_t chunk; /* bytes per block read/write */
	uint64_t n_chunks;
	int fd; /* opened untimed by a phase's prepare, -1 when closed */
	FILE *stream; /* the per-char phases' stdio stream over fd */
	char *buf; /* one chunk */
	uint64_t *tickets; /* seek targets, made before the seekers fork */
	unsigned int n_tickets;
};

static inline struct bonnie_state *bonnie_state(const struct workload_env *env)
{
	return env->state;
}

int bonnie_fail(const char *what, const char *path);

/* prepare and body of the random seeks phase (bonnie_seeks.c) */
int bonnie_seeks_prepare(const struct workload_env *env);
int bonnie_seeks(const struct workload_env *env, struct phase_ctx *pc);

#endif
