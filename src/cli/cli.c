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
		"  help     this text\n"
		"  version  print the version\n"
		"\n"
		"fsprof run [options]\n"
		"  -w, --workload NAME   workload to run (default seqio): seqio\n"
		"      --fs TYPE         filesystem to make (default ext4)\n"
		"      --size SIZE       workload size, e.g. 4k, 256M, 4G (binary units;\n"
		"                        kB/MB/GB are powers of 1000; default 256M)\n"
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
};

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
			opt->workload = optarg;
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
	if (!workload_find(opt->workload))
		return usage_error("unknown workload '%s' (known: seqio)",
				   opt->workload);
	if (strchr(opt->fstype, '/') || strlen(opt->fstype) > 12)
		return usage_error("'%s' is not a filesystem type", opt->fstype);
	return 0;
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
