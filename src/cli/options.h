/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One way to parse options: every subcommand's options are rows of one
 * table (option_table.c). A row says its long and short name, whether it
 * takes an argument, its metavar and help, which subcommands take it, and
 * the setter that stores it. The getopt_long arrays, each subcommand's
 * --help option list and the usage errors all come from that table.
 */
#ifndef FSPROF_CLI_OPTIONS_H
#define FSPROF_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/diff.h"
#include "history/history.h"
#include "run/run.h"

/* the subcommands that take options, a bit each: a row's cmds */
enum cli_cmd {
	CLI_RUN = 1 << 0,
	CLI_TRACE = 1 << 1,
	CLI_RECORD = 1 << 2,
	CLI_REPORT = 1 << 3,
	CLI_DIFF = 1 << 4,
	CLI_RUNS = 1 << 5,
	CLI_CHECK = 1 << 6,
	CLI_CLEANUP = 1 << 7,
	CLI_LIST = 1 << 8,
	CLI_PHASE = 1 << 9,
	CLI_BISECT = 1 << 10,
};

#define CLI_N_CMDS 11
#define CLI_TRACING (CLI_RUN | CLI_TRACE | CLI_RECORD)
#define CLI_ALL_CMDS ((1U << CLI_N_CMDS) - 1)

/* what options set; each subcommand reads its own fields */
struct cli_values {
	const char *cmd; /* argv[0]: the subcommand the errors name */
	struct run_options *run; /* run, trace, record */
	struct diff_options *diff; /* diff */
	struct history_filter filter; /* runs: --label, -w, --fs */
	const char *format; /* report, diff, runs: --format */
	const char *db; /* --db; NULL: the default */
	const char *scratch; /* run, trace, record, cleanup */
	char baseline[HISTORY_LABEL_MAX + 8]; /* diff: "label:NAME" or "" */
	bool verbose; /* diff -v */
	bool json; /* check --format json */
	bool reanalyze; /* report --reanalyze */
	const char *bundle; /* report --bundle DIR */
	bool force; /* report --force: a --bundle DIR that is not empty */
	bool dry_run; /* cleanup --dry-run */
	bool deep; /* list probes --deep */
	bool end; /* phase --end */
	/* bisect-step */
	const char *good; /* --good RUN */
	const char *bisect_metric; /* --metric [PHASE/]NAME */
	const char *case_sel; /* --case WORKLOAD/TARGET */
	double threshold; /* --threshold PCT, a fraction; < 0 unset */
	bool higher_better, lower_better;
};

struct cli_option;

/* store arg (NULL without one); 0, EXIT_USAGE (said), or CLI_HELP_SHOWN */
typedef int (*cli_setter)(struct cli_values *v, const struct cli_option *o,
			  const char *arg);

/* a setter's answer to --help: the usage is printed, exit 0 */
#define CLI_HELP_SHOWN (-1)

struct cli_option {
	const char *name; /* the long name, without -- */
	char short_name; /* 'w' for -w; 0: none */
	int has_arg; /* no_argument, required_argument, optional_argument */
	const char *metavar; /* "FILE"; NULL without an argument */
	unsigned int cmds; /* enum cli_cmd bits: the subcommands taking it */
	cli_setter set;
	size_t field; /* the run_options field of set_run_string/flag */
	const char *help; /* lines apart by '\n', for the --help list */
};

/* the one table, in --help order */
const struct cli_option *cli_option_table(unsigned int *n);

/* a subcommand, as its parse and --help see it */
struct cli_command {
	enum cli_cmd id;
	/* its --help (whose option list is cli_options_print); may be NULL */
	void (*usage)(FILE *out);
	/* trace: the first operand ends the options (it begins CMD) */
	bool operand_ends_options;
	/* an operand is a usage error ("unexpected argument") */
	bool no_operands;
	/* may be NULL: called after each option's setter succeeded */
	int (*parsed)(struct cli_values *v, const struct cli_option *o,
		      const char *arg);
};

/* "run" for CLI_RUN; NULL for none or several */
const char *cli_cmd_name(enum cli_cmd id);

/*
 * Parse argv's options (argv[0] is the subcommand's name) into v with
 * cmd's rows; v is zeroed first (v->run, v->diff kept), v->cmd set.
 * Returns 0 with *first the index of the first operand; EXIT_USAGE after
 * the usage error was printed; CLI_HELP_SHOWN after --help printed the
 * usage.
 */
int cli_options_parse(const struct cli_command *cmd, int argc, char **argv,
		      struct cli_values *v, int *first);

/* a parse's answer as the exit code when it ends the command: --help is 0 */
static inline int cli_parse_exit(int err)
{
	return err == CLI_HELP_SHOWN ? 0 : err;
}

/* cmd's rows as --help lists them, one per option */
void cli_options_print(enum cli_cmd id, FILE *out);

#endif
