// SPDX-License-Identifier: GPL-2.0
/*
 * Every option of every subcommand, one row each, in --help order; and the
 * setters of the options that are not run's. An option two subcommands
 * spell alike but read differently (--format, --json, --label) is a row
 * for each meaning. A change of an option is a change of its row, and of
 * docs/fsprof.1.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/options.h"
#include "cli/run_options.h"
#include "history/history.h"
#include "report/render.h"
#include "target/scratch.h"
#include "util/log.h"
#include "util/path.h"

static int set_help(struct cli_values *v, const struct cli_option *o,
		    const char *arg)
{
	(void)v, (void)o, (void)arg;
	return CLI_HELP_SHOWN;
}

static int set_verbose(struct cli_values *v, const struct cli_option *o,
		       const char *arg)
{
	(void)v, (void)o, (void)arg;
	log_set_level(LOG_VERBOSE);
	return 0;
}

static int set_quiet(struct cli_values *v, const struct cli_option *o,
		     const char *arg)
{
	(void)v, (void)o, (void)arg;
	log_set_level(LOG_QUIET);
	return 0;
}

/* the bool or const char * at cli_values + o->field */
static int set_flag(struct cli_values *v, const struct cli_option *o,
		    const char *arg)
{
	(void)arg;
	*(bool *)((char *)v + o->field) = true;
	return 0;
}

static int set_string(struct cli_values *v, const struct cli_option *o,
		      const char *arg)
{
	*(const char **)((char *)v + o->field) = arg;
	return 0;
}

/* --scratch made absolute: mountinfo and the state files name it so */
static int set_scratch(struct cli_values *v, const struct cli_option *o,
		       const char *arg)
{
	static char scratch_abs[4096];
	char why[256];

	(void)o;
	if (path_absolute(arg, scratch_abs, sizeof(scratch_abs), why,
			  sizeof(why)))
		return cmd_usage_error(v->cmd, "--scratch %s", why);
	v->scratch = scratch_abs;
	return 0;
}

static int set_report_format(struct cli_values *v, const struct cli_option *o,
			     const char *arg)
{
	(void)o;
	if (!report_format_known(arg))
		return cmd_usage_error(v->cmd,
				       "unknown --format (one of %s): %s",
				       report_format_list(), arg);
	v->format = arg;
	return 0;
}

static int set_runs_format(struct cli_values *v, const struct cli_option *o,
			   const char *arg)
{
	(void)o;
	if (strcmp(arg, "text") && strcmp(arg, "json"))
		return cmd_usage_error(
			v->cmd, "unknown --format (one of text|json): %s", arg);
	v->format = arg;
	return 0;
}

/* check: text or json on stdout, as every command's report */
static int set_check_format(struct cli_values *v, const struct cli_option *o,
			    const char *arg)
{
	int err = set_runs_format(v, o, arg);

	v->json = !err && !strcmp(arg, "json");
	return err;
}

static int set_diff_format(struct cli_values *v, const struct cli_option *o,
			   const char *arg)
{
	(void)o;
	if (strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "csv") &&
	    strcmp(arg, "lkp"))
		return cmd_usage_error(
			v->cmd,
			"unknown --format '%s' (text, json, csv or lkp)", arg);
	v->format = arg;
	return 0;
}

static int set_alpha(struct cli_values *v, const struct cli_option *o,
		     const char *arg)
{
	char *end;
	double alpha = strtod(arg, &end);

	(void)o;
	if (end == arg || *end || !(alpha > 0) || !(alpha < 1))
		return cmd_usage_error(
			v->cmd,
			"--alpha '%s' is not a rate between 0 and 1 (e.g. 0.05)",
			arg);
	v->diff->alpha = alpha;
	return 0;
}

/* "5%", "5" -> 0.05; "0.5%" -> 0.005: --noise, --fail-above */
static int set_percent(struct cli_values *v, const struct cli_option *o,
		       const char *arg)
{
	char *end;
	double pct = strtod(arg, &end);

	if (end == arg || (*end && strcmp(end, "%")) || !(pct >= 0) ||
	    pct > 1000)
		return cmd_usage_error(
			v->cmd, "--%s '%s' is not a percentage (e.g. %s)",
			o->name, arg, strcmp(o->name, "noise") ? "5%" : "2%");
	*(double *)((char *)v->diff + o->field) = pct / 100;
	return 0;
}

