// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof bisect-step: one step of git bisect run. The good run's command
 * (or the run options after --) is run again, here or in a guest of
 * --kernel, and one metric of one case is judged against the good run's
 * values: exit 0 good, 1 bad, 125 cannot tell (git bisect skips the
 * commit). An error that would be the same at every commit (a usage
 * error, a good run that cannot be read, a metric with no direction)
 * exits 128: git bisect run stops there rather than mark commits bad (it
 * reads 1 to 127 but 125 as bad, 2 included).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_run.h"
#include "cli/cmd_usage.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/rerun.h"
#include "cli/run_options.h"
#include "history/history.h"
#include "repro/bisect.h"
#include "repro/bisect_values.h"
#include "results/json_read.h"
#include "run/run_command.h"
#include "util/log.h"

/* git bisect run stops at 128 and above */
#define BISECT_ABORT 128

static void bisect_usage(FILE *out)
{
	fputs("usage: fsprof bisect-step --good RUN --metric [PHASE/]NAME --threshold PCT\n"
	      "                          [--case WORKLOAD/TARGET] [--kernel KERNEL]\n"
	      "                          [--higher-is-better|--lower-is-better]\n"
	      "                          [options] [-- RUN-OPTIONS...]\n"
	      "\n"
	      "One step of `git bisect run`: run the good run's command again (on\n"
	      "this machine's kernel, or in a guest of --kernel), and judge one\n"
	      "metric against the good run's values. Bad: the new mean is worse\n"
	      "than the good mean by more than PCT, in the metric's worse direction\n"
	      "(data/kpi.tsv, or the option). RUN-OPTIONS after -- are fsprof run\n"
	      "options to run instead of the good run's command. Prints one line:\n"
	      "the decision, the good mean +- stddev over n, the new values, the\n"
	      "change and the threshold.\n"
	      "\n",
	      out);
	cli_options_print(CLI_BISECT, out);
	fputs("\n"
	      "exit codes: 0 good; 1 bad (worse by more than PCT, every new value\n"
	      "beyond the good run's range); 125 cannot tell (git bisect skips the\n"
	      "commit): the metric is unstable in the good run (relative stddev over\n"
	      "20%, or min-max gap, (max - min) / min, over 20%: lkp-tests' limits),\n"
	      "it has fewer than 3 values there, the new run failed or has none,\n"
	      "or a new value lies within the good run's range although the mean\n"
	      "is past PCT; 128 a usage error, a good run that cannot be read or has several\n"
	      "cases or phases the metric could mean, a metric with no known\n"
	      "direction (git bisect run stops); 128+N interrupted by signal N.\n",
	      out);
}

/* what the step works with, the good run's side settled */
struct bisect_step {
	struct cli_values v;
	struct run_options opt; /* bisect-step's own run options */
	struct run_result good;
	struct bisect_metric m;
	struct bisect_values good_vals;
	enum kpi_dir dir;
	char scratch[4096]; /* --scratch, kept apart from the parser's */
	char json[4096]; /* where the new run's results go */
	bool json_temporary;
};

/* bisect-step's options that are run's too, passed on to the new run */
static const char *const run_options_passed[] = {
	"kernel",  "kernel-modules", "kernel-cmdline", "kernel-timeout",
	"scratch", "verbose",	     "quiet",
};

static bool passed_on(const char *name)
{
	size_t i;

	for (i = 0;
	     i < sizeof(run_options_passed) / sizeof(run_options_passed[0]);
	     i++)
		if (!strcmp(name, run_options_passed[i]))
			return true;
	return false;
}

/* what the options alone cannot say is wrong: 0 or EXIT_USAGE, said */
static int bisect_options_check(struct bisect_step *s, int argc, char **argv,
				int first)
{
	const struct cli_values *v = &s->v;

	if (!v->good || !v->bisect_metric || !(v->threshold > 0))
		return cmd_usage_error(
			"bisect-step",
			"bisect-step needs --good RUN, --metric NAME and --threshold PCT");
	if (v->higher_better && v->lower_better)
		return cmd_usage_error(
			"bisect-step",
			"--higher-is-better and --lower-is-better exclude each other");
	if (s->opt.kernels && strchr(s->opt.kernels, ','))
		return cmd_usage_error(
			"bisect-step",
			"--kernel %s: a bisect step tests one kernel",
			s->opt.kernels);
	if (first < argc && strcmp(argv[first - 1], "--"))
		return cmd_usage_error(
			"bisect-step",
			"unexpected argument '%s' (run options go after --)",
			argv[first]);
	if (bisect_metric_parse(v->bisect_metric, v->case_sel, &s->m))
		return cmd_usage_error(
			"bisect-step",
			"--metric '%s' is not [PHASE/]NAME (create/wall_ns)",
			v->bisect_metric);
	return 0;
}

