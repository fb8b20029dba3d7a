/* SPDX-License-Identifier: GPL-2.0 */
/* Reading per-CPU BPF maps: one lookup returns a value per possible CPU. */
#ifndef FSPROF_PERCPU_H
#define FSPROF_PERCPU_H

#include <stddef.h>

/*
 * A zeroed buffer for one lookup of a per-CPU map with values of
 * value_size; *ncpus receives the number of possible CPUs. NULL with -errno
 * in *err on failure.
 */
void *percpu_values_alloc(size_t value_size, int *ncpus, int *err);

#endif
