/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seeded synthetic source tree with the shape of a Linux kernel tarball
 * (measured on linux-source-6.1, see docs/workloads.md): file sizes from the
 * measured quantiles, lognormal files per directory (median ~6), directory
 * depth mean ~4.7 and at most 10, names ~12 characters, a few symlinks.
 * Entries come in tar order (depth first, a directory before its contents);
 * the same spec and seed always give the same tree, byte for byte.
 */
#ifndef FSPROF_SYNTHTREE_H
#define FSPROF_SYNTHTREE_H

#include <stdint.h>

#include "workload/memtar.h"

struct synth_spec {
	char top[64]; /* the top directory's name: "linux-6.1" */
	uint64_t files; /* regular files */
	uint64_t dirs; /* directories, the top one included */
	uint64_t symlinks;
	uint64_t bytes; /* file data in all */
	uint64_t seed;
};

/* "small", "linux-2.6.33" (quick), "linux-6.1" (full); -EINVAL otherwise */
int synth_preset(const char *name, struct synth_spec *out);

/* the presets' names, for error messages */
const char *synth_preset_names(void);

/* the same shape with another file count: dirs, symlinks, bytes follow */
void synth_spec_scale(struct synth_spec *spec, uint64_t files);

/* make the tree into t (emptied first); the file data is one shared pool */
int synth_build(const struct synth_spec *spec, struct memtar *t);

/* the size of the q-quantile (0 < q < 1) of the measured distribution */
uint64_t synth_size_quantile(double q);

#endif
