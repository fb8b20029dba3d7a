// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof report FILE [--format F] [--reanalyze] [-v|-q]: a saved run
 * re-rendered with the findings it was saved with (or, with --reanalyze,
 * re-analysed by this fsprof's rules), with no kernel and no root.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/reanalyze.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
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
		"\n",
		report_format_list());
	cli_options_print(CLI_REPORT, out);
	fputs("\n"
	      "exit codes: 0 ok; 2 usage error, a file that is not readable fsprof\n"
	      "results, or a run not in a readable run history (said which and why)\n",
	      out);
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
	static const struct cli_command report = { .id = CLI_REPORT,
						   .usage = report_usage };
	struct run_result run;
	struct cli_values v;
	const char *format;
	char err[1024];
	int first, code;

	code = cli_options_parse(&report, argc, argv, &v, &first);
	if (code)
		return cli_parse_exit(code);
	format = v.format ? v.format : "text";
	if (first == argc)
		return cmd_usage_error(
			"report",
			"report needs the results file to read (fsprof run --json FILE writes one)");
	if (first + 1 < argc)
		return cmd_usage_error("report",
				       "report reads one file; unexpected %s",
				       argv[first + 1]);
	if (history_load_arg(v.db, argv[first], &run, err, sizeof(err))) {
		fprintf(stderr, "fsprof: %s\n", err);
		return EXIT_USAGE;
	}
	if (v.reanalyze ? analyze_saved_run(&run) :
			  analyze_saved_verdicts(&run))
		log_warn(
			"analysing the results ran out of memory: findings are incomplete");
	if (v.reanalyze)
		report_reanalyzed_note(&run, format);
	code = report_render(&run, format, stdout) ? EXIT_RUN_FAILED : EXIT_OK;
	run_result_free(&run);
	return code;
}
