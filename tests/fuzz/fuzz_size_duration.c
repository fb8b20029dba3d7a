// SPDX-License-Identifier: GPL-2.0
/*
 * parse_size() and parse_duration() (util/parse.c): any text is a value or
 * an error that says something; a value is never zero, a size never over
 * INT64_MAX, and format_bytes() of it fits its buffer.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "util/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size), err[256], out[32];
	uint64_t v = 12345;

	err[0] = '\0';
	if (!parse_size(text, &v, err, sizeof(err))) {
		FUZZ_ASSERT(v > 0 && v <= INT64_MAX);
		format_bytes(v, out, sizeof(out));
		FUZZ_ASSERT(strlen(out) < sizeof(out));
	} else {
		FUZZ_ASSERT(err[0] && v == 12345);
	}
	err[0] = '\0';
	v = 12345;
	if (!parse_duration(text, &v, err, sizeof(err)))
		FUZZ_ASSERT(v > 0);
	else
		FUZZ_ASSERT(err[0] && v == 12345);
	free(text);
	return 0;
}