static int set_metric(struct cli_values *v, const struct cli_option *o,
		      const char *arg)
{
	(void)o;
	v->diff->metric_glob = arg;
	return 0;
}

static int set_allow_mismatch(struct cli_values *v, const struct cli_option *o,
			      const char *arg)
{
	(void)o, (void)arg;
	v->diff->allow_mismatch = true;
	return 0;
}

static int set_diff_by(struct cli_values *v, const struct cli_option *o,
		       const char *arg)
{
	(void)o;
	if (strcmp(arg, "kernel"))
		return cmd_usage_error(v->cmd, "--by takes kernel, not '%s'",
				       arg);
	v->diff->by_kernel = true;
	return 0;
}

static int set_time_verdicts(struct cli_values *v, const struct cli_option *o,
			     const char *arg)
{
	(void)o, (void)arg;
	v->diff->time_verdicts = true;
	return 0;
}

/* bisect-step --threshold: "5%" or "5" -> 0.05 */
static int set_threshold(struct cli_values *v, const struct cli_option *o,
			 const char *arg)
{
	char *end;
	double pct = strtod(arg, &end);

	(void)o;
	if (end == arg || (*end && strcmp(end, "%")) || !(pct > 0) ||
	    pct > 1000)
		return cmd_usage_error(
			v->cmd,
			"--threshold '%s' is not a percentage above 0 (e.g. 5%%)",
			arg);
	v->threshold = pct / 100;
	return 0;
}

static int set_baseline(struct cli_values *v, const struct cli_option *o,
			const char *arg)
{
	char err[256];

	(void)o;
	if (history_label_check(arg, err, sizeof(err)))
		return cmd_usage_error(v->cmd, "--baseline: %s", err);
	snprintf(v->baseline, sizeof(v->baseline), "label:%s", arg);
	return 0;
}

#define RUN_FIELD(f) offsetof(struct run_options, f)
#define VALUE(f) offsetof(struct cli_values, f)
#define DIFF_FIELD(f) offsetof(struct diff_options, f)
#define NONE no_argument
#define ARG required_argument

