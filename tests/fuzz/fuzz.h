/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the libFuzzer harnesses: the input as a C string. */
#ifndef FSPROF_FUZZ_H
#define FSPROF_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a NUL-terminated copy of the input (the parsers take C strings) */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* a property the harness checks: a crash libFuzzer reports with the input */
#define FUZZ_ASSERT(cond)        \
	do {                     \
		if (!(cond))     \
			abort(); \
	} while (0)

#endif
