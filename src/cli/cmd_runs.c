// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof runs [--db PATH] [--label L] [--workload W] [--fs F] [--format F]:
 * the runs the history holds, one line each, or as a JSON array.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "history/history.h"
#include "run/run.h"

#define RUNS_LINE_MAX 100

static void runs_usage(FILE *out)
{
	fputs("usage: fsprof runs [--db PATH] [--label L] [--workload W] [--fs F]\n"
	      "                   [--format text|json]\n"
	      "\n"
	      "List the runs recorded in the run history, oldest first: id, start\n"
	      "time (UTC), label, kernel, targets, and the first matching case's\n"
	      "phase wall times (+N: the run has N more cases). An incomplete run's\n"
	      "id is marked with *. fsprof report ID re-renders one.\n"
	      "\n",
	      out);
	cli_options_print(CLI_RUNS, out);
	fputs("\n"
	      "exit codes: 0 ok (also when nothing is recorded yet); 2 usage error,\n"
	      "or a database this fsprof cannot read (damaged, not a run history,\n"
	      "from a newer fsprof, not readable: said which and why)\n",
	      out);
}

/*
 * "fsync/ext4 +7: create 1.23s sync 0.40s": the phases that fit in width
 * (out has width + 1 bytes), then " ..." when some do not
 */
static void headline_format(const struct history_row *row, char *out,
			    size_t width)
{
	char phase[64];
	size_t used;
	unsigned int i;

	used = strnlen(row->first_case, width);
	memcpy(out, row->first_case, used);
	out[used] = '\0';
	if (row->n_cases > 1 && used < width)
		used += (size_t)snprintf(out + used, width + 1 - used, " +%u",
					 row->n_cases - 1);
	if (used < width)
		used += (size_t)snprintf(out + used, width + 1 - used, ":");
	for (i = 0; i < row->n_phases && used < width; i++) {
		snprintf(phase, sizeof(phase), " %s %.2fs", row->phase[i].name,
			 row->phase[i].wall_s);
		/* the last phase needs no room for " ..." after it */
		if (used + strlen(phase) + (i + 1 < row->n_phases ? 4 : 0) >
		    width)
			break;
		used += (size_t)snprintf(out + used, width + 1 - used, "%s",
					 phase);
	}
	if (i < row->n_phases && used + 4 <= width)
		snprintf(out + used, width + 1 - used, " ...");
}

/* text cut to width (buf has width + 1 bytes), ending in ~ when cut */
static const char *cut(const char *text, char *buf, size_t width)
{
	if (strlen(text) <= width)
		return text;
	memcpy(buf, text, width - 1);
	buf[width - 1] = '~';
	buf[width] = '\0';
	return buf;
}

static void runs_print(const struct history_rows *rows, FILE *out)
{
	unsigned int i;

	fprintf(out, "%5s %-16s %-10s %-16s %-10s %s\n", "id", "started (UTC)",
		"label", "kernel", "targets", "first case: phase wall times");
	for (i = 0; i < rows->n; i++) {
		const struct history_row *row = &rows->v[i];
		time_t t = (time_t)(row->started_ns / 1000000000LL);
		char when[32], id[24], head[RUNS_LINE_MAX + 1];
		char lab[11], ker[17], tgt[11];
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		snprintf(id, sizeof(id), "%" PRId64 "%s", row->id,
			 row->complete ? "" : "*");
		/* 5+1+16+1+10+1+16+1+10+1 = 62 columns before the headline */
		headline_format(row, head, RUNS_LINE_MAX - 62);
		fprintf(out, "%5s %-16s %-10s %-16s %-10s %s\n", id, when,
			cut(row->label[0] ? row->label : "-", lab, 10),
			cut(row->kernel, ker, 16), cut(row->targets, tgt, 10),
			head);
	}
}

/* the rows as one JSON array (empty: []); 0, or EXIT_RUN_FAILED said why */
static int runs_print_json(const struct history_rows *rows, FILE *out)
{
	json_t *all = history_rows_json(rows);
	int failed = !all || json_dumpf(all, out, JSON_INDENT(2)) ||
		     fputc('\n', out) == EOF;

	json_decref(all);
	if (failed) {
		fprintf(stderr, "fsprof: runs: cannot write the JSON: %s\n",
			all ? strerror(errno) : "out of memory");
		return EXIT_RUN_FAILED;
	}
	return 0;
}

int cli_runs(int argc, char **argv)
{
	static const struct cli_command runs = { .id = CLI_RUNS,
						 .usage = runs_usage,
						 .no_operands = true };
	struct history_rows rows;
	struct cli_values v;
	const char *db;
	char err[1024];
	int first, code;

	code = cli_options_parse(&runs, argc, argv, &v, &first);
	if (code)
		return cli_parse_exit(code);
	db = v.db ? v.db : history_default_path();
	code = history_list(db, &v.filter, &rows, err, sizeof(err));
	if (code && code != -ENOENT) {
		fprintf(stderr, "fsprof: %s\n", err);
		return EXIT_USAGE;
	}
	if (code)
		fprintf(stderr, "fsprof: %s\n", err);
	else if (!rows.n)
		fprintf(stderr, "fsprof: %s: no recorded run matches\n", db);
	if (v.format && !strcmp(v.format, "json"))
		code = runs_print_json(&rows, stdout);
	else if (rows.n)
		runs_print(&rows, stdout);
	history_rows_free(&rows);
	return code > 0 ? code : EXIT_OK;
}
