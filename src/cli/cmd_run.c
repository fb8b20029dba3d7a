// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof run: its usage (fsprof's own), and the parse run, trace and
 * record share: their options from the option table, then what only the
 * whole command line shows (options that exclude each other, the defaults
 * that depend on what was given).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_usage.h"
#include "cli/cmd_run.h"
#include "cli/run_options.h"
#include "cli/suite_targets.h"
#include "run/phase_cache.h"
#include "target/scratch.h"
#include "target/stack_spec.h"

/* fsprof --help: what each command is for; each has its own --help */
void cli_usage(FILE *out)
{
	fputs("usage: fsprof <command> [options]\n"
	      "\n"
	      "Runs a workload in named phases on a filesystem it sets up, traces the\n"
	      "kernel with eBPF while each phase runs, and reports where the time went.\n"
	      "\n"
	      "commands:\n"
	      "  run          run workloads on fresh filesystems and report them\n"
	      "  trace        run and profile any command, in the phases it marks\n"
	      "  record       trace a live filesystem, every process its workload\n"
	      "  phase        mark a phase from a script under fsprof trace\n"
	      "  report       print a saved or recorded run again, in any format\n"
	      "  diff         compare two runs, phase by phase and metric by metric\n"
	      "  runs         list the recorded runs\n"
	      "  bisect-step  one step of git bisect run: good, bad or skip\n"
	      "  check        say whether this machine can run fsprof, and what is missing\n"
	      "  list         list the workloads, or the probes on this kernel\n"
	      "  cleanup      remove what killed runs left behind\n"
	      "  help         this text\n"
	      "  version      print the version\n"
	      "\n"
	      "fsprof <command> --help: its options. The man page: man fsprof.\n"
	      "\n"
	      "output: the report on stdout, as text or --format FMT; files with\n"
	      "--json/--csv/--html/--trace/--openmetrics FILE (run, trace, record)\n"
	      "\n"
	      "exit codes: 0 ok; 1 the run failed; 2 usage error; 3 this environment\n"
	      "cannot run fsprof (privileges, BTF, tools); 128+N interrupted by signal N.\n",
	      out);
}

/* fsprof run --help */
static void run_usage(FILE *out)
{
	fputs("usage: fsprof run [options]\n"
	      "\n"
	      "Makes each --fs filesystem fresh, runs each -w workload on it in its\n"
	      "phases, traces the kernel while they run, and reports where the time\n"
	      "went: a summary first (-q: it alone), then every phase's verdict,\n"
	      "findings and tables.\n"
	      "\n",
	      out);
	cli_options_print(CLI_RUN, out);
	fputs("\n"
	      "exit codes: 0 ok; 1 the run failed; 2 usage error; 3 this environment\n"
	      "cannot run fsprof (privileges, BTF, tools); 128+N interrupted by signal N\n"
	      "(130 for SIGINT, 143 for SIGTERM, 141 for SIGPIPE: the output's reader\n"
	      "gone), after tearing everything down.\n",
	      out);
}

static bool run_has_workload(const struct run_options *opt, const char *name)
{
	unsigned int i;

	for (i = 0; i < opt->n_workloads; i++)
		if (!strcmp(opt->workloads[i].name, name))
			return true;
	return false;
}

/* --raid, --dm, or a target's raid=, dm= */
static bool run_has_stack(const struct run_options *opt)
{
	unsigned int i;

	for (i = 0; i < opt->n_fs; i++)
		if (stack_spec_active(&opt->fs[i].stack))
			return true;
	return stack_spec_active(&opt->stack);
}

/*
 * --device DEV[,DEV]...: as many devices as every target's stack needs (N
 * for --raid LEVEL:N, else one); no device model (the model is a disk
 * served under the traced loop device, and nothing can be put under a
 * device). Said before anything is opened.
 */
static int run_devices_conflict(const char *cmd, const struct run_options *opt)
{
	char devs[STACK_SPEC_MAX_MEMBERS][PATH_MAX], why[PATH_MAX + 128];
	const struct device_model *m;
	const struct stack_spec *s;
	unsigned int i, n_fs = opt->n_fs ? opt->n_fs : 1;
	int n = stack_devices_parse(opt->device, devs[0], PATH_MAX,
				    STACK_SPEC_MAX_MEMBERS, why, sizeof(why));

	if (n < 0)
		return cmd_usage_error(cmd, "%s", why);
	if (n > 1 && !strcmp(cmd, "trace"))
		return cmd_usage_error(
			cmd,
			"--device %s: %d devices given: fsprof trace takes one (an array of several is made by fsprof run --raid LEVEL:N)",
			opt->device, n);
	for (i = 0; i < n_fs; i++) {
		s = opt->n_fs ? fsspec_stack(&opt->fs[i], &opt->stack) :
				&opt->stack;
		m = opt->n_fs ? fsspec_model(&opt->fs[i], &opt->model) :
				&opt->model;
		if ((unsigned int)n != stack_spec_devices(s))
			return cmd_usage_error(
				cmd,
				s->raid_members ?
					"--device %s: %d device(s) given, but --raid %s makes an array of %u: give one device per member" :
					"--device %s: %d devices given: several devices are an array's members, with --raid LEVEL:N",
				opt->device, n, s->raid_text, s->raid_members);
		if (device_model_active(m))
			return cmd_usage_error(
				cmd,
				"--device-model with --device: the model is a disk fsprof serves under the traced loop device, and nothing can be put under a device; use an image target (no --device) for a device model");
	}
	return 0;
}

