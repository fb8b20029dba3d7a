// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof report FILE [--format F] [--reanalyze] [-v|-q]: a saved run
 * re-rendered with the findings it was saved with (or, with --reanalyze,
 * re-analysed by this fsprof's rules), with no kernel and no root.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/reanalyze.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "history/history.h"
#include "report/render.h"
#include "results/json_read.h"
#include "run/run.h"
#include "util/log.h"
#include "version.h"

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: fsprof report FILE|RUN [--db PATH] [--format %s]\n"
		"                     [--reanalyze] [-v|-q]\n"
		"\n"
		"Re-render a results file that `fsprof run --json FILE` wrote, with\n"
		"the findings it was saved with. Needs no root and no kernel\n"
		"tracing. RUN, when no file has that name, is a recorded run: its id\n"
		"(fsprof runs lists them), latest, or label:NAME (the latest run\n"
		"with that --label).\n"
		"\n"
		"  --db PATH    the run history RUN is in (default $FSPROF_DB, else\n"
		"               " HISTORY_DEFAULT_PATH ")\n"
		"  --format F   output format (default text)\n"
		"  --reanalyze  re-run this fsprof's rules on the saved numbers (after\n"
		"               a rule changed) instead of showing the saved findings;\n"
		"               each finding's --verify result is kept from the file,\n"
		"               and the report says which fsprof re-ran them\n"
		"  -v           text: every metric and histogram as well\n"
		"  -q           text: errors only on stderr\n"
		"\n"
		"exit codes: 0 ok; 2 usage error, a file that is not readable fsprof\n"
		"results, or a run not in a readable run history (said which and why)\n",
		report_format_list());
}

static int report_usage_error(const char *what, const char *arg)
{
	return cmd_usage_error("report", "%s%s%s", what, arg ? " " : "",
			       arg ? arg : "");
}

/*
 * The findings shown are not the saved ones: say so, and by which fsprof.
 * Text on stdout, above the report; a file format (which it does not go
 * into) on stderr, unless -q.
 */
static void report_reanalyzed_note(const struct run_result *run,
				   const char *format)
{
	static const char note[] =
		"findings re-analysed by fsprof %s's rules (the run's own, found by fsprof %s, are not shown; --verify results are kept)";
	const char *found = run->tool_version[0] ? run->tool_version :
						   "unknown";

	if (strcmp(format, "text")) {
		log_info(note, FSPROF_VERSION, found);
		return;
	}
	printf(note, FSPROF_VERSION, found);
	printf("\n\n");
}

int cli_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'd' },
		{ "reanalyze", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "text", *db = NULL;
	struct run_result run;
	bool reanalyze = false;
	char err[1024];
	int c, code;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:hvq", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			if (!report_format_known(format)) {
				char what[160];

				snprintf(what, sizeof(what),
					 "unknown --format (one of %s):",
					 report_format_list());
				return report_usage_error(what, format);
			}
			break;
		case 'd':
			db = optarg;
			break;
		case 'r':
			reanalyze = true;
			break;
		case 'h':
			report_usage(stdout);
			return EXIT_OK;
		case 'v':
			log_set_level(LOG_VERBOSE);
			break;
		case 'q':
			log_set_level(LOG_QUIET);
			break;
		case ':':
			return report_usage_error("option needs a value:",
						  argv[optind - 1]);
		default:
			return report_usage_error("unknown option for report:",
						  argv[optind - 1]);
		}
	}
	if (optind == argc)
		return report_usage_error(
			"report needs the results file to read (fsprof run --json FILE writes one)",
			NULL);
	if (optind + 1 < argc)
		return report_usage_error("report reads one file; unexpected",
					  argv[optind + 1]);
	if (history_load_arg(db, argv[optind], &run, err, sizeof(err))) {
		fprintf(stderr, "fsprof: %s\n", err);
		return EXIT_USAGE;
	}
	if (reanalyze ? analyze_saved_run(&run) : analyze_saved_verdicts(&run))
		log_warn(
			"analysing the results ran out of memory: findings are incomplete");
	if (reanalyze)
		report_reanalyzed_note(&run, format);
	code = report_render(&run, format, stdout) ? EXIT_RUN_FAILED : EXIT_OK;
	run_result_free(&run);
	return code;
}
