// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "cli/cli.h"
#include "target/scratch.h"
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
		"  check    report whether this machine can run fsprof, and why not\n"
		"  list     list workloads: their phases and parameters\n"
		"  help     this text\n"
		"  version  print the version\n"
		"\n"
		"fsprof run [options]\n"
		"  -w, --workload NAME[:key=val,...]\n"
		"                        workload to run and its parameters (default\n"
		"                        seqio); fsprof list workloads shows them all\n"
		"      --scale S         quick (default) or full: the parameters' defaults\n"
		"      --fs TYPE         filesystem to make (default ext4)\n"
		"      --size SIZE       the workload's size= parameter, e.g. 4k, 256M, 4G\n"
		"                        (binary units; kB/MB/GB are powers of 1000)\n"
		"      --image-size SIZE size of the image file (default: derived)\n"
		"      --scratch DIR     where the image lives (default " SCRATCH_DEFAULT ")\n"
		"      --json FILE       also write the results as JSON to FILE\n"
		"      --no-trace        run the workload without kernel tracing\n"
		"  -v, --verbose         say more (libbpf and setup details)\n"
		"  -q, --quiet           only errors and the result table\n"
		"\n"
		"fsprof check [--json]\n"
		"\n"
		"exit codes: 0 ok; 1 the run failed; 2 usage error; 3 this environment\n"
		"cannot run fsprof (privileges, BTF, tools); 128+N interrupted by signal N\n"
		"(130 for SIGINT, 143 for SIGTERM), after tearing everything down.\n");
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "fsprof: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n");
	cli_usage(stderr);
	return EXIT_USAGE;
}

static int parse_size_option(const char *name, const char *text,
			     uint64_t *out)
{
	char err[256];

	if (parse_size(text, out, err, sizeof(err))) {
		fprintf(stderr, "fsprof: --%s: %s\n", name, err);
		return EXIT_USAGE;
	}
	return 0;
}

enum run_long_option {
	OPT_FS = 256,
	OPT_SIZE,
	OPT_IMAGE_SIZE,
	OPT_SCRATCH,
	OPT_JSON,
	OPT_NO_TRACE,
	OPT_SCALE,
};

/* -w NAME[:key=val,...] */
static int workload_option(char *arg, struct run_options *opt)
{
	char *colon = strchr(arg, ':');

	if (colon) {
		*colon = '\0';
		opt->workload_params = colon + 1;
	} else {
		opt->workload_params = NULL;
	}
	opt->workload = arg;
	if (!workload_find(arg))
		return usage_error("unknown workload '%s' (fsprof list workloads shows them)",
				   arg);
	return 0;
}

int cli_parse_run(int argc, char **argv, struct run_options *opt)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "fs", required_argument, NULL, OPT_FS },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "image-size", required_argument, NULL, OPT_IMAGE_SIZE },
		{ "scratch", required_argument, NULL, OPT_SCRATCH },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int c, err;

	memset(opt, 0, sizeof(*opt));
	opt->workload = "seqio";
	opt->fstype = "ext4";
	opt->scratch = SCRATCH_DEFAULT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:vq", longopts, NULL)) != -1) {
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
				return usage_error("--scale takes quick or full, not '%s'",
						   optarg);
			break;
		case OPT_FS:
			opt->fstype = optarg;
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
			opt->scratch = optarg;
			break;
		case OPT_JSON:
			opt->json_path = optarg;
			break;
		case OPT_NO_TRACE:
			opt->no_trace = true;
			break;
		case 'v':
			log_set_level(LOG_VERBOSE);
			break;
		case 'q':
			log_set_level(LOG_QUIET);
			break;
		case ':':
			return usage_error("option %s needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s' for run",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (strchr(opt->fstype, '/') || strlen(opt->fstype) > 12)
		return usage_error("'%s' is not a filesystem type", opt->fstype);
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
	return usage_error("list what? (fsprof list workloads)%s", "");
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
	if (!strcmp(cmd, "run")) {
		err = cli_parse_run(argc - 1, argv + 1, &opt);
		return err ? err : run_command(&opt);
	}
	if (!strcmp(cmd, "check"))
		return cli_check(argc - 1, argv + 1);
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
