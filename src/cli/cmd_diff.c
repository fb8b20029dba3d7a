// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff A B: two runs compared with statistics (src/compare/,
 * docs/diff.md). A and B are results files written by `fsprof run --json`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "compare/diff.h"
#include "history/history.h"
#include "report/diff_report.h"
#include "results/json_read.h"
#include "run/run.h"

static void diff_usage(FILE *out)
{
	fprintf(out,
		"usage: fsprof diff A B [--metric GLOB] [--alpha A] [--noise PCT]\n"
		"                   [--fail-above PCT] [--format text|json|csv]\n"
		"                   [--allow-mismatch] [--db PATH] [-v]\n"
		"       fsprof diff --baseline LABEL B [options]\n"
		"\n"
		"Compare run B against run A, phase by phase and metric by metric. A\n"
		"run is a results file (`fsprof run --json FILE`) or a run of the\n"
		"history: its id (fsprof runs lists them), latest, or label:NAME (the\n"
		"latest run labelled NAME). Welch's 95%% interval of\n"
		"the difference of means over the repeats, a verdict (better, worse,\n"
		"higher, lower, same, inconclusive), the false discovery rate of all\n"
		"the tests held at --alpha (Benjamini-Hochberg), histograms compared\n"
		"as distributions (Kolmogorov-Smirnov). Needs no root.\n"
		"\n"
		"  --metric GLOB     only metrics whose name matches (fnmatch)\n"
		"  --alpha A         false discovery rate, 0 < A < 1 (default 0.05)\n"
		"  --noise PCT       noise floor: a change within it is `same` (2%%)\n"
		"  --fail-above PCT  exit 1 when a headline metric (wall time,\n"
		"                    throughput, p99 latency) is significantly worse\n"
		"                    by more than PCT, naming which\n"
		"  --format F        text (default), json or csv\n"
		"  --allow-mismatch  compare although the workload parameters, image\n"
		"                    size or device model differ\n"
		"  --baseline LABEL  A is the latest run labelled LABEL (--label)\n"
		"  --db PATH         the run history (default $FSPROF_DB, else\n"
		"                    /var/lib/fsprof/runs.db)\n"
		"  -v                text: every metric and distribution\n"
		"\n"
		"exit codes: 0 compared; 1 --fail-above tripped; 2 usage error, a\n"
		"file that is not fsprof results, or runs that cannot be compared\n");
}

/* "5%", "5" -> 0.05; "0.5%" -> 0.005; false when not a percentage */
static bool parse_percent(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !(v >= 0) || v > 1000)
		return false;
	*out = v / 100;
	return true;
}

static int load_side(const char *db, const char *ref, struct run_result *run)
{
	char err[1024];

	if (history_load_arg(db, ref, run, err, sizeof(err))) {
		fprintf(stderr, "fsprof: %s\n", err);
		return EXIT_USAGE;
	}
	if (analyze_saved_run(run)) {
		fprintf(stderr, "fsprof: analysing %s ran out of memory\n",
			ref);
		run_result_free(run);
		return EXIT_RUN_FAILED;
	}
	return 0;
}

enum {
	OPT_ALPHA = 256,
	OPT_NOISE,
	OPT_FAIL_ABOVE,
	OPT_ALLOW_MISMATCH,
	OPT_BASELINE,
	OPT_DB,
};

struct diff_args {
	const char *format, *db, *a, *b;
	char baseline[HISTORY_LABEL_MAX + 8];
	bool verbose;
};

