/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel domains' programs (and fsprof trace's phase marker) as one BPF
 * object (bpf/fsprof.bpf.c), one libbpf load for the domains a tracer load
 * takes: libbpf parses the kernel's BTF and searches it for CO-RE
 * candidates once per object, not once per domain. A group is opened with every program off; each domain's
 * open turns its own on (trace/domain.h), then the group loads once. Its
 * writable globals and maps are every domain's in it: the image kept after
 * attach turns them all off, and a new case empties them all.
 */
#ifndef FSPROF_BPF_GROUP_H
#define FSPROF_BPF_GROUP_H

#include <stdbool.h>

#include "trace/domain_state.h"
#include "trace/phase_map.h"

struct fsprof_bpf;
struct bpf_object;

struct bpf_group {
	struct fsprof_bpf *skel;
	struct domain_state state; /* its globals after attach: all off */
	bool used; /* bound to a case since it loaded: its maps hold counts */
	bool ready; /* emptied for the case running (or never counted) */
};

/*
 * A new group, opened (not loaded), every program off, on the tracer's
 * phase map; NULL with errno set.
 */
struct bpf_group *bpf_group_open(const struct phase_map *pm);

/* the object, for the domains' configuration and the programs' cost */
struct bpf_object *bpf_group_object(const struct bpf_group *g);

/*
 * Load what the domains' opens turned on: 0 or -errno. A program the
 * verifier refuses fails the whole load (the tracer then loads each domain
 * in a group of its own, trace/tracer.c).
 */
int bpf_group_load(struct bpf_group *g);

/* after every domain attached: the image that turns the group off */
int bpf_group_save(struct bpf_group *g);

void bpf_group_free(struct bpf_group *g);

#endif
