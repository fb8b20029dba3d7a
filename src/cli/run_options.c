// SPDX-License-Identifier: GPL-2.0
/*
 * The setters of run's options, which trace and record share: each checks
 * its argument and stores it in v->run, or says what is wrong with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_usage.h"
#include "cli/run_options.h"
#include "report/render.h"
#include "history/history.h"
#include "target/fsspec.h"
#include "target/stack_spec.h"
#include "util/parse.h"
#include "workload/age_spec.h"
#include "workload/workload.h"

/* what a duration option accepts */
struct duration_range {
	uint64_t min_ns, max_ns;
	const char *text;
};

/* --bin 1ns would make 36000 one-nanosecond bins a phase */
static const struct duration_range bin_range = { 1000000ULL, 3600000000000ULL,
						 "1ms to 1h" };
/* 1ns is fine: every request an event */
static const struct duration_range slow_io_range = { 1, 600000000000ULL,
						     "1ns to 10min" };
/* --interval and --duration: a time phase, a recording */
static const struct duration_range live_range = { 100000000ULL,
						  86400000000000ULL,
						  "100ms to 24h" };

/* a guest's run under TCG may take a hundred times the host's */
static const struct duration_range kernel_timeout_range = { 1000000000ULL,
							    86400000000000ULL,
							    "1s to 24h" };

static int duration_option(const struct cli_values *v,
			   const struct cli_option *o, const char *text,
			   const struct duration_range *range, uint64_t *out)
{
	char err[256];

	if (parse_duration(text, out, err, sizeof(err)))
		return cmd_usage_error(v->cmd, "--%s: %s", o->name, err);
	if (*out < range->min_ns || *out > range->max_ns)
		return cmd_usage_error(v->cmd,
				       "--%s %s is out of range: give %s",
				       o->name, text, range->text);
	return 0;
}

/* a whole number from min to max; false when text is not one */
static bool whole_number(const char *text, unsigned long min, unsigned long max,
			 unsigned int *out)
{
	char *end;
	unsigned long n = strtoul(text, &end, 10);

	if (!*text || *end || text[0] == '-' || n < min || n > max)
		return false;
	*out = (unsigned int)n;
	return true;
}

int set_run_string(struct cli_values *v, const struct cli_option *o,
		   const char *arg)
{
	*(const char **)((char *)v->run + o->field) = arg;
	return 0;
}

int set_run_flag(struct cli_values *v, const struct cli_option *o,
		 const char *arg)
{
	(void)arg;
	*(bool *)((char *)v->run + o->field) = true;
	return 0;
}

int set_run_size(struct cli_values *v, const struct cli_option *o,
		 const char *arg)
{
	char err[256];

	if (parse_size(arg, (uint64_t *)((char *)v->run + o->field), err,
		       sizeof(err)))
		return cmd_usage_error(v->cmd, "--%s: %s", o->name, err);
	return 0;
}

/* the workload of that name the suite added and -w has not set, or NULL */
static struct workload_opt *suite_workload(struct run_options *opt,
					   const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < opt->n_workloads; i++) {
		struct workload_opt *w = &opt->workloads[i];

		if (w->from_suite && !w->params && strlen(w->name) == len &&
		    !strncmp(w->name, name, len))
			return w;
	}
	return NULL;
}

/*
 * -w NAME[:key=val,...], repeatable; arg is not written to. After
 * --suite, -w NAME:params gives the suite's NAME its parameters.
 */
int set_workload(struct cli_values *v, const struct cli_option *o,
		 const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct run_options *opt = v->run;
	struct workload_opt *w = suite_workload(opt, arg, len);

	(void)o;
	if (w) {
		w->params = colon ? colon + 1 : NULL;
		w->from_suite = false;
		return 0;
	}
	if (opt->n_workloads == RUN_MAX_WORKLOADS)
		return cmd_usage_error(v->cmd, "more than %d workloads",
				       RUN_MAX_WORKLOADS);
	w = &opt->workloads[opt->n_workloads];
	if (len >= sizeof(w->name))
		return cmd_usage_error(
			v->cmd,
			"unknown workload '%.*s' (fsprof list workloads shows them)",
			(int)len, arg);
	memcpy(w->name, arg, len);
	w->name[len] = '\0';
	w->params = colon ? colon + 1 : NULL;
	if (!workload_find(w->name))
		return cmd_usage_error(
			v->cmd,
			"unknown workload '%s' (fsprof list workloads shows them)",
			w->name);
	opt->n_workloads++;
	return 0;
}

