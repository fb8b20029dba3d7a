// SPDX-License-Identifier: GPL-2.0
/*
 * The table-driven parser: a subcommand's getopt_long arrays are built from
 * its rows of the option table, each option found is given to its row's
 * setter, and every usage error ends the same way (cmd_usage_error).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/options.h"

/* more than the table's rows for any one subcommand */
#define CLI_CMD_OPTIONS_MAX 64

/* the column the help text begins in, as in fsprof run --help */
#define HELP_COLUMN 24

static const char *const cmd_names[] = {
	"run",	 "trace",   "record", "report", "diff",	       "runs",
	"check", "cleanup", "list",   "phase",	"bisect-step",
};

const char *cli_cmd_name(enum cli_cmd id)
{
	unsigned int i;

	for (i = 0; i < sizeof(cmd_names) / sizeof(cmd_names[0]); i++)
		if (id == 1U << i)
			return cmd_names[i];
	return NULL;
}

/* a subcommand's getopt_long arguments, and which row each val means */
struct getopt_spec {
	struct option longopts[CLI_CMD_OPTIONS_MAX + 1];
	char shortopts[3 * CLI_CMD_OPTIONS_MAX + 3];
	const struct cli_option *rows;
	unsigned int n_rows;
};

static void shortopt_add(char *s, const struct cli_option *o)
{
	size_t len = strlen(s);

	s[len++] = o->short_name;
	if (o->has_arg != no_argument)
		s[len++] = ':';
	if (o->has_arg == optional_argument)
		s[len++] = ':';
	s[len] = '\0';
}

/* val is 256 + the row's index, or its short name */
static void getopt_spec_build(const struct cli_command *cmd,
			      struct getopt_spec *g)
{
	unsigned int i, n = 0;

	memset(g, 0, sizeof(*g));
	g->rows = cli_option_table(&g->n_rows);
	/* +: the first operand ends the options; ':' missing values apart */
	strcpy(g->shortopts, cmd->operand_ends_options ? "+:" : ":");
	for (i = 0; i < g->n_rows && n < CLI_CMD_OPTIONS_MAX; i++) {
		const struct cli_option *o = &g->rows[i];

		if (!(o->cmds & cmd->id))
			continue;
		g->longopts[n].name = o->name;
		g->longopts[n].has_arg = o->has_arg;
		g->longopts[n].val = 256 + (int)i;
		n++;
		if (o->short_name)
			shortopt_add(g->shortopts, o);
	}
}

static const struct cli_option *getopt_spec_row(const struct getopt_spec *g,
						enum cli_cmd id, int c)
{
	unsigned int i;

	if (c >= 256)
		return &g->rows[c - 256];
	for (i = 0; i < g->n_rows; i++)
		if (g->rows[i].short_name == c && g->rows[i].cmds & id)
			return &g->rows[i];
	return NULL;
}

/* the subcommands whose rows take the option arg spells */
static unsigned int cmds_taking(const char *arg)
{
	const struct cli_option *rows;
	unsigned int i, n, cmds = 0;
	size_t len;

	rows = cli_option_table(&n);
	for (i = 0; i < n; i++) {
		if (arg[0] == '-' && arg[1] == '-') {
			len = strcspn(arg + 2, "=");
			if (len == strlen(rows[i].name) &&
			    !strncmp(arg + 2, rows[i].name, len))
				cmds |= rows[i].cmds;
		} else if (arg[0] == '-' && arg[1] && !arg[2] &&
			   rows[i].short_name == arg[1]) {
			cmds |= rows[i].cmds;
		}
	}
	return cmds;
}

