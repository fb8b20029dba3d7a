/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's kernel state between cases. The programs are loaded and
 * attached once per run (trace/tracer.h); what a case counted lives in
 * the domain's maps and writable globals (.bss, .data), and what a case
 * targets (its device, log ranges, bdi) in writable globals too. At load
 * the globals are as the object declares them (every target setting 0:
 * the programs count nothing); that image is kept, and put back to turn
 * the domain off between cases, and to start a case from zero with every
 * map emptied.
 */
#ifndef FSPROF_DOMAIN_STATE_H
#define FSPROF_DOMAIN_STATE_H

#include <stddef.h>

struct bpf_object;
struct bpf_map;

#define DOMAIN_STATE_MAX_SECTIONS 4

struct domain_state {
	unsigned int n;
	struct {
		void *mem; /* the map's mmapped value: what the programs see */
		void *saved; /* its image after load and attach */
		size_t len;
	} sec[DOMAIN_STATE_MAX_SECTIONS];
};

/* keep obj's writable globals as they are now (loaded, not yet bound) */
int domain_state_save(struct domain_state *s, struct bpf_object *obj);

/* the writable globals as saved: the domain is off, its counters zero */
void domain_state_restore(const struct domain_state *s);

/*
 * A new case: the globals as saved, and every map of obj emptied (array
 * values zeroed, hash entries deleted) but for rings, task storage and
 * the phase map every domain shares. 0, or the first error.
 */
int domain_state_reset(const struct domain_state *s, struct bpf_object *obj);

void domain_state_free(struct domain_state *s);

#endif
