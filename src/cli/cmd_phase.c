// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof phase NAME | --end: one marker line to $FSPROF_PHASE_FD, for a
 * shell script under fsprof trace. The phase has switched when it returns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "run/phase_marker.h"
#include "run/run.h"
#include "util/parse.h"

static int phase_usage_error(const char *what)
{
	fprintf(stderr,
		"fsprof: phase: %s\nusage: fsprof phase NAME | fsprof phase --end (under fsprof trace)\n",
		what);
	return EXIT_USAGE;
}

static int marker_fd(int *fd)
{
	const char *env = getenv("FSPROF_PHASE_FD");
	char *end;
	long n;

	if (!env || !env[0])
		return phase_usage_error(
			"FSPROF_PHASE_FD is not set: run the script under fsprof trace -- CMD");
	errno = 0;
	n = strtol(env, &end, 10);
	if (errno || *end || n < 0 || n > 1 << 20)
		return phase_usage_error(
			"FSPROF_PHASE_FD is not a file descriptor number");
	*fd = (int)n;
	return 0;
}

int cli_phase(int argc, char **argv)
{
	struct marker_line ml;
	char line[64];
	int fd, err, n;

	if (argc != 2)
		return phase_usage_error("one phase name, or --end");
	if (!strcmp(argv[1], "--end")) {
		n = snprintf(line, sizeof(line), "end\n");
	} else {
		n = snprintf(line, sizeof(line), "begin %s", argv[1]);
		phase_marker_parse(
			line, n < (int)sizeof(line) ? (size_t)n : sizeof(line),
			&ml);
		if (ml.verb != MARKER_VERB_BEGIN)
			return phase_usage_error(ml.why);
		n = snprintf(line, sizeof(line), "begin %s\n", argv[1]);
	}
	err = marker_fd(&fd);
	if (err)
		return err;
	/* one write: the kernel switches the phase before it returns */
	if (write(fd, line, (size_t)n) != n) {
		fprintf(stderr,
			"fsprof: phase: write to FSPROF_PHASE_FD %d: %s\n", fd,
			strerror(errno));
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}