/* a workload of that name is in the plan already */
static bool workload_planned(const struct run_options *opt, const char *name)
{
	unsigned int i;

	for (i = 0; i < opt->n_workloads; i++)
		if (!strcmp(opt->workloads[i].name, name))
			return true;
	return false;
}

/* the classic experiments, in their original order */
static const char *const suite_classic[] = { "seqio", "files1m", "untar",
					     "bonnie", "afd" };

/*
 * --suite classic: its workloads in order; one -w gave already (with its
 * parameters) is not added twice, and a -w after it sets its parameters
 */
int set_suite(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	unsigned int i;
	int err;

	if (strcmp(arg, "classic"))
		return cmd_usage_error(
			v->cmd, "unknown suite '%s' (known: classic)", arg);
	snprintf(v->run->suite, sizeof(v->run->suite), "%s", arg);
	for (i = 0; i < sizeof(suite_classic) / sizeof(suite_classic[0]); i++) {
		if (workload_planned(v->run, suite_classic[i]))
			continue;
		err = set_workload(v, o, suite_classic[i]);
		if (err)
			return err;
		v->run->workloads[v->run->n_workloads - 1].from_suite = true;
	}
	return 0;
}

int set_age(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	char why[512];

	(void)o;
	if (age_spec_parse(arg, &v->run->age, why, sizeof(why)))
		return cmd_usage_error(v->cmd, "%s", why);
	return 0;
}

int set_scale(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	(void)o;
	if (!strcmp(arg, "quick"))
		v->run->scale = SCALE_QUICK;
	else if (!strcmp(arg, "full"))
		v->run->scale = SCALE_FULL;
	else
		return cmd_usage_error(
			v->cmd, "--scale takes quick or full, not '%s'", arg);
	return 0;
}

int set_fs(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	char err[512];
	int n = fsspec_parse(arg, v->run->fs, FSSPEC_MAX, err, sizeof(err));

	(void)o;
	if (n < 0)
		return cmd_usage_error(v->cmd, "--fs: %s", err);
	v->run->n_fs = (unsigned int)n;
	return 0;
}

int set_device_model(struct cli_values *v, const struct cli_option *o,
		     const char *arg)
{
	char why[256];

	(void)o;
	if (device_model_parse(arg, &v->run->model, why, sizeof(why)))
		return cmd_usage_error(v->cmd, "--device-model: %s", why);
	return 0;
}

int set_raid(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	char why[256];

	(void)o;
	if (stack_spec_parse_raid(arg, &v->run->stack, why, sizeof(why)))
		return cmd_usage_error(v->cmd, "%s", why);
	return 0;
}

int set_dm(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	char why[256];

	(void)o;
	if (stack_spec_parse_dm(arg, &v->run->stack, why, sizeof(why)))
		return cmd_usage_error(v->cmd, "%s", why);
	return 0;
}

int set_repeat(struct cli_values *v, const struct cli_option *o,
	       const char *arg)
{
	(void)o;
	if (!whole_number(arg, 1, 1000, &v->run->repeat))
		return cmd_usage_error(
			v->cmd,
			"--repeat takes a whole number from 1 to 1000, not '%s'",
			arg);
	return 0;
}

/* --verify[=N] */
int set_verify(struct cli_values *v, const struct cli_option *o,
	       const char *arg)
{
	(void)o;
	v->run->verify = true;
	if (arg && !whole_number(arg, 2, 32, &v->run->verify_repeats))
		return cmd_usage_error(
			v->cmd,
			"--verify takes a number of runs from 2 to 32 (--verify=3), not '%s'",
			arg);
	return 0;
}

