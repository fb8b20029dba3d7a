/* SPDX-License-Identifier: GPL-2.0 */
/* Running a helper program (mkfs) and keeping what it printed. */
#ifndef FSPROF_SPAWN_H
#define FSPROF_SPAWN_H

#include <stddef.h>

struct spawn_result {
	int exit_code; /* exit status, or 128 + signal */
	char *output; /* stdout and stderr interleaved, NUL-terminated; free() */
	size_t output_len;
};

/*
 * Run argv[0] (searched in PATH) with argv, wait for it, and collect its
 * output. Returns 0 when it ran (whatever its exit code), or -errno when it
 * could not be started (then result->output explains).
 */
int spawn_capture(char *const argv[], struct spawn_result *result);

/*
 * Run argv as spawn_capture does, for its exit status alone: 0 when it
 * exited 0; otherwise -EIO (or the -errno it could not start with), with
 * "CMD failed: its output" logged
 */
int spawn_run_said(char *const argv[]);

/* "mkfs.ext4 -q /dev/loop3", shell-quoted where needed, into buf */
void spawn_format_argv(char *const argv[], char *buf, size_t len);

#endif
