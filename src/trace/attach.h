/* SPDX-License-Identifier: GPL-2.0 */
/* Attaching a domain's programs one by one, recording each outcome. */
#ifndef FSPROF_ATTACH_H
#define FSPROF_ATTACH_H

#include <stdbool.h>

#include "results/results.h"

struct bpf_program;
struct bpf_link;
struct bpf_object_skeleton;

struct program_slot {
	struct bpf_program *prog;
	struct bpf_link **link; /* the skeleton's link slot */
	const char *event; /* "block:block_rq_issue" */
	bool missing; /* the kernel has no such event: not loaded */
};

/* a domain's program: its name in the .bpf.c and the event it counts */
struct program_def {
	const char *name; /* "fsprof_j2_start" */
	const char *event; /* "jbd2:jbd2_start_commit" */
};

/* the tracepoint of def's event, for BTF probes: "jbd2_start_commit" */
const char *program_def_tracepoint(const struct program_def *def);

/*
 * slots[i] for defs[i]: the skeleton's program and link slot of that name,
 * not missing. -ENOENT (logged) when the skeleton has no such program.
 */
int program_slots_fill(const struct bpf_object_skeleton *skel,
		       const struct program_def *defs, int n,
		       struct program_slot *slots);

/* is the slot's program attached, so that its zero is a measured zero */
static inline bool program_slot_attached(const struct program_slot *slot)
{
	return *slot->link != NULL;
}

/*
 * Attach every loaded program of slots; a program whose event is missing is
 * recorded as such. Returns the number attached.
 */
int attach_programs(const char *domain, struct program_slot *slots, int n,
		    struct attach_list *list);

/*
 * Detach every attached program of slots: a domain dropped (or ended)
 * while the object it shares with the others stays loaded
 */
void detach_programs(struct program_slot *slots, int n);

#endif
