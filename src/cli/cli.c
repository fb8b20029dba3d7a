// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_usage.h"
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
		"                        mkfs option, as it was and with the option,\n"
		"                        interleaved, until the speed-up's interval decides\n"
		"                        whether the advice made the phase faster, at most\n"
		"                        N rounds (default the larger of --repeat and 10)\n"
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

/* cleanup's --scratch made absolute */
static char scratch_abs[4096];

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

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

static int cli_list(int argc, char **argv)
{
	if (argc == 2 && is_help(argv[1])) {
		printf("usage: fsprof list workloads | fsprof list probes [--deep]\n"
		       "\n"
		       "workloads: every workload, its phases and parameters.\n"
		       "probes: every BPF program, attached on this kernel, missing\n"
		       "(no such tracepoint) or failed, and why; --deep: also the\n"
		       "--probes deep set.\n"
		       "\n"
		       "exit codes: 0 ok; 2 usage error; 3 this environment cannot\n"
		       "load BPF (probes).\n");
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "workloads")) {
		list_workloads(stdout);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "probes")) {
		bool deep = argc == 3 && !strcmp(argv[2], "--deep");

		if (argc > 3 || (argc == 3 && !deep))
			return cmd_usage_error(
				"list", "unknown argument '%s' for list probes",
				argv[argc - 1]);
		return run_list_probes(deep);
	}
	if (argc >= 2)
		return cmd_usage_error(
			"list",
			"unknown argument '%s' for list (fsprof list workloads | probes [--deep])",
			argv[1]);
	return cmd_usage_error(
		"list", "list what? (fsprof list workloads | probes [--deep])");
}

/* fsprof cleanup [--scratch DIR] [--dry-run] */
static int cli_cleanup(int argc, char **argv)
{
	const char *scratch = SCRATCH_DEFAULT;
	bool dry_run = false;
	char why[256];
	int i, failed;

	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
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
					  sizeof(scratch_abs), why,
					  sizeof(why)))
				return cmd_usage_error("cleanup", "--scratch %s",
						       why);
			scratch = scratch_abs;
		} else if (!strcmp(argv[i], "--scratch")) {
			return cmd_usage_error("cleanup",
					       "option --scratch needs a value");
		} else {
			return cmd_usage_error(
				"cleanup", "unknown option '%s' for cleanup",
				argv[i]);
		}
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
		if (is_help(argv[i])) {
			printf("usage: fsprof check [--json]\n"
			       "\n"
			       "Report whether this machine can run fsprof, and why not:\n"
			       "privileges, BTF, kernel features, tools; --json: as JSON.\n"
			       "\n"
			       "exit codes: 0 it can; 2 usage error; 3 it cannot (said why).\n");
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else
			return cmd_usage_error("check",
					       "unknown option '%s' for check",
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
	return cli_usage_error("unknown command '%s'", cmd);
}
