// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "history/history.h"
#include "target/leftovers.h"
#include "target/scratch.h"
#include "util/path.h"
#include "target/fsspec.h"
#include "util/log.h"
#include "util/parse.h"
#include "version.h"
#include "workload/workload.h"

void cli_usage(FILE *out)
{
	fprintf(out,
		"usage: fsprof <command> [options]\n"
		"\n"
		"Runs a workload in named phases on a filesystem it sets up, traces the\n"
		"kernel with eBPF while each phase runs, and reports where the time went.\n"
		"\n"
		"commands:\n"
		"  run      run a workload on a fresh filesystem and report it\n"
		"  trace    run and profile any command, in the phases it marks\n"
		"           (fsprof trace [options] -- CMD ARGS...; fsprof trace --help)\n"
		"  record   trace a live filesystem, every process its workload\n"
		"           (fsprof record --dir PATH [--duration D]; --help)\n"
		"  phase    mark a phase from a script under fsprof trace\n"
		"           (fsprof phase NAME | fsprof phase --end)\n"
		"  check    report whether this machine can run fsprof, and why not\n"
		"  list     list workloads: their phases and parameters; or list\n"
		"           probes [--deep]: every BPF program, attached on this kernel,\n"
		"           missing (no such tracepoint) or failed, and why\n"
		"  cleanup  remove what killed runs left in a scratch directory: their\n"
		"           loop devices, mounts, throttle rules and files, as far as\n"
		"           their state files prove them theirs\n"
		"           (fsprof cleanup [--scratch DIR] [--dry-run])\n"
		"  report   re-render a saved results file, re-analysed; no root needed\n"
		"           (fsprof report FILE [--format text|json|...])\n"
		"  diff     compare two runs: per phase and metric, Welch intervals,\n"
		"           verdicts, false discovery rate held (fsprof diff --help)\n"
		"  runs     list the recorded runs: id, time, label, kernel, targets\n"
		"           and phase times (fsprof runs --help)\n"
		"  help     this text\n"
		"  version  print the version\n"
		"\n"
		"fsprof run [options]\n"
		"  -w, --workload NAME[:key=val,...]\n"
		"                        workload to run and its parameters (default\n"
		"                        seqio); fsprof list workloads shows them all\n"
		"      --scale S         quick (default) or full: the parameters' defaults\n"
		"      --suite classic   the five classic experiments in their original\n"
		"                        order: seqio files1m untar bonnie afd\n"
		"      --fs LIST         filesystems to compare, each made fresh for every\n"
		"                        workload and repeat (default ext4):\n"
		"                          LIST   = TARGET[,TARGET]...\n"
		"                          TARGET = [NAME=]FSTYPE[:mkfs=OPTS][:mount=OPTS]\n"
		"                          FSTYPE = ext2|ext3|ext4|xfs|btrfs\n"
		"                        NAME is the target's short name in tables (default\n"
		"                        its fstype; a second ext4 is ext4#2)\n"
		"                        OPTS with a , or : or space goes in single or double\n"
		"                        quotes, and the whole argument in the other kind for\n"
		"                        the shell, e.g.\n"
		"                          --fs ext3,ext4,xfs:mount=logbsize=256k\n"
		"                          --fs \"ext4:mkfs='-E test_fs -m 0',ext4:mount='noatime,nodelalloc'\"\n"
		"      --device-model M  slow the target down with the cgroup v1 blkio\n"
		"                        throttle, on a loop device below the traced one for\n"
		"                        image targets (--dir/--device: on the traced disk\n"
		"                        itself, less faithful); applied after mkfs, removed\n"
		"                        on exit:\n"
		"                          none      no limit (default)\n"
		"                          hdd       150 IOPS and 120 MB/s, read and write\n"
		"                          ssd-sata  50000 IOPS and 500 MB/s\n"
		"                          custom:riops=N,wiops=N,rbps=N,wbps=N\n"
		"                                    (bps take units: 120M; unset = no limit)\n"
		"      --repeat N        run every case N times, fresh mkfs each time, and\n"
		"                        report mean, stddev and 95%% confidence interval\n"
		"      --size SIZE       the size= parameter (the data size) of every workload\n"
		"                        that has one (seqio, bonnie), e.g. 4k, 256M, 4G\n"
		"                        (binary units; kB/MB/GB are powers of 1000)\n"
		"      --image-size SIZE size of the image file (default: derived)\n"
		"      --dir PATH        run on the filesystem already mounted at PATH, in\n"
		"                        a new subdirectory fsprof removes afterwards (no\n"
		"                        mkfs; traced by its device; without a block\n"
		"                        device, e.g. tmpfs, only user-side metrics)\n"
		"      --device DEV      make the --fs filesystems on block device DEV; it\n"
		"                        must not be mounted or hold root, and one holding\n"
		"                        a filesystem or partition table is refused unless\n"
		"      --force           is given\n"
		"      --scratch DIR     where the image lives (default " SCRATCH_DEFAULT
		")\n"
		"      --verify[=N]      re-run each case whose findings advise a mount or\n"
		"                        mkfs option, N times as it was and N times with the\n"
		"                        option, interleaved, and say whether the advice\n"
		"                        made the phase faster (N: default --repeat if more\n"
		"                        than 1, else 3)\n"
		"      --json FILE       also write the results as JSON to FILE\n"
		"      --openmetrics FILE  also write per-phase metrics, time budget and\n"
		"                        findings in OpenMetrics text (node_exporter\n"
		"                        textfile collector), atomically\n"
		"      --csv FILE        ... as CSV: a row per case, phase and metric\n"
		"      --html FILE       ... as one self-contained HTML page with charts\n"
		"      --trace FILE.json.gz  ... as a Chrome trace-event file, gzipped\n"
		"                        (Perfetto: phases, commits, log forces, IO)\n"
		"      --db PATH         record the run in this run history (default\n"
		"                        $FSPROF_DB, else " HISTORY_DEFAULT_PATH
		")\n"
		"      --no-db           do not record the run\n"
		"      --label L         record it under label L (fsprof report label:L)\n"
		"      --format F        text (default), or bonnie-csv: one bonnie++ CSV\n"
		"                        line (format 1.98) per bonnie case, not the text\n"
		"                        report\n"
		"      --no-trace        run the workload without kernel tracing\n"
		"      --warm            read phases read what the page cache holds: no\n"
		"                        cache drop before them (a warm re-read)\n"
		"      --probes SET      default, or deep: also the per-file hot events\n"
		"                        (ext4_mark_inode_dirty, es_lookup, jbd2 handles);\n"
		"                        costs ~100 ns per hit on metadata workloads\n"
		"      --bin DURATION    width of the per-phase timeline's bins (default\n"
		"                        100ms; 1ms to 1h; a phase has at most 36000\n"
		"                        bins, the last one takes the rest)\n"
		"      --slow-io DURATION  a block request slower than this (issue ->\n"
		"                        complete) is recorded as an event (default 50ms;\n"
		"                        at most 10min)\n"
		"  -v, --verbose         say more (libbpf and setup details)\n"
		"  -q, --quiet           only errors and the result table\n"
		"\n"
		"fsprof check [--json]\n"
		"\n"
		"exit codes: 0 ok; 1 the run failed; 2 usage error; 3 this environment\n"
		"cannot run fsprof (privileges, BTF, tools); 128+N interrupted by signal N\n"
		"(130 for SIGINT, 143 for SIGTERM), after tearing everything down.\n");
}

