// SPDX-License-Identifier: GPL-2.0
/*
 * The tar member path checks (workload/tarsafe.c): input is "member\0target".
 * A path the check lets through never escapes once normalized: no leading
 * '/', no ".." component.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "workload/tarsafe.h"

static int escapes(const char *norm)
{
	const char *p = norm;

	if (norm[0] == '/')
		return 1;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += len;
		if (*p == '/')
			p++;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *member = fuzz_cstring(data, size), norm[PATH_MAX];
	const char *target = member + strlen(member);

	/* a second string after the first NUL, if there is one */
	if ((size_t)(target - member) < size)
		target++;
	if (!tarsafe_path_problem(member) &&
	    !tarsafe_normalize(member, norm, sizeof(norm)))
		FUZZ_ASSERT(!escapes(norm));
	tarsafe_symlink_problem(member, target);
	if (!tarsafe_hardlink_problem(target) &&
	    !tarsafe_normalize(target, norm, sizeof(norm)))
		FUZZ_ASSERT(!escapes(norm));
	free(member);
	return 0;
}
