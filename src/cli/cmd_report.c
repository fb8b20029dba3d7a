// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof report FILE [--format F] [--reanalyze] [-v|-q]: a saved run
 * re-rendered with the findings it was saved with (or, with --reanalyze,
 * re-analysed by this fsprof's rules), with no kernel and no root.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/reanalyze.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/rerun.h"
#include "history/history.h"
#include "report/render.h"
#include "repro/bundle.h"
#include "results/json_read.h"
#include "run/run.h"
#include "util/log.h"
#include "version.h"

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: fsprof report FILE|RUN [--db PATH] [--format %s]\n"
		"                     [--reanalyze] [-v|-q]\n"
		"       fsprof report FILE|RUN --bundle DIR [--force] [--db PATH]\n"
		"\n"
		"Re-render a results file that `fsprof run --json FILE` wrote, with\n"
		"the findings it was saved with. Needs no root and no kernel\n"
		"tracing. RUN, when no file has that name, is a recorded run: its id\n"
		"(fsprof runs lists them), latest, or label:NAME (the latest run\n"
		"with that --label).\n"
		"\n"
		"--bundle DIR writes what another person needs to run the same A/B\n"
		"again (README, results.json, command, kernels/, targets, rerun.sh)\n"
		"instead of the report.\n"
		"\n",
		report_format_list());
	cli_options_print(CLI_REPORT, out);
	fputs("\n"
	      "exit codes: 0 ok; 1 a bundle file could not be written; 2 usage\n"
	      "error, a file that is not readable fsprof results, a run not in a\n"
	      "readable run history, or a --bundle DIR that is not empty (said\n"
	      "which and why)\n",
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

/* fsprof report RUN --bundle DIR: an exit code */
static int report_bundle(const struct run_result *run, const char *name,
			 const struct cli_values *v)
{
	struct bundle_spec b = { .run = run,
				 .run_name = name,
				 .dir = v->bundle,
				 .force = v->force };
	struct rerun_command rc;
	char why[1024], err[1024];
	int ret;

	ret = rerun_command_read(run, &rc, why, sizeof(why));
	if (ret == -ENOMEM) {
		log_error("out of memory");
		return EXIT_RUN_FAILED;
	}
	if (!ret) {
		b.case_words = rc.cases.v;
		b.n_case_words = rc.cases.n;
		b.guest_words = rc.guest.v;
		b.n_guest_words = rc.guest.n;
		/* a run of defaults only: rerun.sh runs them with no option */
		if (!b.n_case_words)
			b.case_words = (char *const[]){ "--repeat=1" },
			b.n_case_words = 1;
	} else {
		b.no_rerun = why;
		log_warn("%s: no rerun.sh for it: %s", name, why);
	}
	ret = bundle_write(&b, err, sizeof(err));
	rerun_command_free(&rc);
	if (ret) {
		fprintf(stderr, "fsprof: %s\n", err);
		return ret == -EEXIST ? EXIT_USAGE : EXIT_RUN_FAILED;
	}
	log_info(
		"reproduction bundle of %s written to %s (README says what is in it)",
		name, v->bundle);
	return EXIT_OK;
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
	if (v.force && !v.bundle)
		return cmd_usage_error(
			"report",
			"--force is for --bundle DIR that is not empty");
	if (v.bundle && (v.format || v.reanalyze))
		return cmd_usage_error(
			"report",
			"--bundle writes a directory, not a report: not with --format or --reanalyze");
	if (history_load_arg(v.db, argv[first], &run, err, sizeof(err))) {
		fprintf(stderr, "fsprof: %s\n", err);
		return EXIT_USAGE;
	}
	if (v.bundle) {
		code = report_bundle(&run, argv[first], &v);
		run_result_free(&run);
		return code;
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
