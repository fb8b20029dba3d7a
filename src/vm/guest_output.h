/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a guest of fsprof run --kernel leaves in its directory for the host
 * to read: its serial console (console.log: the end quoted in errors, the
 * uptime its /init started at) and the tar it wrote on its results disk
 * (results.img: run.json, run.log, kernel, rc).
 */
#ifndef FSPROF_VM_GUEST_OUTPUT_H
#define FSPROF_VM_GUEST_OUTPUT_H

#include <stddef.h>

/* what a guest gave back */
struct guest_result {
	char accel[8]; /* "kvm", "tcg" */
	double wall_s; /* QEMU started to ended */
	double boot_s; /* the guest's uptime when /init started; < 0 unknown */
	char release[128]; /* uname -r in the guest */
	int fsprof_rc; /* its fsprof's exit status; -1 when it did not end */
	char *run_json; /* its results file; NULL when it wrote none */
	char *run_log; /* its fsprof's output; may be NULL */
};

/* what console_excerpt writes at most: 28 lines of 160 (checked in
 * guest_output.c against its line counts) */
#define GUEST_CONSOLE_EXCERPT_BYTES (28 * (160 + 8))

/*
 * What dir's console.log says of how the guest ended, indented, into buf:
 * its last lines; when its kernel oopsed, the oops's head (what led to
 * it, its title, CPU and RIP lines), its call trace and the last lines,
 * "..." between.
 */
void console_excerpt(const char *dir, char *buf, size_t len);

/* the guest's uptime when its /init started; < 0 unknown */
double console_boot_s(const char *dir);

/* the tar on dir's results.img into res (release, fsprof_rc, files) */
void results_read(const char *dir, struct guest_result *res);

#endif
