// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "run/case_gate.h"
#include "run/case_run.h"
#include "util/log.h"
#include "util/write_full.h"

#define GATE_LINE_MAX 256

int case_gate_open(const char *path)
{
	struct termios t;
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		log_error("--case-gate %s: %s", path, strerror(errno));
		return -errno;
	}
	/* a serial port: bytes as they come, no echo back to the host */
	if (!tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/* one line from the host, without its end; -errno */
static int gate_read_line(int fd, char *buf, size_t len)
{
	size_t used = 0;

	for (;;) {
		char ch;
		ssize_t n = read(fd, &ch, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EPIPE;
		if (ch == '\n' || ch == '\r') {
			if (!used)
				continue;
			break;
		}
		if (used + 1 < len)
			buf[used++] = ch;
	}
	buf[used] = '\0';
	return 0;
}

static int gate_say(int fd, const char *line)
{
	return write_full(fd, line, strlen(line), NULL);
}

int case_gate_wait(int fd, const struct case_plan *plan, unsigned int *order)
{
	char line[GATE_LINE_MAX];
	int ret;

	snprintf(line, sizeof(line), "ready %s %s %u\n", plan->wl->name,
		 plan->fs->label, plan->repeat);
	ret = gate_say(fd, line);
	if (!ret)
		ret = gate_read_line(fd, line, sizeof(line));
	if (ret) {
		log_error("the case gate: %s", strerror(-ret));
		return ret;
	}
	if (!strncmp(line, "go ", 3)) {
		*order = (unsigned int)strtoul(line + 3, NULL, 10);
		return 0;
	}
	log_info("the host said \"%s\": no more cases", line);
	return 1;
}

void case_gate_finish(int fd)
{
	char line[GATE_LINE_MAX];

	if (!gate_say(fd, "finish\n"))
		gate_read_line(fd, line, sizeof(line));
}