static const struct cli_option table[] = {
	/* run, trace and record */
	{ "workload", 'w', ARG, "NAME[:key=val,...]", CLI_RUN, set_workload, 0,
	  "workload to run and its parameters (default\n"
	  "seqio); fsprof list workloads shows them all" },
	{ "scale", 0, ARG, "S", CLI_RUN, set_scale, 0,
	  "quick (default) or full: the parameters' defaults" },
	{ "suite", 0, ARG, "classic", CLI_RUN, set_suite, 0,
	  "the five classic experiments in their original\n"
	  "order: seqio files1m untar bonnie afd (-w NAME:...\n"
	  "sets one's parameters), each on its original's\n"
	  "targets (ext3,ext4; untar ext4,xfs,\n"
	  "xfs:mount=logbsize=256k) unless --fs gives the\n"
	  "targets of all; the report sets each original's\n"
	  "published figures and shapes beside ours" },
	{ "fs", 0, ARG, "TARGET", CLI_TRACE, set_fs, 0,
	  "the filesystem made fresh for CMD (default ext4):\n"
	  "  TARGET = [NAME=]FSTYPE[:mkfs=OPTS][:mount=OPTS]\n"
	  "           [:raid='LEVEL:N'][:dm=linear][:model=M]\n"
	  "  FSTYPE = ext2|ext3|ext4|xfs|btrfs\n"
	  "as fsprof run --fs has them, one target" },
	{ "fs", 0, ARG, "LIST", CLI_RUN, set_fs, 0,
	  "filesystems to compare, each made fresh for every\n"
	  "workload and repeat (default ext4; --suite classic:\n"
	  "each original's):\n"
	  "  LIST   = TARGET[,TARGET]...\n"
	  "  TARGET = [NAME=]FSTYPE[:mkfs=OPTS][:mount=OPTS]\n"
	  "           [:raid='LEVEL:N'][:dm=linear][:model=M]\n"
	  "  FSTYPE = ext2|ext3|ext4|xfs|btrfs\n"
	  "raid=, dm= and model= give this target its own\n"
	  "--raid, --dm, --device-model\n"
	  "NAME is the target's short name in tables (default\n"
	  "its fstype; a second ext4 is ext4#2)\n"
	  "OPTS with a , or : or space goes in single or double\n"
	  "quotes, and the whole argument in the other kind for\n"
	  "the shell, e.g.\n"
	  "  --fs ext3,ext4,xfs:mount=logbsize=256k\n"
	  "  --fs \"ext4:mkfs='-E test_fs -m 0',ext4:mount='noatime,nodelalloc'\"" },
	{ "device-model", 0, ARG, "M", CLI_RUN | CLI_TRACE, set_device_model, 0,
	  "run on a disk of model M: fsprof serves the image\n"
	  "from user space (FUSE) below the traced loop device\n"
	  "and answers every request at the model's time; on\n"
	  "after mkfs, off before unmount (image targets only):\n"
	  "  none      no model (default)\n"
	  "  hdd       a 7200 rpm SATA disk: seeks by distance\n"
	  "            (1/8.5/20 ms), rotation, 120 MB/s, 32 MiB\n"
	  "            volatile write cache drained by flushes\n"
	  "  hdd-15k   a 15k rpm SCSI disk (0.2/3.1/6.5 ms,\n"
	  "            150 MB/s, write-through)\n"
	  "  ssd-sata  50000 IOPS and 500 MB/s\n"
	  "  custom:riops=N,wiops=N,rbps=N,wbps=N\n"
	  "            (bps take units: 120M; unset = no limit)\n"
	  "with --raid/--dm every member is a disk of the model\n"
	  "of its own (docs/workloads.md: the constants, and\n"
	  "build/bench/model_calibrate measuring them back)" },
	{ "repeat", 0, ARG, "N", CLI_RUN, set_repeat, 0,
	  "run every case N times, fresh mkfs each time, and\n"
	  "report mean, stddev and 95% confidence interval" },
	{ "size", 0, ARG, "SIZE", CLI_RUN, set_run_size, RUN_FIELD(size),
	  "the size= parameter (the data size) of every workload\n"
	  "that has one (seqio, bonnie), e.g. 4k, 256M, 4G\n"
	  "(binary units; kB/MB/GB are powers of 1000)" },
	{ "image-size", 0, ARG, "SIZE", CLI_RUN | CLI_TRACE, set_run_size,
	  RUN_FIELD(image_size),
	  "size of the image file (default: derived; trace:\n"
	  "4G, sparse)" },
	{ "dir", 0, ARG, "PATH", CLI_RECORD, set_run_string, RUN_FIELD(dir),
	  "the mounted filesystem to record, traced by its\n"
	  "device (without a block device, e.g. tmpfs, only\n"
	  "user-side metrics)" },
	{ "dir", 0, ARG, "PATH", CLI_RUN | CLI_TRACE, set_run_string,
	  RUN_FIELD(dir),
	  "run on the filesystem already mounted at PATH, in\n"
	  "a new subdirectory fsprof removes afterwards (no\n"
	  "mkfs; traced by its device; without a block\n"
	  "device, e.g. tmpfs, only user-side metrics)" },
	{ "device", 0, ARG, "DEV", CLI_TRACE, set_run_string, RUN_FIELD(device),
	  "make the --fs filesystem on block device DEV; it\n"
	  "must not be mounted or hold root, and one holding\n"
	  "a filesystem, partition table or md superblock is\n"
	  "refused unless --force is given" },
	{ "device", 0, ARG, "DEV[,DEV]...", CLI_RUN, set_run_string,
	  RUN_FIELD(device),
	  "make the --fs filesystems on block device DEV; it\n"
	  "must not be mounted or hold root, and one holding\n"
	  "a filesystem, partition table or md superblock is\n"
	  "refused unless --force is given. With --raid\n"
	  "LEVEL:N, the N devices, each checked so, are the\n"
	  "array's members; with --dm linear, the one DEV is\n"
	  "under dm-linear" },
	{ "raid", 0, ARG, "LEVEL:N", CLI_RUN, set_raid, 0,
	  "make each target an md RAID array (mdadm) of N loop\n"
	  "members (--device: of the N devices given), LEVEL\n"
	  "0 or 1 (e.g. 0:2), and trace its members' block IO,\n"
	  "counted per member; torn down on exit (--device:\n"
	  "the members' md superblocks zeroed). A kernel\n"
	  "without md (or the level's personality) is refused\n"
	  "first (exit 2)" },
	{ "dm", 0, ARG, "linear", CLI_RUN, set_dm, 0,
	  "put a dm-linear device (dmsetup) under each\n"
	  "target's filesystem, on the --raid array when given\n"
	  "(dm on md), else on its loop or --device DEV, and\n"
	  "trace the disks below it; a kernel without\n"
	  "device-mapper is refused first (exit 2)" },
	{ "force", 0, NONE, NULL, CLI_RUN | CLI_TRACE, set_run_flag,
	  RUN_FIELD(force),
	  "format --device DEV even if it holds a filesystem,\n"
	  "a partition table or an md superblock" },
	{ "scratch", 0, ARG, "DIR",
	  CLI_RUN | CLI_TRACE | CLI_CLEANUP | CLI_BISECT, set_scratch, 0,
	  "where the image lives (default " SCRATCH_DEFAULT ")" },
	{ "scratch", 0, ARG, "DIR", CLI_CHECK, set_scratch, 0,
	  "the scratch directory whose room and direct IO to\n"
	  "check (default " SCRATCH_DEFAULT ")" },
	{ "scratch", 0, ARG, "DIR", CLI_RECORD, set_scratch, 0,
	  "where the run's state file lives, for fsprof\n"
	  "cleanup (default " SCRATCH_DEFAULT ")" },
	{ "kernel", 0, ARG, "LIST", CLI_RUN, set_run_string, RUN_FIELD(kernels),
	  "run everything in a QEMU guest of each kernel, one\n"
	  "boot each, and report the cases of all: KVM when\n"
	  "the CPU has vmx/svm, else TCG (times emulated).\n"
	  "LIST of: running (this machine's kernel), a Debian\n"
	  "version or package (6.1, 6.12, linux-image-...:\n"
	  "fetched with apt into a cache, never installed),\n"
	  "or a path to a bzImage or vmlinux. A kernel without\n"
	  "BTF or a filesystem of --fs is refused before any\n"
	  "boot (exit 2). fsprof diff RUN --by kernel" },
	{ "kernel-modules", 0, ARG, "DIR", CLI_RUN | CLI_BISECT, set_run_string,
	  RUN_FIELD(kernel_modules),
	  "the modules of a --kernel path (a lib/modules/REL\n"
	  "or a build tree) when ext4, xfs or btrfs are modules" },
	{ "kernel-cmdline", 0, ARG, "STR", CLI_RUN | CLI_BISECT, set_run_string,
	  RUN_FIELD(kernel_cmdline), "boot parameters added for every guest" },
	{ "kernel-timeout", 0, ARG, "D", CLI_RUN | CLI_BISECT,
	  set_kernel_timeout, 0,
	  "a guest still running after D is killed, its\n"
	  "console's end in the error (default 30min)" },
	{ "case-gate", 0, ARG, "PATH", CLI_RUN, set_run_string,
	  RUN_FIELD(case_gate),
	  "internal, for the guests of --kernel: wait before\n"
	  "each case for the host's go on PATH (a serial port)" },
	{ "verify", 0, optional_argument, "N", CLI_RUN, set_verify, 0,
	  "re-run each case whose findings advise a mount or\n"
	  "mkfs option, as it was and with the option,\n"
	  "interleaved, until the speed-up's interval decides\n"
	  "whether the advice made the phase faster, at most\n"
	  "N rounds (default the larger of --repeat and 10)" },
	{ "interval", 0, ARG, "D", CLI_TRACE | CLI_RECORD, set_interval, 0,
	  "cut the command or the recording into time phases\n"
	  "of D (100ms to 24h)" },
	{ "duration", 0, ARG, "D", CLI_RECORD, set_duration, 0,
	  "record for D (100ms to 24h); default: until SIGINT" },
	{ "json", 0, ARG, "FILE", CLI_TRACING, set_run_string,
	  RUN_FIELD(json_path), "also write the results as JSON to FILE" },
	{ "json", 0, ARG, "FILE", CLI_BISECT, set_run_string,
	  RUN_FIELD(json_path), "write the new run's results as JSON to FILE" },
	{ "openmetrics", 0, ARG, "FILE", CLI_TRACING, set_run_string,
	  RUN_FIELD(openmetrics_path),
	  "also write per-phase metrics, time budget and\n"
	  "findings in OpenMetrics text (node_exporter\n"
	  "textfile collector), atomically" },
	{ "csv", 0, ARG, "FILE", CLI_TRACING, set_run_string,
	  RUN_FIELD(csv_path), "... as CSV: a row per case, phase and metric" },
	{ "html", 0, ARG, "FILE", CLI_TRACING, set_run_string,
	  RUN_FIELD(html_path),
	  "... as one self-contained HTML page with charts" },
	{ "trace", 0, ARG, "FILE.json.gz", CLI_TRACING, set_run_string,
	  RUN_FIELD(trace_path),
	  "... as a Chrome trace-event file, gzipped\n"
	  "(Perfetto: phases, commits, log forces, IO)" },
	{ "db", 0, ARG, "PATH",
	  CLI_TRACING | CLI_REPORT | CLI_DIFF | CLI_RUNS | CLI_BISECT,
	  set_string, VALUE(db),
	  "the run history: where a run is recorded, and\n"
	  "report, diff, runs and bisect-step --good read\n"
	  "(default $FSPROF_DB, else " HISTORY_DEFAULT_PATH ");\n"
	  "bisect-step's own run is not recorded" },
	{ "no-db", 0, NONE, NULL, CLI_TRACING, set_run_flag, RUN_FIELD(no_db),
	  "do not record the run" },
	{ "label", 0, ARG, "L", CLI_TRACING, set_run_label, 0,
	  "record it under label L (fsprof report label:L)" },
	{ "format", 0, ARG, "F", CLI_RUN, set_run_format, 0,
	  "the report on stdout as F: text (default), json,\n"
	  "csv, html, openmetrics, trace (gzip: not to a\n"
	  "terminal), or bonnie-csv: one bonnie++ CSV line\n"
	  "(format 1.98) per bonnie case" },
	{ "format", 0, ARG, "F", CLI_TRACE | CLI_RECORD, set_live_format, 0,
	  "the report on stdout as F: text (default), json,\n"
	  "csv, html, openmetrics, trace (gzip: not to a\n"
	  "terminal)" },
	{ "no-trace", 0, NONE, NULL, CLI_RUN | CLI_TRACE, set_run_flag,
	  RUN_FIELD(no_trace), "run the workload without kernel tracing" },
	{ "warm", 0, NONE, NULL, CLI_RUN, set_run_flag, RUN_FIELD(warm),
	  "read phases read what the page cache holds: no\n"
	  "cache drop before them (a warm re-read), and no\n"
	  "phase runs cold but those --cold names" },
	{ "cold", 0, ARG, "PHASE[,PHASE]", CLI_RUN, set_run_string,
	  RUN_FIELD(cold),
	  "run exactly these phases cold: the target is\n"
	  "unmounted and mounted again before each, untimed\n"
	  "(its own caches emptied, the device model kept);\n"
	  "none: no phase. Default: each workload's, as its\n"
	  "original ran (files1m's remove)" },
	{ "age", 0, ARG, "fill=PCT[,...]", CLI_RUN | CLI_TRACE, set_age, 0,
	  "age the filesystem first, untimed and untraced:\n"
	  "fill it to PCT (1-95) with a seeded mix of file\n"
	  "sizes, then delete a pattern of them so its free\n"
	  "space is fragmented; the free-extent histogram\n"
	  "after it is recorded. Also pattern=every-other|\n"
	  "random|none, delete=PCT (random), sizes=small|\n"
	  "mixed|large, seed=N" },
	{ "probes", 0, ARG, "SET", CLI_TRACING, set_probes, 0,
	  "default, or deep: also the per-file hot events\n"
	  "(ext4_mark_inode_dirty, es_lookup, jbd2 handles);\n"
	  "costs ~100 ns per hit on metadata workloads" },
	{ "bin", 0, ARG, "DURATION", CLI_TRACING, set_bin, 0,
	  "width of the per-phase timeline's bins (default\n"
	  "100ms; 1ms to 1h; a phase has at most 36000\n"
	  "bins, the last one takes the rest)" },
	{ "slow-io", 0, ARG, "DURATION", CLI_TRACING, set_slow_io, 0,
	  "a block request slower than this (issue ->\n"
	  "complete) is recorded as an event (default 50ms;\n"
	  "at most 10min)" },
	{ "verbose", 'v', NONE, NULL, CLI_TRACING | CLI_REPORT | CLI_BISECT,
	  set_verbose, 0,
	  "say more (libbpf and setup details; report: every\n"
	  "metric and histogram as well)" },
	{ "quiet", 'q', NONE, NULL, CLI_TRACING | CLI_REPORT | CLI_BISECT,
	  set_quiet, 0,
	  "only errors and the report's summary (at most 15\n"
	  "lines): no progress, no details" },

	/* report */
	{ "format", 'f', ARG, "F", CLI_REPORT, set_report_format, 0,
	  "output format (default text; the usage lists them)" },
	{ "reanalyze", 0, NONE, NULL, CLI_REPORT, set_flag, VALUE(reanalyze),
	  "re-run this fsprof's rules on the saved numbers\n"
	  "(after a rule changed) instead of showing the saved\n"
	  "findings; each finding's --verify result is kept\n"
	  "from the file, and the report says which fsprof\n"
	  "re-ran them" },
	{ "bundle", 0, ARG, "DIR", CLI_REPORT, set_string, VALUE(bundle),
	  "instead of the report, write a reproduction bundle\n"
	  "into DIR (made when missing): README, results.json,\n"
	  "the command line and version, each kernel's config\n"
	  "(kernels/), every target's mkfs and mount lines\n"
	  "(targets) and rerun.sh, which runs the same cases\n"
	  "on the same kernels and diffs them with these. A DIR\n"
	  "that is not empty is refused (exit 2)" },
	{ "force", 0, NONE, NULL, CLI_REPORT, set_flag, VALUE(force),
	  "--bundle into a DIR that is not empty: its files of\n"
	  "the bundle's names are replaced, others left alone" },

	/* diff */
	{ "metric", 'm', ARG, "GLOB", CLI_DIFF, set_metric, 0,
	  "only metrics whose name matches (fnmatch)" },
	{ "alpha", 0, ARG, "A", CLI_DIFF, set_alpha, 0,
	  "false discovery rate, 0 < A < 1 (default 0.05)" },
	{ "noise", 0, ARG, "PCT", CLI_DIFF, set_percent,
	  DIFF_FIELD(noise_floor),
	  "one noise floor for every metric: a change within\n"
	  "it is `same` (default: each metric kind's floor,\n"
	  "measured from A/A runs, listed below)" },
	{ "fail-above", 0, ARG, "PCT", CLI_DIFF, set_percent,
	  DIFF_FIELD(fail_above),
	  "exit 1 when a KPI of data/kpi.tsv (wall time,\n"
	  "throughput, fsync and p99 latency) is\n"
	  "significantly worse by more than PCT, naming which" },
	{ "format", 'f', ARG, "F", CLI_DIFF, set_diff_format, 0,
	  "text (default), json, csv, or lkp: lkp-tests'\n"
	  "compare layout (mean ±%stddev %change mean\n"
	  "±%stddev metric, KPIs first) with our verdict\n"
	  "and lkp's own criterion in extra columns" },
	{ "allow-mismatch", 0, NONE, NULL, CLI_DIFF, set_allow_mismatch, 0,
	  "compare although the workload parameters, image\n"
	  "size or device model differ" },
	{ "by", 0, ARG, "kernel", CLI_DIFF, set_diff_by, 0,
	  "with one run of fsprof run --kernel A,B: set its\n"
	  "A cases against its B cases, workload by target" },
	{ "time-verdicts", 0, NONE, NULL, CLI_DIFF, set_time_verdicts, 0,
	  "judge times of emulated (TCG) guests too; by\n"
	  "default only counts and per-operation mechanisms are\n"
	  "judged there, an emulator's speed varies" },
	{ "baseline", 0, ARG, "LABEL", CLI_DIFF, set_baseline, 0,
	  "A is the latest run labelled LABEL (--label)" },
	{ "verbose", 'v', NONE, NULL, CLI_DIFF, set_flag, VALUE(verbose),
	  "text: every metric and distribution; lkp: every\n"
	  "metric, not only KPIs and changes" },

	/* runs */
	{ "label", 0, ARG, "L", CLI_RUNS, set_string, VALUE(filter.label),
	  "only runs labelled L" },
	{ "workload", 'w', ARG, "W", CLI_RUNS, set_string,
	  VALUE(filter.workload), "only runs with a case of workload W" },
	{ "fs", 0, ARG, "F", CLI_RUNS, set_string, VALUE(filter.fs),
	  "only runs with a case on F: an fstype, a target's\n"
	  "name or its --fs text" },
	{ "format", 0, ARG, "F", CLI_RUNS, set_runs_format, 0,
	  "text (default), or json: the same runs as a JSON\n"
	  "array of objects, fields uncut (docs/history.md);\n"
	  "[] when none matches" },

	/* bisect-step */
	{ "good", 0, ARG, "RUN", CLI_BISECT, set_string, VALUE(good),
	  "the good run: a results file, a run id, latest or\n"
	  "label:NAME; its values are the ones to keep, its\n"
	  "command (results \"command\") is run again" },
	{ "metric", 'm', ARG, "[PHASE/]NAME", CLI_BISECT, set_string,
	  VALUE(bisect_metric),
	  "the metric judged, as fsprof diff names it\n"
	  "(create/wall_ns, per_op.ext4.da_extents_per_flush);\n"
	  "PHASE/ when it is in several phases" },
	{ "threshold", 0, ARG, "PCT", CLI_BISECT, set_threshold, 0,
	  "bad: the new mean worse than the good mean by more\n"
	  "than PCT (5%, 0.5%)" },
	{ "case", 0, ARG, "WORKLOAD/TARGET", CLI_BISECT, set_string,
	  VALUE(case_sel),
	  "the case judged, when the good run has several\n"
	  "(its workload, its target's name, or both)" },
	{ "higher-is-better", 0, NONE, NULL, CLI_BISECT, set_flag,
	  VALUE(higher_better),
	  "the metric's good direction, instead of\n"
	  "data/kpi.tsv's (needed where it says none)" },
	{ "lower-is-better", 0, NONE, NULL, CLI_BISECT, set_flag,
	  VALUE(lower_better), "... the other way" },
	{ "kernel", 0, ARG, "KERNEL", CLI_BISECT, set_run_string,
	  RUN_FIELD(kernels),
	  "run the new run in a QEMU guest of KERNEL (a path\n"
	  "to a bzImage or vmlinux, running, or a Debian\n"
	  "version) as fsprof run --kernel does; default: on\n"
	  "this machine's running kernel" },

	/* check, cleanup, list, phase */
	{ "format", 0, ARG, "F", CLI_CHECK, set_check_format, 0,
	  "text (default), or json: the same items as JSON" },
	{ "dry-run", 0, NONE, NULL, CLI_CLEANUP, set_flag, VALUE(dry_run),
	  "only say what would be removed" },
	{ "deep", 0, NONE, NULL, CLI_LIST, set_flag, VALUE(deep),
	  "probes: also the --probes deep set" },
	{ "end", 0, NONE, NULL, CLI_PHASE, set_flag, VALUE(end),
	  "end the current phase and begin none" },

	{ "help", 'h', NONE, NULL, CLI_ALL_CMDS, set_help, 0, "this text" },
};

const struct cli_option *cli_option_table(unsigned int *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
