/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reproduction bundle (fsprof report RUN --bundle DIR): what another
 * person needs to run the same A/B again, in one directory. README says
 * what the run was, on which kernels and targets, and how to rerun it;
 * results.json is the run's results; command its fsprof command line and
 * version; kernels/ the config of each kernel it ran on (or README says
 * where it was looked for); targets the mkfs and mount lines of every
 * target; rerun.sh runs the same cases on the same kernels (Debian
 * packages pinned to the ones that ran) and diffs them with the bundle's.
 */
#ifndef FSPROF_REPRO_BUNDLE_H
#define FSPROF_REPRO_BUNDLE_H

#include <stddef.h>

#include "repro/bundle_spec.h"

/*
 * Write the bundle into b->dir (made when missing). 0; -EEXIST when it is
 * not empty and b->force is not set, with nothing written; -errno when a
 * file could not be written; err says which and why.
 */
int bundle_write(const struct bundle_spec *b, char *err, size_t errlen);

#endif
