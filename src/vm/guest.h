/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One guest of fsprof run --kernel: a staged kernel booted under QEMU (KVM
 * when the CPU offers vmx or svm and /dev/kvm opens, else TCG) with a
 * busybox initramfs holding this fsprof, two virtio disks (the scratch
 * filesystem the run's images live on, and the results disk the guest
 * writes its output to as a tar), the run's own arguments, and a time
 * limit. Everything it makes is in one directory under the scratch
 * directory, removed when it ends, whatever the guest did.
 */
#ifndef FSPROF_VM_GUEST_H
#define FSPROF_VM_GUEST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/kernel.h"

/* an option of fsprof run for the guest's run: --name[=value] */
struct guest_arg {
	const char *name;
	const char *value; /* NULL: none */
};

#define GUEST_MAX_ARGS 64

struct guest_spec {
	const struct vm_kernel *kernel;
	const struct guest_arg *args; /* fsprof run's options in the guest */
	unsigned int n_args;
	const char *const *programs; /* mkfs.ext4 ...: copied in */
	unsigned int n_programs;
	const char *scratch; /* the host's scratch directory */
	uint64_t scratch_bytes; /* the guest's scratch disk (sparse) */
	const char *cmdline; /* --kernel-cmdline, or NULL */
	uint64_t timeout_ns;
	volatile sig_atomic_t *stop; /* a signal number: the run is to stop */
};

struct guest_result {
	char accel[8]; /* "kvm", "tcg" */
	double wall_s; /* QEMU started to ended */
	double boot_s; /* the guest's uptime when /init started; < 0 unknown */
	char release[128]; /* uname -r in the guest */
	int fsprof_rc; /* its fsprof's exit status; -1 when it did not end */
	char *run_json; /* its results file; NULL when it wrote none */
	char *run_log; /* its fsprof's output; may be NULL */
};

/* "kvm" when usable here, else "tcg" */
const char *guest_accel(void);

/*
 * Boot, run, collect. 0 when the guest's fsprof ended and its output came
 * back (whatever its status: fsprof_rc); else -errno, and err says what
 * happened, with the end of the guest's console (a hang killed at the
 * limit, a panic).
 */
int guest_run(const struct guest_spec *spec, struct guest_result *res,
	      char *err, size_t errlen);

void guest_result_free(struct guest_result *res);

#endif
