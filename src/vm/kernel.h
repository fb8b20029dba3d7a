/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernels of fsprof run --kernel: each named one staged for a guest
 * (scripts/vm/kernel-stage.sh: apt-get download and dpkg -x into a cache, a
 * vmlinux extracted, the modules the guest loads decompressed; nothing is
 * installed), then checked before any guest boots: BTF in its vmlinux, and
 * every filesystem of the run built in or shipped as a module. A kernel
 * that cannot serve is refused with its name, what is missing and the
 * config fix.
 */
#ifndef FSPROF_VM_KERNEL_H
#define FSPROF_VM_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#define VM_MAX_KERNELS 8

struct vm_kernel {
	char spec[512]; /* as given: "6.1", "running", "/path/bzImage" */
	char dir[4096]; /* the staged directory (kernel-stage.sh) */
	char release[128]; /* before boot: from the image; after: uname -r */
	char source[512]; /* the package, or the path it came from */
	char btf_hash[24]; /* FNV-1a 64 of its vmlinux .BTF, hex */
	bool has_config; /* a config to give the guest as /boot/config-* */
};

/* LIST ("6.1,6.12") into kernels; the count, or -EINVAL with why in err */
int vm_kernels_parse(const char *list, struct vm_kernel *k, unsigned int max,
		     char *err, size_t errlen);

/*
 * The modules a guest of fstypes loads, space-separated into buf: those of
 * its filesystems, the virtio disk and loop, after crc32c_generic (where
 * the kernel has them as modules: the staged set holds ext4 and xfs
 * always, and a guest of ext4 alone need not load xfs under emulation).
 */
void vm_kernel_guest_modules(const char *const *fstypes, unsigned int n,
			     char *buf, size_t len);

/* a path to an image, not a name apt or "running" resolves */
bool vm_kernel_is_path(const struct vm_kernel *k);

/* the directory of scripts/vm (beside the build, or installed) into buf */
int vm_script_dir(char *buf, size_t len);

/*
 * Stage k (spec set) with the modules a guest of fstypes needs; modules_dir
 * is --kernel-modules or NULL, cache where it is staged (NULL: the
 * default, $FSPROF_VM_CACHE or /var/cache/fsprof-vm). 0, or -errno with
 * the reason in err (the script's own words: which kernel and why).
 */
int vm_kernel_stage(struct vm_kernel *k, const char *modules_dir,
		    const char *cache, const char *const *fstypes,
		    unsigned int n_fstypes, char *err, size_t errlen);

/*
 * Can staged k run fsprof on fstypes? BTF in its vmlinux (its hash into k),
 * each filesystem and the virtio disk built in or staged as a module. 0, or
 * -ENOENT with what is missing and the config fix in err.
 */
int vm_kernel_check(struct vm_kernel *k, const char *const *fstypes,
		    unsigned int n_fstypes, char *err, size_t errlen);

#endif