/*
 * A usage error: the problem on one line, then where the full usage is (as
 * git does; 72 lines of usage would scroll the error out of sight).
 */
static int vusage_error(const char *hint, const char *fmt, va_list ap)
{
	fprintf(stderr, "fsprof: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nsee '%s'\n", hint);
	return EXIT_USAGE;
}

static int __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vusage_error("fsprof --help", fmt, ap);
	va_end(ap);
	return code;
}

/* a bad `fsprof run` option */
static int __attribute__((format(printf, 1, 2)))
run_usage_error(const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vusage_error("fsprof run --help", fmt, ap);
	va_end(ap);
	return code;
}

static int parse_size_option(const char *name, const char *text, uint64_t *out)
{
	char err[256];

	if (parse_size(text, out, err, sizeof(err)))
		return run_usage_error("--%s: %s", name, err);
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

static int parse_duration_option(const char *name, const char *text,
				 const struct duration_range *range,
				 uint64_t *out)
{
	char err[256];

	if (parse_duration(text, out, err, sizeof(err)))
		return run_usage_error("--%s: %s", name, err);
	if (*out < range->min_ns || *out > range->max_ns)
		return run_usage_error("--%s %s is out of range: give %s", name,
				       text, range->text);
	return 0;
}

/* -w NAME[:key=val,...], repeatable; arg is not written to */
static int workload_option(const char *arg, struct run_options *opt)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct workload_opt *w;

	if (opt->n_workloads == RUN_MAX_WORKLOADS)
		return run_usage_error("more than %d workloads",
				       RUN_MAX_WORKLOADS);
	w = &opt->workloads[opt->n_workloads];
	if (len >= sizeof(w->name))
		return run_usage_error(
			"unknown workload '%.*s' (fsprof list workloads shows them)",
			(int)len, arg);
	memcpy(w->name, arg, len);
	w->name[len] = '\0';
	w->params = colon ? colon + 1 : NULL;
	if (!workload_find(w->name))
		return run_usage_error(
			"unknown workload '%s' (fsprof list workloads shows them)",
			w->name);
	opt->n_workloads++;
	return 0;
}

