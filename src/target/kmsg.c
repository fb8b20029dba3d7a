// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "target/kmsg.h"

int kmsg_watch_begin(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int kmsg_line_matches(const char *msg, const char *const *words)
{
	for (; *words; words++)
		if (strcasestr(msg, *words))
			return 1;
	return 0;
}

void kmsg_watch_end(int fd, const char *const *words, char *buf, size_t len)
{
	char rec[2048];
	size_t off = 0;

	if (!buf) {
		if (fd >= 0)
			close(fd);
		return;
	}
	buf[0] = '\0';
	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *msg, *nl;

		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: skip on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;message\n continuation lines" */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (!kmsg_line_matches(msg, words) || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					off ? "; " : "", msg);
	}
	close(fd);
}