static int bisect_parse(struct bisect_step *s, int argc, char **argv,
			int *first)
{
	static const struct cli_command cmd = { .id = CLI_BISECT,
						.usage = bisect_usage,
						.parsed = cli_option_keep };
	int err;

	s->v.run = &s->opt;
	err = cli_options_parse(&cmd, argc, argv, &s->v, first);
	if (!err)
		err = bisect_options_check(s, argc, argv, *first);
	if (err)
		return err;
	/* the good run's command is parsed next, and --scratch's buffer
	 * with it */
	if (s->v.scratch)
		snprintf(s->scratch, sizeof(s->scratch), "%s", s->v.scratch);
	return 0;
}

/* the good run, its values and the metric's direction: 0, or an exit
 * code (said) */
static int bisect_good_side(struct bisect_step *s)
{
	char err[1024];
	int ret;

	if (history_load_arg(s->v.db, s->v.good, &s->good, err, sizeof(err))) {
		fprintf(stderr, "fsprof: --good %s: %s\n", s->v.good, err);
		return BISECT_ABORT;
	}
	ret = bisect_values_find(&s->good, &s->m, &s->good_vals, err,
				 sizeof(err));
	if (ret == -ENOENT) {
		printf("skip: %s: %s\n", s->v.bisect_metric, err);
		return BISECT_SKIP;
	}
	if (ret) {
		fprintf(stderr, "fsprof: --good %s: %s\n", s->v.good,
			ret == -ENOMEM ? "out of memory" : err);
		return BISECT_ABORT;
	}
	s->dir = s->v.higher_better ? KPI_HIGHER_BETTER :
		 s->v.lower_better  ? KPI_LOWER_BETTER :
				      kpi_direction(s->m.name);
	if (s->dir == KPI_DIR_NONE) {
		fprintf(stderr,
			"fsprof: bisect-step: which way is worse for %s is not known (data/kpi.tsv says none: a mechanism's count): give --higher-is-better or --lower-is-better\n",
			s->m.name);
		return BISECT_ABORT;
	}
	return 0;
}