/* the options that exclude each other; 0 or EXIT_USAGE */
static int run_options_conflict(const char *cmd, const struct run_options *opt)
{
	if (opt->format && !strcmp(opt->format, "bonnie-csv") &&
	    !run_has_workload(opt, "bonnie"))
		return cmd_usage_error(cmd,
				       "--format bonnie-csv needs -w bonnie");
	if (opt->dir && opt->device)
		return cmd_usage_error(cmd,
				       "--dir and --device exclude each other");
	if (opt->label && opt->no_db)
		return cmd_usage_error(
			cmd,
			"--label names the run in the run history: not with --no-db");
	if (opt->kernels && (opt->dir || opt->device || opt->verify))
		return cmd_usage_error(
			cmd,
			"--kernel runs in guests on their own virtio disks: not with --dir, --device or --verify");
	if (!opt->kernels && (opt->kernel_modules || opt->kernel_cmdline ||
			      opt->kernel_timeout_ns))
		return cmd_usage_error(
			cmd,
			"--kernel-modules, --kernel-cmdline and --kernel-timeout apply to the guests of --kernel LIST");
	if (opt->cold && opt->dir && strcmp(opt->cold, PHASE_COLD_NONE))
		return cmd_usage_error(
			cmd,
			"--cold mounts the target again, and a --dir filesystem is not fsprof's to unmount: use an image or --device target");
	if (opt->age.on && opt->dir)
		return cmd_usage_error(
			cmd,
			"--age fills the filesystem and deletes files on it, and a --dir filesystem is not fsprof's to fill: use an image or --device target");
	if (run_has_stack(opt) && opt->dir)
		return cmd_usage_error(
			cmd,
			"--raid and --dm build their stack on loop devices or on --device's devices: not with --dir, whose filesystem is already there");
	if (opt->device)
		return run_devices_conflict(cmd, opt);
	if (opt->dir && opt->n_fs)
		return cmd_usage_error(
			cmd,
			"--dir runs on the filesystem that is already there: --fs does not apply");
	return 0;
}

/* what nothing given means: seqio for run, ext4, or --dir's one target */
static void run_options_defaults(struct run_options *opt, enum cli_cmd mode)
{
	char err[256];

	if (!opt->n_workloads && mode == CLI_RUN) {
		snprintf(opt->workloads[0].name, sizeof(opt->workloads[0].name),
			 "seqio");
		opt->n_workloads = 1;
	}
	if (opt->dir) {
		/* one target: the label says where */
		snprintf(opt->fs[0].label, sizeof(opt->fs[0].label), "dir:%s",
			 opt->dir);
		snprintf(opt->fs[0].name, sizeof(opt->fs[0].name), "dir");
		opt->n_fs = 1;
	}
	if (!opt->n_fs)
		opt->n_fs = (unsigned int)fsspec_parse(
			"ext4", opt->fs, FSSPEC_MAX, err, sizeof(err));
}

int cli_parse_options(const struct cli_command *cmd, int argc, char **argv,
		      struct run_options *opt)
{
	struct cli_values v = { .run = opt };
	enum cli_cmd mode = cmd->id;
	char why[512];
	int first, err;

	memset(opt, 0, sizeof(*opt));
	snprintf(opt->model.name, sizeof(opt->model.name), "none");
	opt->repeat = 1;
	opt->argv = argv;
	opt->argc = argc;
	err = cli_options_parse(cmd, argc, argv, &v, &first);
	if (err)
		return err;
	opt->scratch = v.scratch ? v.scratch : SCRATCH_DEFAULT;
	opt->db_path = v.db;
	if (mode == CLI_TRACE) {
		opt->command = argv + first;
		opt->n_command = argc - first;
	}
	err = run_options_conflict(v.cmd, opt);
	if (err)
		return err;
	/* the suite without --fs: each experiment on its original's targets */
	if (opt->suite[0] && !opt->n_fs && !opt->dir &&
	    suite_targets_plan(opt, why, sizeof(why)))
		return cmd_usage_error(v.cmd, "data/classic.tsv (built in): %s",
				       why);
	run_options_defaults(opt, mode);
	if (phase_cold_check(opt, why, sizeof(why)))
		return cmd_usage_error(v.cmd, "%s", why);
	return 0;
}

int cli_parse_run(int argc, char **argv, struct run_options *opt)
{
	static const struct cli_command run = { .id = CLI_RUN,
						.usage = run_usage,
						.no_operands = true,
						.parsed = run_guest_arg_add };

	return cli_parse_options(&run, argc, argv, opt);
}