/* "unknown option '-w' for trace (an option of fsprof run)" */
static int unknown_option(const struct cli_command *cmd, const char *name,
			  const char *arg)
{
	unsigned int others = cmds_taking(arg), bit;
	char hint[128] = "";
	size_t used = 0;

	/* its own option misspelt (--json=yes for check): no hint */
	if (others & cmd->id)
		others = 0;
	for (bit = 1; bit <= others && used < sizeof(hint); bit <<= 1)
		if (others & bit)
			used += (size_t)snprintf(
				hint + used, sizeof(hint) - used, "%s%s",
				used ? ", " : " (an option of fsprof ",
				cli_cmd_name(bit));
	if (used && used < sizeof(hint))
		snprintf(hint + used, sizeof(hint) - used, ")");
	return cmd_usage_error(name, "unknown option '%s' for %s%s", arg, name,
			       hint);
}

/*
 * The word getopt_long just took as option o: an abbreviation of o that is
 * another subcommand's whole option (--device for record's --device-model)
 * is that option, not this one.
 */
static bool other_commands_option(const struct cli_command *cmd, char **argv,
				  const struct cli_option *o, const char **word)
{
	unsigned int cmds;
	size_t len;

	*word = argv[optind - 1];
	if (optarg && optarg == argv[optind - 1] && optind >= 2)
		*word = argv[optind - 2];
	if (strncmp(*word, "--", 2))
		return false;
	len = strcspn(*word + 2, "=");
	if (len == strlen(o->name))
		return false;
	cmds = cmds_taking(*word);
	return cmds && !(cmds & cmd->id);
}

int cli_options_parse(const struct cli_command *cmd, int argc, char **argv,
		      struct cli_values *v, int *first)
{
	const char *word;
	struct run_options *run = v->run;
	struct diff_options *diff = v->diff;
	const struct cli_option *o;
	struct getopt_spec g;
	int c, err;

	memset(v, 0, sizeof(*v));
	v->cmd = argv[0];
	v->run = run;
	v->diff = diff;
	getopt_spec_build(cmd, &g);
	optind = 0; /* 0, not 1: glibc then also forgets a half-read "-xv" */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) !=
	       -1) {
		if (c == ':')
			return cmd_usage_error(v->cmd,
					       "option %s needs a value",
					       argv[optind - 1]);
		o = c == '?' ? NULL : getopt_spec_row(&g, cmd->id, c);
		if (!o)
			return unknown_option(cmd, v->cmd, argv[optind - 1]);
		if (c >= 256 && other_commands_option(cmd, argv, o, &word))
			return unknown_option(cmd, v->cmd, word);
		err = o->set(v, o, optarg);
		if (!err && cmd->parsed)
			err = cmd->parsed(v, o, optarg);
		if (err == CLI_HELP_SHOWN && cmd->usage)
			cmd->usage(stdout);
		if (err)
			return err;
	}
	*first = optind;
	if (cmd->no_operands && optind < argc)
		return cmd_usage_error(v->cmd, "unexpected argument '%s'",
				       argv[optind]);
	return 0;
}

/* "  -w, --workload NAME" / "      --verify[=N]" */
static int option_print_name(const struct cli_option *o, FILE *out)
{
	int len;

	if (o->short_name)
		len = fprintf(out, "  -%c, --%s", o->short_name, o->name);
	else
		len = fprintf(out, "      --%s", o->name);
	if (o->has_arg == required_argument)
		len += fprintf(out, " %s", o->metavar);
	else if (o->has_arg == optional_argument)
		len += fprintf(out, "[=%s]", o->metavar);
	return len;
}

static void option_print(const struct cli_option *o, FILE *out)
{
	const char *line = o->help, *end;
	int len = option_print_name(o, out);

	/* the help on the same line when the name leaves room for it */
	if (len > HELP_COLUMN - 2) {
		fputc('\n', out);
		len = 0;
	}
	for (; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		fprintf(out, "%*s%.*s\n", HELP_COLUMN - len, "",
			(int)(end - line), line);
		len = 0;
	}
}

void cli_options_print(enum cli_cmd id, FILE *out)
{
	const struct cli_option *rows;
	unsigned int i, n;

	rows = cli_option_table(&n);
	for (i = 0; i < n; i++)
		if (rows[i].cmds & id)
			option_print(&rows[i], out);
}
