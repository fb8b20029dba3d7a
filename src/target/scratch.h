/* SPDX-License-Identifier: GPL-2.0 */
/* The scratch directory: where images live, checked before use. */
#ifndef FSPROF_SCRATCH_H
#define FSPROF_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

#include "util/teardown.h"

#define SCRATCH_DEFAULT "/var/tmp/fsprof"

/* exists (the default is created), is a directory, has need_bytes free */
int scratch_check(const char *dir, uint64_t need_bytes);

/* mkdtemp <dir>/fsprof.XXXXXX into out; its removal goes onto td */
int scratch_make_rundir(const char *dir, char *out, size_t len,
			struct teardown *td);

#endif
