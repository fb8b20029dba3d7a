/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The aging step of --age: fill the filesystem under dir to the spec's
 * share with a seeded mix of file sizes (large writes, no fsync per file),
 * delete the spec's pattern of them, then one syncfs. The same seed on the
 * same filesystem writes the same files. Untimed: the run does it before
 * the tracer starts.
 */
#ifndef FSPROF_AGE_H
#define FSPROF_AGE_H

#include <signal.h>

#include "results/aging.h"
#include "workload/age_spec.h"

/* the directory under the target's root the aging's files live in */
#define AGE_DIR "fsprof-aged"

/*
 * Age the filesystem dir is on, in dir/AGE_DIR; what it did goes into out
 * (every field but free). 0, -EINTR when *stop was set, or -errno said.
 */
int age_filesystem(const char *dir, const struct age_spec *s,
		   const volatile sig_atomic_t *stop, struct age_result *out);

#endif
