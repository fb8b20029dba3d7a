// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "util/log.h"
#include "util/path.h"

int path_absolute(const char *path, char *out, size_t len, char *why,
		  size_t why_len)
{
	char cwd[4096];

	if (path[0] == '/') {
		if ((size_t)snprintf(out, len, "%s", path) >= len) {
			snprintf(why, why_len, "%s: path too long", path);
			return -EACCES;
		}
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		snprintf(why, why_len, "%s: the current directory: %s", path,
			 strerror_safe(errno));
		return -EACCES;
	}
	if ((size_t)snprintf(out, len, "%s/%s", cwd, path) >= len) {
		snprintf(why, why_len, "%s: path too long", path);
		return -EACCES;
	}
	return 0;
}
