/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a report function wrote to a FILE, as a string: a temporary file
 * to write into, and its whole text read back. Header-only, after
 * <cmocka.h>: each test binary is one translation unit.
 */
#ifndef FSPROF_TEST_WRITTEN_TEXT_H
#define FSPROF_TEST_WRITTEN_TEXT_H

#include <stdio.h>
#include <stdlib.h>

/* a temporary file for the code under test to write into */
static inline FILE *written_begin(void)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	return f;
}

/* everything written to f, NUL-terminated (free it); closes f */
static inline char *written_text(FILE *f)
{
	long len = ftell(f);
	char *buf = calloc(1, (size_t)len + 1);

	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

#endif
