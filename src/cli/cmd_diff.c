// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof diff A B: two runs compared with statistics (src/compare/,
 * docs/diff.md). A and B are results files written by `fsprof run --json`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "compare/diff.h"
#include "compare/kpi.h"
#include "compare/noise_floors.h"
#include "history/history.h"
#include "report/diff_report.h"
#include "results/json_read.h"
#include "run/run.h"

/* what --help shows of a glob table's row after its glob */
typedef void (*glob_row_text)(const void *row, char *buf, size_t len);

/*
 * A glob table built in (util/tsv.h: each row begins with its glob) as
 * --help lists it: the heading, then each row's glob, padded to the
 * longest, and text's words for the rest of it
 */
static void glob_rows_print(FILE *out, const char *heading, const void *rows,
			    unsigned int n, size_t row_size, glob_row_text text)
{
	const char *row = rows;
	size_t width = 0;
	unsigned int i;
	char buf[160];

	for (i = 0; i < n; i++)
		if (strlen(row + i * row_size) > width)
			width = strlen(row + i * row_size);
	fputs(heading, out);
	for (i = 0; i < n; i++) {
		text(row + i * row_size, buf, sizeof(buf));
		fprintf(out, "  %-*s %s\n", (int)width, row + i * row_size,
			buf);
	}
}

static void floor_text(const void *row, char *buf, size_t len)
{
	snprintf(buf, len, "%g%%",
		 ((const struct noise_floor_row *)row)->floor * 100);
}

/* "lower is better, KPI" */
static void kpi_text(const void *row, char *buf, size_t len)
{
	const struct kpi_row *k = row;

	if (k->dir == KPI_DIR_NONE)
		snprintf(buf, len, "neither way is better%s",
			 k->key ? ", KPI" : "");
	else
		snprintf(buf, len, "%s is better%s", kpi_dir_name(k->dir),
			 k->key ? ", KPI" : "");
}

/* the built-in tables a metric is judged by, the first matching row its
 * own (docs/diff.md): its noise floor, its direction and whether a KPI */
static void judged_by_print(FILE *out)
{
	const struct noise_floors *nf = noise_floors_builtin();
	const struct kpi_table *kt = kpi_builtin();

	if (nf)
		glob_rows_print(
			out,
			"\nnoise floors without --noise (the first glob that matches a\n"
			"metric; each a high quantile of the A/A runs' gaps, docs/diff.md):\n",
			nf->rows, nf->n, sizeof(*nf->rows), floor_text);
	if (kt)
		glob_rows_print(
			out,
			"\nwhich way is better, and the KPIs (data/kpi.tsv, the first glob\n"
			"that matches a metric: better/worse verdicts, KPIs first in\n"
			"--format lkp and gated by --fail-above, docs/diff.md):\n",
			kt->rows, kt->n, sizeof(*kt->rows), kpi_text);
}

