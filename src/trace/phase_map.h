/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phase map every domain shares (include/fsprof/phase.h): created once
 * by the tracer, reused by each domain's object before it loads, mmapped
 * here so that a switch is published with plain stores.
 */
#ifndef FSPROF_PHASE_MAP_H
#define FSPROF_PHASE_MAP_H

#include <stdint.h>

struct bpf_object;
struct phase_shared;

/* the map's name in every domain's object (bpf/phase.bpf.h) */
#define PHASE_MAP_NAME "phase_shared"

struct phase_map {
	int fd;
	struct phase_shared *mem; /* mmapped value, NULL when closed */
};

int phase_map_create(struct phase_map *pm);

/* make obj (opened, not loaded) use the shared map instead of its own */
int phase_map_share(const struct phase_map *pm, const struct bpf_object *obj);

/*
 * Publish phase (0: between phases) as begun at start_ns: its start, then
 * the switch entry, then the switch count, in that order.
 */
void phase_map_publish(struct phase_map *pm, unsigned int phase,
		       uint64_t start_ns);

void phase_map_close(struct phase_map *pm);

#endif
