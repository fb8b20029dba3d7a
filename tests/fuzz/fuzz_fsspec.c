// SPDX-License-Identifier: GPL-2.0
/*
 * The --fs spec parser (target/fsspec.c): a list of targets or an error
 * with a reason; every target parsed has a known fstype and NUL-terminated
 * fields.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "target/fsspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size), err[512];
	struct fsspec specs[FSSPEC_MAX];
	int n, i;

	err[0] = '\0';
	n = fsspec_parse(text, specs, FSSPEC_MAX, err, sizeof(err));
	if (n < 0) {
		FUZZ_ASSERT(err[0]);
	} else {
		FUZZ_ASSERT(n <= FSSPEC_MAX);
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(fsspec_fstype_known(specs[i].fstype));
			FUZZ_ASSERT(memchr(specs[i].label, '\0',
					   sizeof(specs[i].label)));
			FUZZ_ASSERT(memchr(specs[i].name, '\0',
					   sizeof(specs[i].name)));
		}
	}
	free(text);
	return 0;
}
