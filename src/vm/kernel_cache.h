/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache scripts/vm/kernel-stage.sh stages kernels in: what else may
 * read it (fsprof report --bundle takes a guest kernel's config from its
 * staged directory, CACHE/staged/KEY/{source,release,config}).
 */
#ifndef FSPROF_VM_KERNEL_CACHE_H
#define FSPROF_VM_KERNEL_CACHE_H

#include <stddef.h>

/* kernel-stage.sh's default; $FSPROF_VM_CACHE overrides it, as there */
#define VM_CACHE_DEFAULT "/var/cache/fsprof-vm"

/* $FSPROF_VM_CACHE when set and not empty, else VM_CACHE_DEFAULT */
const char *vm_cache_dir(void);

/*
 * The config of the kernel staged from source (its package, or path)
 * whose release is release, into path: 0, or -ENOENT when no staged
 * directory of the cache has both and a config.
 */
int vm_staged_config(const char *source, const char *release, char *path,
		     size_t len);

#endif