int set_probes(struct cli_values *v, const struct cli_option *o,
	       const char *arg)
{
	(void)o;
	if (!strcmp(arg, "deep"))
		v->run->probes_deep = true;
	else if (strcmp(arg, "default"))
		return cmd_usage_error(
			v->cmd, "--probes takes default or deep, not '%s'",
			arg);
	return 0;
}

/*
 * The report on stdout in any of report's formats (fsprof report
 * --format), as files take them with --json FILE and the others; run
 * also bonnie-csv. gzip (trace) not to a terminal.
 */
static int output_format(struct cli_values *v, const char *arg, bool bonnie)
{
	if (!report_format_known(arg) &&
	    !(bonnie && !strcmp(arg, "bonnie-csv")))
		return cmd_usage_error(v->cmd, "--format takes %s%s, not '%s'",
				       report_format_list(),
				       bonnie ? "|bonnie-csv" : "", arg);
	if (!strcmp(arg, "trace") && isatty(STDOUT_FILENO))
		return cmd_usage_error(
			v->cmd,
			"--format trace: the trace is gzip-compressed: redirect it to a file, or give --trace FILE");
	v->run->format = arg;
	return 0;
}

int set_run_format(struct cli_values *v, const struct cli_option *o,
		   const char *arg)
{
	(void)o;
	return output_format(v, arg, true);
}

/* trace and record: the same, but bonnie-csv needs a bonnie workload */
int set_live_format(struct cli_values *v, const struct cli_option *o,
		    const char *arg)
{
	(void)o;
	return output_format(v, arg, false);
}

int set_run_label(struct cli_values *v, const struct cli_option *o,
		  const char *arg)
{
	char why[256];

	(void)o;
	if (history_label_check(arg, why, sizeof(why)))
		return cmd_usage_error(v->cmd, "--label: %s", why);
	v->run->label = arg;
	return 0;
}

int set_bin(struct cli_values *v, const struct cli_option *o, const char *arg)
{
	return duration_option(v, o, arg, &bin_range, &v->run->bin_ns);
}

int set_slow_io(struct cli_values *v, const struct cli_option *o,
		const char *arg)
{
	return duration_option(v, o, arg, &slow_io_range, &v->run->slow_io_ns);
}

int set_interval(struct cli_values *v, const struct cli_option *o,
		 const char *arg)
{
	return duration_option(v, o, arg, &live_range, &v->run->interval_ns);
}

int set_duration(struct cli_values *v, const struct cli_option *o,
		 const char *arg)
{
	return duration_option(v, o, arg, &live_range, &v->run->duration_ns);
}

int set_kernel_timeout(struct cli_values *v, const struct cli_option *o,
		       const char *arg)
{
	return duration_option(v, o, arg, &kernel_timeout_range,
			       &v->run->kernel_timeout_ns);
}

/*
 * The options that stay with the host when a run goes into guests
 * (--kernel): where results go, the history, the host's scratch, how much
 * it says; the guest writes its own JSON into its own scratch.
 */
static const char *const host_only[] = {
	"kernel",
	"kernel-modules",
	"kernel-cmdline",
	"kernel-timeout",
	"json",
	"openmetrics",
	"csv",
	"html",
	"trace",
	"db",
	"no-db",
	"label",
	"scratch",
	"format",
	"verbose",
	"quiet",
	"case-gate",
};

int cli_option_keep(struct cli_values *v, const struct cli_option *o,
		    const char *arg)
{
	struct run_options *opt = v->run;

	if (opt->n_guest_args == GUEST_MAX_ARGS)
		return cmd_usage_error(v->cmd, "more than %d options",
				       GUEST_MAX_ARGS);
	opt->guest_args[opt->n_guest_args].name = o->name;
	opt->guest_args[opt->n_guest_args].value = arg;
	opt->n_guest_args++;
	return 0;
}

int run_guest_arg_add(struct cli_values *v, const struct cli_option *o,
		      const char *arg)
{
	unsigned int i;

	if (!v->run)
		return 0;
	for (i = 0; i < sizeof(host_only) / sizeof(host_only[0]); i++)
		if (!strcmp(o->name, host_only[i]))
			return 0;
	return cli_option_keep(v, o, arg);
}
