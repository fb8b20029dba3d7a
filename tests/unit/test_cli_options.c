// SPDX-License-Identifier: GPL-2.0
/*
 * The option table (src/cli/option_table.c) and its parser (options.c):
 * every subcommand's rows parse, an option of another subcommand is a usage
 * error naming the one that was run, and --help lists exactly its rows.
 */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/options.h"
#include "run/run.h"
#include "stderr_capture.h"
#include "util/log.h"

/* an argument each option accepts (any other takes any string) */
static const char *sample_arg(const char *name)
{
	static const char *const samples[][2] = {
		{ "workload", "seqio" },   { "scale", "full" },
		{ "suite", "classic" },	   { "fs", "xfs" },
		{ "device-model", "hdd" }, { "repeat", "3" },
		{ "size", "4M" },	   { "image-size", "1G" },
		{ "scratch", "/tmp" },	   { "verify", "5" },
		{ "interval", "1s" },	   { "duration", "2s" },
		{ "format", "text" },	   { "probes", "deep" },
		{ "bin", "10ms" },	   { "slow-io", "5ms" },
		{ "label", "nightly" },	   { "alpha", "0.1" },
		{ "noise", "3%" },	   { "fail-above", "5" },
		{ "baseline", "nightly" }, { "kernel-timeout", "10min" },
		{ "by", "kernel" },	   { "age", "fill=90" },
		{ "threshold", "5%" },	   { "raid", "1:2" },
		{ "dm", "linear" },
	};
	size_t i;

	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		if (!strcmp(samples[i][0], name))
			return samples[i][1];
	return "/tmp/some-file";
}

struct parsed {
	int rc, first;
	struct run_options run;
	struct diff_options diff;
	struct cli_values v;
	struct stderr_capture err;
};

/* parse { cmd's name, args... } as cmd does, without its usage */
static void parse(struct parsed *p, enum cli_cmd id, const char *a1,
		  const char *a2)
{
	const struct cli_command cmd = { .id = id };
	char name[16], arg1[64], arg2[64];
	char *argv[] = { name, arg1, arg2, NULL };
	enum log_level was = log_get_level();

	snprintf(name, sizeof(name), "%s", cli_cmd_name(id));
	snprintf(arg1, sizeof(arg1), "%s", a1);
	snprintf(arg2, sizeof(arg2), "%s", a2 ? a2 : "");
	memset(p, 0, sizeof(*p));
	p->v.run = &p->run;
	p->v.diff = &p->diff;
	assert_int_equal(stderr_capture_begin(&p->err), 0);
	p->rc = cli_options_parse(&cmd, a2 ? 3 : 2, argv, &p->v, &p->first);
	stderr_capture_end(&p->err);
	log_set_level(was);
}

/* "--name" with its argument, as one word or two */
static void parse_row(struct parsed *p, enum cli_cmd id,
		      const struct cli_option *o)
{
	char word[96];

	if (o->has_arg == optional_argument) {
		snprintf(word, sizeof(word), "--%s=%s", o->name,
			 sample_arg(o->name));
		parse(p, id, word, NULL);
	} else {
		snprintf(word, sizeof(word), "--%s", o->name);
		parse(p, id, word,
		      o->has_arg == required_argument ? sample_arg(o->name) :
							NULL);
	}
}

static void every_subcommand_parses_each_of_its_options(void **state)
{
	unsigned int i, n, bit;
	const struct cli_option *rows = cli_option_table(&n);
	struct parsed p;

	(void)state;
	for (i = 0; i < n; i++)
		for (bit = 1; bit < 1U << CLI_N_CMDS; bit <<= 1) {
			if (!(rows[i].cmds & bit))
				continue;
			parse_row(&p, bit, &rows[i]);
			if (p.rc != (rows[i].set == NULL ? 0 : p.rc) ||
			    (p.rc && p.rc != CLI_HELP_SHOWN))
				fail_msg("fsprof %s --%s: %d: %s",
					 cli_cmd_name(bit), rows[i].name, p.rc,
					 p.err.text);
			assert_string_equal(p.err.text, "");
			/* --help, and only --help, asks for the usage */
			assert_int_equal(p.rc == CLI_HELP_SHOWN,
					 !strcmp(rows[i].name, "help"));
		}
}

/* the subcommands with a row named name (or short name c) */
static unsigned int cmds_with(const char *name, char c)
{
	unsigned int i, n, cmds = 0;
	const struct cli_option *rows = cli_option_table(&n);

	for (i = 0; i < n; i++)
		if ((name && !strcmp(rows[i].name, name)) ||
		    (c && rows[i].short_name == c))
			cmds |= rows[i].cmds;
	return cmds;
}

