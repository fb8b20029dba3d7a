/* SPDX-License-Identifier: GPL-2.0 */
/* Attaching a domain's programs one by one, recording each outcome. */
#ifndef FSPROF_ATTACH_H
#define FSPROF_ATTACH_H

#include <stdbool.h>

#include "results/results.h"

struct bpf_program;
struct bpf_link;

struct program_slot {
	struct bpf_program *prog;
	struct bpf_link **link; /* the skeleton's link slot */
	const char *event; /* "block:block_rq_issue" */
	bool missing; /* the kernel has no such event: not loaded */
};

/*
 * Attach every loaded program of slots; a program whose event is missing is
 * recorded as such. Returns the number attached.
 */
int attach_programs(const char *domain, struct program_slot *slots, int n,
		    struct attach_list *list);

#endif
