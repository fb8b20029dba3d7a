/* SPDX-License-Identifier: GPL-2.0 */
/* What a run is asked to do (the parsed options), and fsprof's exit codes. */
#ifndef FSPROF_RUN_OPTIONS_H
#define FSPROF_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "target/fsspec.h"
#include "target/stack_spec.h"
#include "model/preset.h"
#include "vm/guest.h"
#include "workload/age_spec.h"
#include "workload/params.h"

#define RUN_MAX_WORKLOADS 16

struct workload_opt {
	char name[32];
	const char *params; /* "key=val,..." after -w NAME: */
	bool from_suite; /* added by --suite, no -w has set its params */
	/* the targets of run_options.fs it runs on, bit t for fs[t]; 0:
	 * every one (--suite classic without --fs sets it: suite_targets.h) */
	uint32_t fs_mask;
};

/* w runs on target t of its run's --fs */
static inline bool workload_on_target(const struct workload_opt *w,
				      unsigned int t)
{
	return !w->fs_mask || (w->fs_mask >> t & 1);
}

struct run_options {
	struct workload_opt workloads[RUN_MAX_WORKLOADS];
	unsigned int n_workloads;
	enum scale scale;
	char suite[16]; /* --suite: "classic", or "" */
	struct fsspec fs[FSSPEC_MAX];
	unsigned int n_fs;
	unsigned int repeat; /* fresh mkfs for each */
	const char *scratch;
	const char *json_path; /* NULL: no JSON file */
	const char *openmetrics_path; /* --openmetrics FILE, or NULL */
	uint64_t interval_ns; /* trace, record: --interval time phases; 0: none */
	uint64_t duration_ns; /* record: --duration; 0: until SIGINT */
	/* the command line from the subcommand's name on, as given: recorded
	 * in the results ("command") */
	char **argv;
	int argc;
	char **command; /* trace: CMD ARGS..., NULL-terminated */
	int n_command;
	const char *csv_path; /* --csv, --html, --trace FILE.json.gz */
	const char *html_path;
	const char *trace_path;
	const char *format; /* --format: NULL or "text", or "bonnie-csv" */
	uint64_t size; /* 0: the workload's default; else its size= */
	uint64_t image_size; /* 0: derived from the workload */
	bool no_trace;
	bool warm; /* --warm: read phases do not drop caches first */
	/* --cold LIST: the phases run cold (or "none"); NULL: the defaults */
	const char *cold;
	/* --age: fill and fragment the filesystem before the first phase */
	struct age_spec age;
	bool probes_deep; /* --probes deep */
	uint64_t bin_ns; /* --bin: timeline bin width; 0: the default */
	uint64_t slow_io_ns; /* --slow-io; 0: the default */
	struct device_model model;
	const char *dir; /* --dir: an existing filesystem, no mkfs */
	const char *device; /* --device: a real block device to format */
	bool force; /* --force: format it even if it holds a signature */
	struct stack_spec stack; /* --raid, --dm: md / dm under the fs */
	bool verify; /* --verify: re-run with each finding's knob applied */
	/* --verify=N: the most rounds; 0: the larger of --repeat and 10 */
	unsigned int verify_repeats;
	const char *db_path; /* --db; NULL: history_default_path() */
	bool no_db; /* --no-db: the run is not recorded */
	const char *label; /* --label: the run's label in the history */
	const char *kernels; /* --kernel LIST: run in guests of these */
	const char *kernel_modules; /* --kernel-modules DIR */
	const char *kernel_cmdline; /* --kernel-cmdline STR */
	uint64_t kernel_timeout_ns; /* --kernel-timeout; 0: the default */
	const char *case_gate; /* --case-gate PATH: a guest's run (case_gate.h) */
	/* the options a guest's fsprof run gets: all but the host's own */
	struct guest_arg guest_args[GUEST_MAX_ARGS];
	unsigned int n_guest_args;
};

/* Exit codes, documented in --help and the README. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_ENVIRONMENT = 3,
	/* interrupted by signal N: 128 + N, as shells report it */
};

#endif