/* the classic experiments, in their original order */
static const char *const suite_classic[] = { "seqio", "files1m", "untar",
					     "bonnie", "afd" };

static int suite_option(const char *name, struct run_options *opt)
{
	unsigned int i;

	if (strcmp(name, "classic"))
		return run_usage_error("unknown suite '%s' (known: classic)",
				       name);
	for (i = 0; i < sizeof(suite_classic) / sizeof(suite_classic[0]); i++) {
		int err = workload_option(suite_classic[i], opt);

		if (err)
			return err;
	}
	return 0;
}

static int fs_option(const char *arg, struct run_options *opt)
{
	char err[512];
	int n = fsspec_parse(arg, opt->fs, FSSPEC_MAX, err, sizeof(err));

	if (n < 0)
		return run_usage_error("--fs: %s", err);
	opt->n_fs = (unsigned int)n;
	return 0;
}

static int repeat_option(const char *arg, struct run_options *opt)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || arg[0] == '-' || n < 1 || n > 1000)
		return run_usage_error(
			"--repeat takes a whole number from 1 to 1000, not '%s'",
			arg);
	opt->repeat = (unsigned int)n;
	return 0;
}

/* --verify[=N] */
static int verify_option(const char *arg, struct run_options *opt)
{
	char *end;
	unsigned long n;

	opt->verify = true;
	if (!arg)
		return 0;
	n = strtoul(arg, &end, 10);
	if (!*arg || *end || arg[0] == '-' || n < 2 || n > 32)
		return run_usage_error(
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
			err = workload_option(optarg, opt);
			if (err)
				return err;
			break;
		case OPT_SCALE:
			if (!strcmp(optarg, "quick"))
				opt->scale = SCALE_QUICK;
			else if (!strcmp(optarg, "full"))
				opt->scale = SCALE_FULL;
			else
				return run_usage_error(
					"--scale takes quick or full, not '%s'",
					optarg);
			break;
		case OPT_FS:
			err = fs_option(optarg, opt);
			if (err)
				return err;
			break;
		case OPT_SUITE:
			err = suite_option(optarg, opt);
			if (err)
				return err;
			break;
		case OPT_DEVICE_MODEL:
			if (device_model_parse(optarg, &opt->model, why,
					       sizeof(why)))
				return run_usage_error("--device-model: %s",
						       why);
			break;
		case OPT_PROBES:
			if (!strcmp(optarg, "deep"))
				opt->probes_deep = true;
			else if (strcmp(optarg, "default"))
				return run_usage_error(
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
			err = repeat_option(optarg, opt);
			if (err)
				return err;
			break;
		case OPT_SIZE:
			err = parse_size_option("size", optarg, &opt->size);
			if (err)
				return err;
			break;
		case OPT_IMAGE_SIZE:
			err = parse_size_option("image-size", optarg,
						&opt->image_size);
			if (err)
				return err;
			break;
		case OPT_SCRATCH:
			/* mountinfo and the state file name it absolutely */
			if (path_absolute(optarg, scratch_abs, sizeof(scratch_abs),
					  why, sizeof(why)))
				return usage_error("--scratch %s", why);
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
			err = parse_duration_option("bin", optarg, &bin_range,
						    &opt->bin_ns);
			if (err)
				return err;
			break;
		case OPT_SLOW_IO:
			err = parse_duration_option("slow-io", optarg,
						    &slow_io_range,
						    &opt->slow_io_ns);
			if (err)
				return err;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") &&
			    strcmp(optarg, "bonnie-csv"))
				return run_usage_error(
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
			err = verify_option(optarg, opt);
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
				return run_usage_error("--label: %s", why);
			opt->label = optarg;
			break;
		case OPT_OPENMETRICS:
			opt->openmetrics_path = optarg;
			break;
		case OPT_INTERVAL:
			err = parse_duration_option("interval", optarg,
						    &live_range,
						    &opt->interval_ns);
			if (err)
				return err;
			break;
		case OPT_DURATION:
			err = parse_duration_option("duration", optarg,
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
			return run_usage_error("option %s needs a value",
					       argv[optind - 1]);
		default:
			return run_usage_error("unknown option '%s' for run",
					       argv[optind - 1]);
		}
	}
	if (mode == CLI_TRACE) {
		opt->command = argv + optind;
		opt->n_command = argc - optind;
	} else if (optind < argc) {
		return run_usage_error("unexpected argument '%s'",
				       argv[optind]);
	}
	if (!opt->n_workloads && mode == CLI_RUN) {
		snprintf(opt->workloads[0].name, sizeof(opt->workloads[0].name),
			 "seqio");
		opt->n_workloads = 1;
	}
	if (opt->format && !strcmp(opt->format, "bonnie-csv") &&
	    !run_has_workload(opt, "bonnie"))
		return run_usage_error("--format bonnie-csv needs -w bonnie");
	if (opt->dir && opt->device)
		return run_usage_error("--dir and --device exclude each other");
	if (opt->label && opt->no_db)
		return run_usage_error(
			"--label names the run in the run history: not with --no-db");
	if (opt->dir && opt->n_fs)
		return run_usage_error(
			"--dir runs on the filesystem that is already there: --fs does not apply");
	if (opt->dir) {
		/* one target: the label says where */
		snprintf(opt->fs[0].label, sizeof(opt->fs[0].label), "dir:%s",
			 opt->dir);
		snprintf(opt->fs[0].name, sizeof(opt->fs[0].name), "dir");
		opt->n_fs = 1;
	}
	if (!opt->n_fs && fs_option("ext4", opt))
		return EXIT_USAGE;
	return 0;
}

static void list_workloads(FILE *out)
{
	const struct workload_def *const *all;
	unsigned int n, i, j;

	all = workload_all(&n);
	for (i = 0; i < n; i++) {
		const struct workload_def *w = all[i];

		fprintf(out, "%s\n  %s\n  phases:", w->name, w->description);
		for (j = 0; j < w->n_phases; j++)
			fprintf(out, " %s", w->phases[j].name);
		fprintf(out, "\n");
		for (j = 0; j < w->n_params; j++)
			fprintf(out, "  %-12s %s (quick %s, full %s)\n",
				w->params[j].key, w->params[j].help,
				w->params[j].quick, w->params[j].full);
		if (i + 1 < n)
			fputc('\n', out);
	}
}

static int cli_list(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "workloads")) {
		list_workloads(stdout);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "probes")) {
		bool deep = argc == 3 && !strcmp(argv[2], "--deep");

		if (argc > 3 || (argc == 3 && !deep))
			return usage_error("fsprof list probes [--deep]");
		return run_list_probes(deep);
	}
	return usage_error(
		"list what? (fsprof list workloads | probes [--deep])");
}

