/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture what the code under test writes to stderr, so a test can check the
 * message and the TAP stream stays clean. Header-only: each test binary is
 * one translation unit.
 */
#ifndef FSPROF_TEST_STDERR_CAPTURE_H
#define FSPROF_TEST_STDERR_CAPTURE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct stderr_capture {
	int saved_fd;
	FILE *file;
	char text[16384];
};

/* send fd 2 to a temporary file until stderr_capture_end(); 0 or -1 */
static inline int stderr_capture_begin(struct stderr_capture *cap)
{
	fflush(stderr);
	cap->text[0] = '\0';
	cap->file = tmpfile();
	if (!cap->file)
		return -1;
	cap->saved_fd = dup(STDERR_FILENO);
	if (cap->saved_fd < 0 || dup2(fileno(cap->file), STDERR_FILENO) < 0) {
		fclose(cap->file);
		return -1;
	}
	return 0;
}

/* restore stderr and return what was written meanwhile (NUL-terminated) */
static inline const char *stderr_capture_end(struct stderr_capture *cap)
{
	size_t n;

	fflush(stderr);
	dup2(cap->saved_fd, STDERR_FILENO);
	close(cap->saved_fd);
	rewind(cap->file);
	n = fread(cap->text, 1, sizeof(cap->text) - 1, cap->file);
	cap->text[n] = '\0';
	fclose(cap->file);
	return cap->text;
}

#endif
