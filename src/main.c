// SPDX-License-Identifier: GPL-2.0
/* fsprof: why is this filesystem slow on this workload? */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "run/options.h"
#include "util/log.h"

/*
 * A report that could not be written is a failure: `fsprof run > /dev/full`
 * exited 0 with nothing written. A reader that went away (`| head`) is not:
 * what it wanted, it read. A command that failed has said why already.
 */
static bool reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	/* a pipe whose reader closed it: POLLERR, whenever the write failed */
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

static int stdout_checked(int code)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return code;
	if (errno == EPIPE || reader_gone() || code)
		return code;
	log_error("writing to standard output: %s",
		  errno ? strerror(errno) : "an earlier write failed");
	return EXIT_RUN_FAILED;
}

int main(int argc, char **argv)
{
	return stdout_checked(cli_main(argc, argv));
}