static int parse(int argc, char **argv, struct diff_options *o,
		 struct diff_args *args)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "noise", required_argument, NULL, OPT_NOISE },
		{ "fail-above", required_argument, NULL, OPT_FAIL_ABOVE },
		{ "format", required_argument, NULL, 'f' },
		{ "allow-mismatch", no_argument, NULL, OPT_ALLOW_MISMATCH },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "db", required_argument, NULL, OPT_DB },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end, err[256];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:f:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->metric_glob = optarg;
			break;
		case OPT_ALPHA:
			o->alpha = strtod(optarg, &end);
			if (end == optarg || *end || !(o->alpha > 0) ||
			    !(o->alpha < 1))
				return cmd_usage_error("diff", 
					"--alpha '%s' is not a rate between 0 and 1 (e.g. 0.05)",
					optarg);
			break;
		case OPT_NOISE:
			if (!parse_percent(optarg, &o->noise_floor))
				return cmd_usage_error("diff", 
					"--noise '%s' is not a percentage (e.g. 2%%)",
					optarg);
			break;
		case OPT_FAIL_ABOVE:
			if (!parse_percent(optarg, &o->fail_above))
				return cmd_usage_error("diff", 
					"--fail-above '%s' is not a percentage (e.g. 5%%)",
					optarg);
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv"))
				return cmd_usage_error("diff", 
					"unknown --format '%s' (text, json or csv)",
					optarg);
			args->format = optarg;
			break;
		case OPT_ALLOW_MISMATCH:
			o->allow_mismatch = true;
			break;
		case OPT_BASELINE:
			if (history_label_check(optarg, err, sizeof(err)))
				return cmd_usage_error("diff", "--baseline: %s", err);
			snprintf(args->baseline, sizeof(args->baseline),
				 "label:%s", optarg);
			break;
		case OPT_DB:
			args->db = optarg;
			break;
		case 'v':
			args->verbose = true;
			break;
		case 'h':
			diff_usage(stdout);
			return -1;
		case ':':
			return cmd_usage_error("diff", "option %s needs a value",
						argv[optind - 1]);
		default:
			return cmd_usage_error("diff", "unknown option '%s' for diff",
						argv[optind - 1]);
		}
	}
	if (args->baseline[0]) {
		if (argc - optind != 1)
			return cmd_usage_error("diff", 
				"with --baseline, diff takes one run to compare: fsprof diff --baseline %s B",
				args->baseline + 6);
		args->a = args->baseline;
		args->b = argv[optind];
		return 0;
	}
	if (argc - optind != 2)
		return cmd_usage_error("diff", 
			"diff compares two runs: fsprof diff A B (results files, run ids, latest or label:NAME)%s",
			"");
	args->a = argv[optind];
	args->b = argv[optind + 1];
	return 0;
}

int cli_diff(int argc, char **argv)
{
	struct diff_args args = { .format = "text" };
	struct run_result a, b;
	struct diff_options o;
	struct diff_result d;
	const char *format;
	int code, err;

	diff_options_default(&o);
	code = parse(argc, argv, &o, &args);
	if (code)
		return code < 0 ? EXIT_OK : code;
	format = args.format;
	code = load_side(args.db, args.a, &a);
	if (code)
		return code;
	code = load_side(args.db, args.b, &b);
	if (code) {
		run_result_free(&a);
		return code;
	}
	err = diff_build(&a, &b, &o, &d);
	snprintf(d.a_name, sizeof(d.a_name), "%s", args.a);
	snprintf(d.b_name, sizeof(d.b_name), "%s", args.b);
	if (err == -EINVAL) {
		fprintf(stderr,
			"fsprof: %s and %s have no workload in common to compare (each needs a complete case of the same workload)\n",
			args.a, args.b);
		code = EXIT_USAGE;
	} else if (err) {
		fprintf(stderr, "fsprof: comparing ran out of memory\n");
		code = EXIT_RUN_FAILED;
	} else if (diff_setup_blocks(&d)) {
		unsigned int i;

		fprintf(stderr,
			"fsprof: %s and %s ran different setups; their phases are not comparable:\n",
			d.a_name, d.b_name);
		for (i = 0; i < d.n_setup; i++)
			if (d.setup[i].blocking)
				fprintf(stderr, "  %s: A %s, B %s\n",
					d.setup[i].what, d.setup[i].a,
					d.setup[i].b);
		fprintf(stderr,
			"run both with the same workload parameters, image size and device model, or pass --allow-mismatch\n");
		code = EXIT_USAGE;
	} else {
		if (!strcmp(format, "json"))
			code = diff_report_json(&d, stdout) ? EXIT_RUN_FAILED :
							      EXIT_OK;
		else if (!strcmp(format, "csv"))
			diff_report_csv(&d, stdout);
		else
			diff_report_text(&d, args.verbose, stdout);
		if (!code && d.n_failed)
			code = EXIT_RUN_FAILED;
	}
	diff_free(&d);
	run_result_free(&a);
	run_result_free(&b);
	return code;
}