static int cleanup_usage_error(const char *arg)
{
	if (!strcmp(arg, "--scratch"))
		fprintf(stderr, "fsprof: option --scratch needs a value\n");
	else
		fprintf(stderr, "fsprof: unknown option '%s' for cleanup\n", arg);
	fprintf(stderr, "see 'fsprof cleanup --help'\n");
	return EXIT_USAGE;
}

/* fsprof cleanup [--scratch DIR] [--dry-run] */
static int cli_cleanup(int argc, char **argv)
{
	const char *scratch = SCRATCH_DEFAULT;
	bool dry_run = false;
	char why[256];
	int i, failed;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: fsprof cleanup [--scratch DIR] [--dry-run]\n"
			       "\n"
			       "Remove what killed fsprof runs left in DIR (default " SCRATCH_DEFAULT
			       "):\n"
			       "their loop devices, mounts, throttle rules, images and directories,\n"
			       "as far as their state files (DIR/fsprof-PID.state) prove them\n"
			       "theirs. A run still alive is left alone. --dry-run only says what.\n"
			       "\n"
			       "exit codes: 0 nothing left; 1 something could not be removed (said);\n"
			       "2 usage error; 3 DIR cannot be read.\n");
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--dry-run"))
			dry_run = true;
		else if (!strcmp(argv[i], "--scratch") && i + 1 < argc) {
			if (path_absolute(argv[++i], scratch_abs,
					  sizeof(scratch_abs), why, sizeof(why)))
				return usage_error("--scratch %s", why);
			scratch = scratch_abs;
		}
		else
			return cleanup_usage_error(argv[i]);
	}
	failed = leftovers_cleanup(scratch, dry_run);
	if (failed < 0)
		return EXIT_ENVIRONMENT;
	return failed ? EXIT_RUN_FAILED : EXIT_OK;
}

static int cli_check(int argc, char **argv)
{
	int json = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else
			return usage_error("unknown option '%s' for check",
					   argv[i]);
	}
	return check_command(json);
}

int cli_main(int argc, char **argv)
{
	struct run_options opt;
	const char *cmd;
	int err;

	if (argc < 2) {
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "run") && argc == 3 &&
	    (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		cli_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "run")) {
		err = cli_parse_run(argc - 1, argv + 1, &opt);
		return err ? err : run_command(&opt);
	}
	if (!strcmp(cmd, "cleanup"))
		return cli_cleanup(argc - 1, argv + 1);
	if (!strcmp(cmd, "runs"))
		return cli_runs(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cli_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cli_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return cli_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return cli_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "record"))
		return cli_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "phase"))
		return cli_phase(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cli_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h")) {
		cli_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("fsprof %s\n", FSPROF_VERSION);
		return EXIT_OK;
	}
	return usage_error("unknown command '%s'", cmd);
}
