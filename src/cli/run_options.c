// SPDX-License-Identifier: GPL-2.0
/*
 * The options of `fsprof run`, and of trace and record, which take run's
 * tracing and output options.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/run_options.h"
#include "history/history.h"
#include "target/fsspec.h"
#include "target/scratch.h"
#include "util/log.h"
#include "util/parse.h"
#include "util/path.h"
#include "workload/workload.h"

static int parse_size_option(const char *cmd, const char *name,
			     const char *text, uint64_t *out)
{
	char err[256];

	if (parse_size(text, out, err, sizeof(err)))
		return cmd_usage_error(cmd, "--%s: %s", name, err);
	return 0;
}

enum run_long_option {
	OPT_FS = 256,
	OPT_SIZE,
	OPT_IMAGE_SIZE,
	OPT_SCRATCH,
	OPT_JSON,
	OPT_CSV,
	OPT_HTML,
	OPT_TRACE,
	OPT_NO_TRACE,
	OPT_WARM,
	OPT_SCALE,
	OPT_SUITE,
	OPT_REPEAT,
	OPT_DEVICE_MODEL,
	OPT_PROBES,
	OPT_DIR,
	OPT_DEVICE,
	OPT_FORCE,
	OPT_FORMAT,
	OPT_BIN,
	OPT_SLOW_IO,
	OPT_VERIFY,
	OPT_OPENMETRICS,
	OPT_INTERVAL,
	OPT_DURATION,
	OPT_DB,
	OPT_NO_DB,
	OPT_LABEL,
};

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

static int parse_duration_option(const char *cmd, const char *name,
				 const char *text,
				 const struct duration_range *range,
				 uint64_t *out)
{
	char err[256];

	if (parse_duration(text, out, err, sizeof(err)))
		return cmd_usage_error(cmd, "--%s: %s", name, err);
	if (*out < range->min_ns || *out > range->max_ns)
		return cmd_usage_error(cmd, "--%s %s is out of range: give %s",
					   name, text, range->text);
	return 0;
}

/* -w NAME[:key=val,...], repeatable; arg is not written to */
static int workload_option(const char *cmd, const char *arg,
			   struct run_options *opt)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct workload_opt *w;

	if (opt->n_workloads == RUN_MAX_WORKLOADS)
		return cmd_usage_error(cmd, "more than %d workloads",
					   RUN_MAX_WORKLOADS);
	w = &opt->workloads[opt->n_workloads];
	if (len >= sizeof(w->name))
		return cmd_usage_error(cmd, 
			"unknown workload '%.*s' (fsprof list workloads shows them)",
			(int)len, arg);
	memcpy(w->name, arg, len);
	w->name[len] = '\0';
	w->params = colon ? colon + 1 : NULL;
	if (!workload_find(w->name))
		return cmd_usage_error(cmd, 
			"unknown workload '%s' (fsprof list workloads shows them)",
			w->name);
	opt->n_workloads++;
	return 0;
}

/* the classic experiments, in their original order */
static const char *const suite_classic[] = { "seqio", "files1m", "untar",
					     "bonnie", "afd" };

static int suite_option(const char *cmd, const char *name,
			struct run_options *opt)
{
	unsigned int i;

	if (strcmp(name, "classic"))
		return cmd_usage_error(cmd, 
			"unknown suite '%s' (known: classic)", name);
	for (i = 0; i < sizeof(suite_classic) / sizeof(suite_classic[0]); i++) {
		int err = workload_option(cmd, suite_classic[i], opt);

		if (err)
			return err;
	}
	return 0;
}

static int fs_option(const char *cmd, const char *arg,
		     struct run_options *opt)
{
	char err[512];
	int n = fsspec_parse(arg, opt->fs, FSSPEC_MAX, err, sizeof(err));

	if (n < 0)
		return cmd_usage_error(cmd, "--fs: %s", err);
	opt->n_fs = (unsigned int)n;
	return 0;
}

static int repeat_option(const char *cmd, const char *arg,
			 struct run_options *opt)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || arg[0] == '-' || n < 1 || n > 1000)
		return cmd_usage_error(cmd, 
			"--repeat takes a whole number from 1 to 1000, not '%s'",
			arg);
	opt->repeat = (unsigned int)n;
	return 0;
}