static void diff_usage(FILE *out)
{
	fputs("usage: fsprof diff A B [--metric GLOB] [--alpha A] [--noise PCT]\n"
	      "                   [--time-verdicts]\n"
	      "                   [--fail-above PCT] [--format text|json|csv|lkp]\n"
	      "                   [--allow-mismatch] [--db PATH] [-v]\n"
	      "       fsprof diff --baseline LABEL B [options]\n"
	      "       fsprof diff RUN --by kernel [options]\n"
	      "\n"
	      "Compare run B against run A, phase by phase and metric by metric. A\n"
	      "run is a results file (`fsprof run --json FILE`) or a run of the\n"
	      "history: its id (fsprof runs lists them), latest, or label:NAME (the\n"
	      "latest run labelled NAME). Welch's 95% interval of\n"
	      "the difference of means over the repeats, a verdict (better, worse,\n"
	      "higher, lower, same, inconclusive), the false discovery rate of all\n"
	      "the tests held at --alpha (Benjamini-Hochberg), histograms compared\n"
	      "as distributions (Kolmogorov-Smirnov). Needs no root.\n"
	      "\n",
	      out);
	cli_options_print(CLI_DIFF, out);
	judged_by_print(out);
	fputs("\n"
	      "exit codes: 0 compared; 1 --fail-above tripped; 2 usage error, a\n"
	      "file that is not fsprof results, or runs that cannot be compared\n",
	      out);
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

static int load_sides(const char *db, const char *a_ref, const char *b_ref,
		      struct run_result *a, struct run_result *b)
{
	int code = load_side(db, a_ref, a);

	if (code)
		return code;
	code = load_side(db, b_ref, b);
	if (code)
		run_result_free(a);
	return code;
}

/* --by kernel: one run, its two kernels as A and B (views of whole) */
static int load_by_kernel(const char *db, const char *ref,
			  struct run_result *whole, struct run_result *a,
			  struct run_result *b)
{
	char err[512];
	int code = load_side(db, ref, whole), ret;

	if (code)
		return code;
	ret = diff_split_by_kernel(whole, a, b, err, sizeof(err));
	if (!ret)
		return 0;
	if (ret == -EINVAL)
		fprintf(stderr, "fsprof: %s: %s\n", ref, err);
	else
		fprintf(stderr, "fsprof: comparing ran out of memory\n");
	run_result_free(whole);
	return ret == -EINVAL ? EXIT_USAGE : EXIT_RUN_FAILED;
}

/* the two runs, A and B; 0, CLI_HELP_SHOWN or EXIT_USAGE */
static int parse(int argc, char **argv, struct cli_values *v, const char **a,
		 const char **b)
{
	static const struct cli_command diff = { .id = CLI_DIFF,
						 .usage = diff_usage };
	int first, err;

	err = cli_options_parse(&diff, argc, argv, v, &first);
	if (err)
		return err;
	if (v->baseline[0]) {
		if (argc - first != 1)
			return cmd_usage_error(
				"diff",
				"with --baseline, diff takes one run to compare: fsprof diff --baseline %s B",
				v->baseline + 6);
		*a = v->baseline;
		*b = argv[first];
		return 0;
	}
	if (v->diff->by_kernel) {
		if (argc - first != 1)
			return cmd_usage_error(
				"diff",
				"--by kernel compares the kernels of one run: fsprof diff RUN --by kernel");
		*a = *b = argv[first];
		return 0;
	}
	if (argc - first != 2)
		return cmd_usage_error(
			"diff",
			"diff compares two runs: fsprof diff A B (results files, run ids, latest or label:NAME)");
	*a = argv[first];
	*b = argv[first + 1];
	return 0;
}

int cli_diff(int argc, char **argv)
{
	struct run_result a, b, whole;
	struct diff_options o;
	struct cli_values v = { .diff = &o };
	struct diff_result d;
	const char *format, *a_ref = NULL, *b_ref = NULL;
	int code, err;

	diff_options_default(&o);
	code = parse(argc, argv, &v, &a_ref, &b_ref);
	if (code)
		return cli_parse_exit(code);
	format = v.format ? v.format : "text";
	if (o.by_kernel)
		code = load_by_kernel(v.db, a_ref, &whole, &a, &b);
	else
		code = load_sides(v.db, a_ref, b_ref, &a, &b);
	if (code)
		return code;
	err = diff_build(&a, &b, &o, &d);
	snprintf(d.a_name, sizeof(d.a_name), "%s%s", a_ref,
		 o.by_kernel ? " (first kernel)" : "");
	snprintf(d.b_name, sizeof(d.b_name), "%s%s", b_ref,
		 o.by_kernel ? " (second kernel)" : "");
	if (err == -EINVAL) {
		fprintf(stderr,
			"fsprof: %s and %s have no workload in common to compare (each needs a complete case of the same workload)\n",
			a_ref, b_ref);
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
			"run both with the same workload parameters, image size, device model and --age, or pass --allow-mismatch\n");
		code = EXIT_USAGE;
	} else {
		if (!strcmp(format, "json"))
			code = diff_report_json(&d, stdout) ? EXIT_RUN_FAILED :
							      EXIT_OK;
		else if (!strcmp(format, "csv"))
			diff_report_csv(&d, stdout);
		else if (!strcmp(format, "lkp"))
			diff_report_lkp(&d, v.verbose, stdout);
		else
			diff_report_text(&d, v.verbose, stdout);
		if (!code && d.n_failed)
			code = EXIT_RUN_FAILED;
	}
	diff_free(&d);
	if (o.by_kernel) {
		run_result_view_free(&a);
		run_result_view_free(&b);
		run_result_free(&whole);
	} else {
		run_result_free(&a);
		run_result_free(&b);
	}
	return code;
}