/* where the new run's results go: --json FILE, or a file of our own */
static int bisect_json_path(struct bisect_step *s)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (s->opt.json_path) {
		snprintf(s->json, sizeof(s->json), "%s", s->opt.json_path);
		return 0;
	}
	snprintf(s->json, sizeof(s->json), "%s/fsprof-bisect.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(s->json);
	if (fd < 0) {
		log_error(
			"bisect-step: cannot make a file in %s for the new run's results: %s",
			tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return -errno;
	}
	close(fd);
	s->json_temporary = true;
	return 0;
}

/* the new run's options besides its cases: bisect-step's own run options
 * as given, and --json; 0 or -ENOMEM */
static int bisect_own_words(const struct bisect_step *s,
			    struct rerun_words *own)
{
	unsigned int i;
	int err = 0;

	memset(own, 0, sizeof(*own));
	for (i = 0; i < s->opt.n_guest_args && !err; i++) {
		const struct guest_arg *a = &s->opt.guest_args[i];

		if (passed_on(a->name))
			err = rerun_words_add(own, a->name, a->value);
	}
	if (!err)
		err = rerun_words_add(own, "json", s->json);
	/* a step's run is not history: --json FILE keeps it */
	if (!err)
		err = rerun_words_add(own, "no-db", NULL);
	return err;
}

/*
 * fsprof run with the words of cases and own: its exit code, its text report
 * on stderr (stdout holds the step's one line); BISECT_ABORT when the
 * words do not parse
 */
static int bisect_run(char *const *cases, unsigned int n_cases,
		      const struct rerun_words *own)
{
	char **argv = calloc(n_cases + own->n + 2, sizeof(*argv));
	struct run_options *opt = calloc(1, sizeof(*opt));
	int argc = 0, code = BISECT_ABORT, saved;
	unsigned int i;

	if (!argv || !opt)
		goto out;
	argv[argc++] = "run";
	for (i = 0; i < n_cases; i++)
		argv[argc++] = cases[i];
	for (i = 0; i < own->n; i++)
		argv[argc++] = own->v[i];
	if (cli_parse_run(argc, argv, opt)) {
		log_error(
			"bisect-step: the new run's options do not parse (said above)");
		goto out;
	}
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(STDERR_FILENO, STDOUT_FILENO);
	code = run_command(opt);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
out:
	free(opt);
	free(argv);
	return code;
}

/* the new run's results into now: 0, or BISECT_SKIP with why, or the
 * exit code that stops the bisection (said) */
static int bisect_new_run(struct bisect_step *s, char *const *ops, int n_ops,
			  struct run_result *now, char *why, size_t len)
{
	struct rerun_command rc = { 0 };
	struct rerun_words own = { 0 };
	char *const *cases = ops;
	unsigned int n = (unsigned int)n_ops;
	int code = BISECT_ABORT;

	if (!n_ops) {
		if (rerun_command_read(&s->good, &rc, why, len)) {
			fprintf(stderr,
				"fsprof: --good %s cannot be run again: %s (give fsprof run options after --)\n",
				s->v.good, why);
			return BISECT_ABORT;
		}
		cases = rc.cases.v;
		n = rc.cases.n;
	}
	if (bisect_json_path(s) || bisect_own_words(s, &own))
		goto out;
	code = bisect_run(cases, n, &own);
	if (code >= BISECT_ABORT)
		goto out;
	if (code) {
		snprintf(why, len, "the new run failed (fsprof run exited %d)",
			 code);
		code = BISECT_SKIP;
	} else if (results_read_json(s->json, now, why, len)) {
		code = BISECT_SKIP;
	}
out:
	rerun_words_free(&own);
	rerun_command_free(&rc);
	return code;
}

/* the decision on the new values, its line on stdout; the exit code */
static int bisect_judge(struct bisect_step *s, const struct run_result *now,
			const char *why)
{
	struct bisect_values vals = { 0 };
	struct bisect_decision d;
	struct bisect_input in = {
		.good = s->good_vals.v,
		.n_good = s->good_vals.n,
		.threshold = s->v.threshold,
		.dir = s->dir,
	};
	char name[192], line[1024], err[512] = "";

	if (now && bisect_values_again(now, &s->m, &vals, err, sizeof(err)) ==
			   -ENOMEM) {
		log_error("out of memory");
		return BISECT_SKIP;
	}
	in.now = vals.v;
	in.n_now = vals.n;
	bisect_decide(&in, &d);
	/* the run's own reason first: the values are missing because of it */
	if (d.verdict == BISECT_SKIP && now && !vals.n && err[0])
		snprintf(d.why, sizeof(d.why), "%s", err);
	else if (d.verdict == BISECT_SKIP && !now && why && why[0])
		snprintf(d.why, sizeof(d.why), "%s", why);
	snprintf(name, sizeof(name), "%s/%s %s/%s", s->m.workload, s->m.target,
		 s->m.phase, s->m.name);
	bisect_line(&in, &d, name, line, sizeof(line));
	printf("%s\n", line);
	bisect_values_free(&vals);
	return d.verdict;
}

int cli_bisect(int argc, char **argv)
{
	struct bisect_step *s = calloc(1, sizeof(*s));
	struct run_result *now = calloc(1, sizeof(*now));
	struct bisect_decision d;
	struct bisect_input in;
	char why[1024] = "";
	int first, code;

	if (!s || !now) {
		log_error("out of memory");
		code = BISECT_SKIP;
		goto out;
	}
	code = bisect_parse(s, argc, argv, &first);
	if (code) {
		code = code == CLI_HELP_SHOWN ? EXIT_OK : BISECT_ABORT;
		goto out;
	}
	code = bisect_good_side(s);
	if (code)
		goto out;
	/* a good run that cannot vouch for a verdict: said before any run */
	in = (struct bisect_input){ .good = s->good_vals.v,
				    .n_good = s->good_vals.n };
	if (bisect_check_good(&in, &d) != BISECT_GOOD) {
		code = bisect_judge(s, NULL, NULL);
		goto out;
	}
	code = bisect_new_run(s, argv + first, argc - first, now, why,
			      sizeof(why));
	if (code == EXIT_OK)
		code = bisect_judge(s, now, NULL);
	else if (code == BISECT_SKIP)
		code = bisect_judge(s, NULL, why);
out:
	if (s && s->json_temporary)
		unlink(s->json);
	if (s) {
		bisect_values_free(&s->good_vals);
		run_result_free(&s->good);
	}
	if (now)
		run_result_free(now);
	free(now);
	free(s);
	return code;
}