/* --verify[=N] */
static int verify_option(const char *cmd, const char *arg,
			 struct run_options *opt)
{
	char *end;
	unsigned long n;

	opt->verify = true;
	if (!arg)
		return 0;
	n = strtoul(arg, &end, 10);
	if (!*arg || *end || arg[0] == '-' || n < 2 || n > 32)
		return cmd_usage_error(cmd, 
			"--verify takes a number of runs from 2 to 32 (--verify=3), not '%s'",
			arg);
	opt->verify_repeats = (unsigned int)n;
	return 0;
}

static bool run_has_workload(const struct run_options *opt, const char *name)
{
	unsigned int i;

	for (i = 0; i < opt->n_workloads; i++)
		if (!strcmp(opt->workloads[i].name, name))
			return true;
	return false;
}

int cli_parse_run(int argc, char **argv, struct run_options *opt)
{
	return cli_parse_options(argc, argv, opt, CLI_RUN);
}

/* --interval and --duration: a time phase, a recording */
static const struct duration_range live_range = { 100000000ULL,
						  86400000000000ULL,
						  "100ms to 24h" };

/* --scratch made absolute (run_options keeps a pointer to it) */
static char scratch_abs[4096];

int cli_parse_options(int argc, char **argv, struct run_options *opt,
		      enum cli_mode mode)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "fs", required_argument, NULL, OPT_FS },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "image-size", required_argument, NULL, OPT_IMAGE_SIZE },
		{ "scratch", required_argument, NULL, OPT_SCRATCH },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
		{ "warm", no_argument, NULL, OPT_WARM },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "suite", required_argument, NULL, OPT_SUITE },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "device-model", required_argument, NULL, OPT_DEVICE_MODEL },
		{ "probes", required_argument, NULL, OPT_PROBES },
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "bin", required_argument, NULL, OPT_BIN },
		{ "slow-io", required_argument, NULL, OPT_SLOW_IO },
		{ "verify", optional_argument, NULL, OPT_VERIFY },
		{ "openmetrics", required_argument, NULL, OPT_OPENMETRICS },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "db", required_argument, NULL, OPT_DB },
		{ "no-db", no_argument, NULL, OPT_NO_DB },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	char why[256];
	int c, err;

	memset(opt, 0, sizeof(*opt));
	snprintf(opt->model.name, sizeof(opt->model.name), "none");
	opt->scratch = SCRATCH_DEFAULT;
	opt->repeat = 1;
	optind = 0; /* 0, not 1: glibc then also forgets a half-read "-xv" */
	opterr = 0;
	/* trace: the first argument that is not an option begins CMD */
	while ((c = getopt_long(argc, argv,
				mode == CLI_TRACE ? "+:w:vq" : ":w:vq",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			err = workload_option(cmd, optarg, opt);
			if (err)
				return err;
			break;
		case OPT_SCALE:
			if (!strcmp(optarg, "quick"))
				opt->scale = SCALE_QUICK;
			else if (!strcmp(optarg, "full"))
				opt->scale = SCALE_FULL;
			else
				return cmd_usage_error(cmd, 
					"--scale takes quick or full, not '%s'",
					optarg);
			break;
		case OPT_FS:
			err = fs_option(cmd, optarg, opt);
			if (err)
				return err;
			break;
		case OPT_SUITE:
			err = suite_option(cmd, optarg, opt);
			if (err)
				return err;
			break;
		case OPT_DEVICE_MODEL:
			if (device_model_parse(optarg, &opt->model, why,
					       sizeof(why)))
				return cmd_usage_error(cmd, "--device-model: %s",
							   why);
			break;
		case OPT_PROBES:
			if (!strcmp(optarg, "deep"))
				opt->probes_deep = true;
			else if (strcmp(optarg, "default"))
				return cmd_usage_error(cmd, 
					"--probes takes default or deep, not '%s'",
					optarg);
			break;
		case OPT_DIR:
			opt->dir = optarg;
			break;
		case OPT_DEVICE:
			opt->device = optarg;
			break;
		case OPT_FORCE:
			opt->force = true;
			break;
		case OPT_REPEAT:
			err = repeat_option(cmd, optarg, opt);
			if (err)
				return err;
			break;
		case OPT_SIZE:
			err = parse_size_option(cmd, "size", optarg, &opt->size);
			if (err)
				return err;
			break;
		case OPT_IMAGE_SIZE:
			err = parse_size_option(cmd, "image-size", optarg,
						&opt->image_size);
			if (err)
				return err;
			break;
		case OPT_SCRATCH:
			/* mountinfo and the state file name it absolutely */
			if (path_absolute(optarg, scratch_abs,
					  sizeof(scratch_abs), why,
					  sizeof(why)))
				return cmd_usage_error(cmd, "--scratch %s", why);
			opt->scratch = scratch_abs;
			break;
		case OPT_JSON:
			opt->json_path = optarg;
			break;
		case OPT_CSV:
			opt->csv_path = optarg;
			break;
		case OPT_HTML:
			opt->html_path = optarg;
			break;
		case OPT_TRACE:
			opt->trace_path = optarg;
			break;
		case OPT_BIN:
			err = parse_duration_option(cmd, "bin", optarg, &bin_range,
						    &opt->bin_ns);
			if (err)
				return err;
			break;
		case OPT_SLOW_IO:
			err = parse_duration_option(cmd, "slow-io", optarg,
						    &slow_io_range,
						    &opt->slow_io_ns);
			if (err)
				return err;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") &&
			    strcmp(optarg, "bonnie-csv"))
				return cmd_usage_error(cmd, 
					"--format takes text or bonnie-csv, not '%s'",
					optarg);
			opt->format = optarg;
			break;
		case OPT_NO_TRACE:
			opt->no_trace = true;
			break;
		case OPT_WARM:
			opt->warm = true;
			break;
		case OPT_VERIFY:
			err = verify_option(cmd, optarg, opt);
			if (err)
				return err;
			break;
		case OPT_DB:
			opt->db_path = optarg;
			break;
		case OPT_NO_DB:
			opt->no_db = true;
			break;
		case OPT_LABEL:
			if (history_label_check(optarg, why, sizeof(why)))
				return cmd_usage_error(cmd, "--label: %s", why);
			opt->label = optarg;
			break;
		case OPT_OPENMETRICS:
			opt->openmetrics_path = optarg;
			break;
		case OPT_INTERVAL:
			err = parse_duration_option(cmd, "interval", optarg,
						    &live_range,
						    &opt->interval_ns);
			if (err)
				return err;
			break;
		case OPT_DURATION:
			err = parse_duration_option(cmd, "duration", optarg,
						    &live_range,
						    &opt->duration_ns);
			if (err)
				return err;
			break;
		case 'v':
			log_set_level(LOG_VERBOSE);
			break;
		case 'q':
			log_set_level(LOG_QUIET);
			break;
		case ':':
			return cmd_usage_error(cmd, "option %s needs a value",
						   argv[optind - 1]);
		default:
			return cmd_usage_error(cmd, 
				"unknown option '%s' for %s",
				argv[optind - 1], cmd);
		}
	}
	if (mode == CLI_TRACE) {
		opt->command = argv + optind;
		opt->n_command = argc - optind;
	} else if (optind < argc) {
		return cmd_usage_error(cmd, "unexpected argument '%s'",
					   argv[optind]);
	}
	if (!opt->n_workloads && mode == CLI_RUN) {
		snprintf(opt->workloads[0].name, sizeof(opt->workloads[0].name),
			 "seqio");
		opt->n_workloads = 1;
	}
	if (opt->format && !strcmp(opt->format, "bonnie-csv") &&
	    !run_has_workload(opt, "bonnie"))
		return cmd_usage_error(cmd, 
			"--format bonnie-csv needs -w bonnie");
	if (opt->dir && opt->device)
		return cmd_usage_error(cmd, 
			"--dir and --device exclude each other");
	if (opt->label && opt->no_db)
		return cmd_usage_error(cmd, 
			"--label names the run in the run history: not with --no-db");
	if (opt->dir && opt->n_fs)
		return cmd_usage_error(cmd, 
			"--dir runs on the filesystem that is already there: --fs does not apply");
	if (opt->dir) {
		/* one target: the label says where */
		snprintf(opt->fs[0].label, sizeof(opt->fs[0].label), "dir:%s",
			 opt->dir);
		snprintf(opt->fs[0].name, sizeof(opt->fs[0].name), "dir");
		opt->n_fs = 1;
	}
	if (!opt->n_fs && fs_option(cmd, "ext4", opt))
		return EXIT_USAGE;
	return 0;
}
