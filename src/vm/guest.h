/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One guest of fsprof run --kernel: a staged kernel booted under QEMU (KVM
 * when the CPU offers vmx or svm and /dev/kvm opens, else TCG) with a
 * busybox initramfs holding this fsprof, two virtio disks (the scratch
 * filesystem the run's images live on, and the results disk the guest
 * writes its output to as a tar), the run's own arguments, and a time
 * limit. Its fsprof waits before each case at a gate on its second serial
 * port (run/case_gate.h), a pair of FIFOs here: the host lets it run one
 * case at a time, so that the guests of a run stay booted and take turns.
 * Everything it makes is in one directory under the scratch directory,
 * removed when it ends, whatever the guest did.
 */
#ifndef FSPROF_VM_GUEST_H
#define FSPROF_VM_GUEST_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/runstate.h"
#include "vm/guest_output.h"
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
	const char *modules; /* what it loads (vm_kernel_guest_modules) */
	const char *const *programs; /* mkfs.ext4 ...: copied in */
	unsigned int n_programs;
	const char *scratch; /* the host's scratch directory */
	uint64_t scratch_bytes; /* the guest's scratch disk (sparse) */
	const char *cmdline; /* --kernel-cmdline, or NULL */
	/* the most time the host waits on it in all: its boot, its cases,
	 * its end (not the time it idles while another guest runs) */
	uint64_t timeout_ns;
	volatile sig_atomic_t *stop; /* a signal number: the run is to stop */
	/* the run's state file: the guest's directory is recorded in it, for
	 * fsprof cleanup after a run killed with SIGKILL; NULL: none */
	struct runstate *state;
};

/* where a guest's fsprof is, after guest_wait */
enum guest_state {
	GUEST_READY, /* at its gate before a case: guest.next says which */
	GUEST_FINISH, /* its cases done, at its gate before it wraps up */
	GUEST_ENDED, /* QEMU ended */
};

#define GUEST_LINE_MAX 256

struct guest {
	const struct guest_spec *spec;
	char dir[PATH_MAX];
	pid_t pid; /* QEMU; 0 once it ended */
	int gate_to, gate_from; /* the FIFOs of the guest's ttyS1 */
	char line[GUEST_LINE_MAX]; /* what the gate said so far */
	size_t used;
	char next[GUEST_LINE_MAX]; /* "seqio on ext4, repeat 1" */
	char running[GUEST_LINE_MAX]; /* the case it was let run, or "" */
	uint64_t t0, waited_ns;
	int qemu; /* how QEMU ended (guest.c); -1 running */
	int record; /* dir's record in spec->state; 0: none */
	struct guest_result res;
};

/* "kvm" when usable here, else "tcg" */
const char *guest_accel(void);

/* Build its initramfs and disks, start QEMU: 0, or -errno said in err. */
int guest_start(struct guest *g, const struct guest_spec *spec, char *err,
		size_t errlen);

/*
 * Until the guest is at its gate (GUEST_READY, GUEST_FINISH) or QEMU ended
 * (GUEST_ENDED: with results, g->res.fsprof_rc >= 0). -EIO when the guest
 * failed: killed at the limit or by a signal, a panic, no results; err
 * then names the kernel, the case it ran, and the console's end.
 */
int guest_wait(struct guest *g, char *err, size_t errlen);

/* let a GUEST_READY guest run its next case, the order-th of the run */
int guest_go(struct guest *g, unsigned int order);

/* let a GUEST_FINISH guest wrap up (without waiting for it) */
void guest_release(struct guest *g);

/* until QEMU ends, its results in g->res: 0, or -EIO as guest_wait's */
int guest_end(struct guest *g, char *err, size_t errlen);

/* QEMU killed if it still runs, its directory removed (its record too;
 * g->record stays when it could not be), results freed */
void guest_destroy(struct guest *g);

#endif
