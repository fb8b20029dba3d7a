/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A case's aging step (--age): after the target is up and before the
 * tracer starts, so none of its IO lands in a phase or the spill; then the
 * free-space histogram it left, and a check that the workload still fits.
 */
#ifndef FSPROF_CASE_AGE_H
#define FSPROF_CASE_AGE_H

#include <signal.h>

#include "results/results.h"
#include "target/target.h"
#include "workload/age_spec.h"

/*
 * Age t's filesystem as s says, into c->age. 0; -EINTR; -ENOSPC when the
 * aging left less than need bytes free (said); -errno when it failed.
 */
int case_age(const struct target *t, const struct age_spec *s, uint64_t need,
	     const volatile sig_atomic_t *stop, struct case_result *c);

#endif
