// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <unistd.h>

#include "util/write_full.h"

int write_full(int fd, const void *buf, size_t len,
	       const volatile sig_atomic_t *stop)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR) {
			if (stop && *stop)
				return -EINTR;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
