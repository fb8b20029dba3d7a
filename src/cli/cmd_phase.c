// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof phase NAME | --end: one marker line to $FSPROF_PHASE_FD, for a
 * shell script under fsprof trace. The phase has switched when it returns.
 * Its options are rows of the option table, as every subcommand's are; a
 * NAME that begins with '-' follows "--".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "run/phase_marker.h"
#include "run/run.h"
#include "util/parse.h"

static int phase_usage_error(const char *what)
{
	return cmd_usage_error("phase", "phase: %s", what);
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

static void phase_usage(FILE *out)
{
	fputs("usage: fsprof phase NAME | fsprof phase --end\n"
	      "\n"
	      "Under fsprof trace -- CMD: end the current phase and begin NAME\n"
	      "(--end: end it, no new one), by one line to $FSPROF_PHASE_FD.\n"
	      "The phase has switched when it returns. A NAME that begins\n"
	      "with '-' follows '--': fsprof phase -- -NAME.\n"
	      "\n",
	      out);
	cli_options_print(CLI_PHASE, out);
	fputs("\n"
	      "exit codes: 0 ok; 1 the marker could not be written; 2 usage\n"
	      "error or not under fsprof trace.\n",
	      out);
}

int cli_phase(int argc, char **argv)
{
	static const struct cli_command phase = { .id = CLI_PHASE,
						  .usage = phase_usage };
	struct marker_line ml;
	struct cli_values v;
	char line[64];
	int fd = -1, err, n, first;

	err = cli_options_parse(&phase, argc, argv, &v, &first);
	if (err)
		return cli_parse_exit(err);
	if (argc - first != (v.end ? 0 : 1))
		return phase_usage_error("one phase name, or --end");
	if (v.end) {
		n = snprintf(line, sizeof(line), "end\n");
	} else {
		n = snprintf(line, sizeof(line), "begin %s", argv[first]);
		phase_marker_parse(
			line, n < (int)sizeof(line) ? (size_t)n : sizeof(line),
			&ml);
		if (ml.verb != MARKER_VERB_BEGIN)
			return phase_usage_error(ml.why);
		n = snprintf(line, sizeof(line), "begin %s\n", argv[first]);
	}
	err = marker_fd(&fd);
	if (err)
		return err;
	/*
	 * its reader gone (fsprof trace has ended, a background child marks
	 * after it): EPIPE, said, exit 1 - not killed by SIGPIPE, silent
	 */
	signal(SIGPIPE, SIG_IGN);
	/* one write: the kernel switches the phase before it returns */
	if (write(fd, line, (size_t)n) != n) {
		fprintf(stderr,
			"fsprof: phase: write to FSPROF_PHASE_FD %d: %s%s\n",
			fd, strerror(errno),
			errno == EPIPE ?
				" (no fsprof trace reads it: it has ended)" :
				"");
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}