static void check_refused(const struct parsed *p, enum cli_cmd id,
			  const char *word)
{
	char want[64];

	if (p->rc != EXIT_USAGE)
		fail_msg("fsprof %s %s: %d, want EXIT_USAGE", cli_cmd_name(id),
			 word, p->rc);
	snprintf(want, sizeof(want), "unknown option '%s' for %s", word,
		 cli_cmd_name(id));
	if (!strstr(p->err.text, want))
		fail_msg("no \"%s\" in: %s", want, p->err.text);
	snprintf(want, sizeof(want), "\nsee 'fsprof %s --help'\n",
		 cli_cmd_name(id));
	if (!strstr(p->err.text, want))
		fail_msg("no \"%s\" in: %s", want, p->err.text);
}

static void
an_option_of_other_subcommands_is_refused_naming_this_one(void **state)
{
	unsigned int i, n, bit;
	const struct cli_option *rows = cli_option_table(&n);
	struct parsed p;
	char word[64];

	(void)state;
	for (i = 0; i < n; i++)
		for (bit = 1; bit < 1U << CLI_N_CMDS; bit <<= 1) {
			if (cmds_with(rows[i].name, 0) & bit)
				continue;
			snprintf(word, sizeof(word), "--%s", rows[i].name);
			parse(&p, bit, word, "x");
			check_refused(&p, bit, word);
			/* it says which subcommand takes it */
			assert_non_null(strstr(p.err.text, "(an option of"));
			if (!rows[i].short_name ||
			    cmds_with(NULL, rows[i].short_name) & bit)
				continue;
			snprintf(word, sizeof(word), "-%c", rows[i].short_name);
			parse(&p, bit, word, "x");
			check_refused(&p, bit, word);
		}
}

static void a_subcommand_has_one_row_per_name(void **state)
{
	unsigned int i, j, n;
	const struct cli_option *rows = cli_option_table(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		assert_non_null(rows[i].set);
		assert_non_null(rows[i].help);
		assert_int_not_equal(rows[i].cmds, 0);
		assert_int_equal(rows[i].has_arg == no_argument,
				 rows[i].metavar == NULL);
		for (j = i + 1; j < n; j++) {
			if (!(rows[i].cmds & rows[j].cmds))
				continue;
			if (!strcmp(rows[i].name, rows[j].name))
				fail_msg("--%s: two rows", rows[i].name);
			if (rows[i].short_name &&
			    rows[i].short_name == rows[j].short_name)
				fail_msg("-%c: two rows", rows[i].short_name);
		}
	}
}

/* the long names of the option lines of a --help list, in order */
static unsigned int help_names(const char *text, char names[][32],
			       unsigned int max)
{
	const char *line = text;
	unsigned int n = 0;

	for (; *line; line = strchr(line, '\n') + 1) {
		const char *dashes = line + 6;

		/* "  -w, --name ..." or "      --name ..." */
		if (strncmp(line, "      --", 8) && strncmp(line, "  -", 3))
			continue;
		if (strncmp(dashes, "--", 2) || n == max)
			continue;
		sscanf(dashes + 2, "%31[a-z-]", names[n++]);
	}
	return n;
}

static void help_lists_exactly_the_subcommands_rows(void **state)
{
	unsigned int i, n, bit, listed, k;
	const struct cli_option *rows = cli_option_table(&n);
	char names[64][32], *text;
	size_t size;
	FILE *out;

	(void)state;
	for (bit = 1; bit < 1U << CLI_N_CMDS; bit <<= 1) {
		out = open_memstream(&text, &size);
		assert_non_null(out);
		cli_options_print(bit, out);
		fclose(out);
		listed = help_names(text, names, 64);
		for (i = 0, k = 0; i < n; i++) {
			if (!(rows[i].cmds & bit))
				continue;
			if (k >= listed || strcmp(names[k], rows[i].name))
				fail_msg("fsprof %s --help: --%s not listed "
					 "in its place:\n%s",
					 cli_cmd_name(bit), rows[i].name, text);
			k++;
		}
		assert_int_equal(k, listed);
		free(text);
	}
}

/* 80 columns: the help column is 24, so no help line over 56 */
static void help_lines_fit_in_80_columns(void **state)
{
	unsigned int n, bit;
	char *text, *line, *end;
	size_t size;
	FILE *out;

	(void)state;
	cli_option_table(&n);
	for (bit = 1; bit < 1U << CLI_N_CMDS; bit <<= 1) {
		out = open_memstream(&text, &size);
		cli_options_print(bit, out);
		fclose(out);
		for (line = text; *line; line = end + 1) {
			end = strchr(line, '\n');
			/* run's --fs example quotes a whole shell argument */
			if (end - line > 80 && !strstr(line, "--fs \""))
				fail_msg("over 80 columns: %.*s",
					 (int)(end - line), line);
		}
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_subcommand_parses_each_of_its_options),
		cmocka_unit_test(
			an_option_of_other_subcommands_is_refused_naming_this_one),
		cmocka_unit_test(a_subcommand_has_one_row_per_name),
		cmocka_unit_test(help_lists_exactly_the_subcommands_rows),
		cmocka_unit_test(help_lines_fit_in_80_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
