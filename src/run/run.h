/* SPDX-License-Identifier: GPL-2.0 */
/* The run driver: target up, tracer up, phases, collect, teardown, report. */
#ifndef FSPROF_RUN_H
#define FSPROF_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "target/fsspec.h"
#include "target/throttle.h"
#include "workload/params.h"

#define RUN_MAX_WORKLOADS 16

struct workload_opt {
	char name[32];
	const char *params; /* "key=val,..." after -w NAME: */
};

struct run_options {
	struct workload_opt workloads[RUN_MAX_WORKLOADS];
	unsigned int n_workloads;
	enum scale scale;
	struct fsspec fs[FSSPEC_MAX];
	unsigned int n_fs;
	unsigned int repeat; /* fresh mkfs for each */
	const char *scratch;
	const char *json_path; /* NULL: no JSON file */
	const char *openmetrics_path; /* --openmetrics FILE, or NULL */
	uint64_t interval_ns; /* trace, record: --interval time phases; 0: none */
	uint64_t duration_ns; /* record: --duration; 0: until SIGINT */
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
	bool probes_deep; /* --probes deep */
	uint64_t bin_ns; /* --bin: timeline bin width; 0: the default */
	uint64_t slow_io_ns; /* --slow-io; 0: the default */
	struct device_model model;
	const char *dir; /* --dir: an existing filesystem, no mkfs */
	const char *device; /* --device: a real block device to format */
	bool force; /* --force: format it even if it holds a signature */
	bool verify; /* --verify: re-run with each finding's knob applied */
	unsigned int verify_repeats; /* --verify=N; 0: --repeat, else 3 */
	const char *db_path; /* --db; NULL: history_default_path() */
	bool no_db; /* --no-db: the run is not recorded */
	const char *label; /* --label: the run's label in the history */
};

/* Exit codes, documented in --help and the README. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_ENVIRONMENT = 3,
	/* interrupted by signal N: 128 + N, as shells report it */
};

/*
 * Load and attach every domain (all filesystems, no device), print the
 * attach report and detach again; returns the process exit code.
 */
int run_list_probes(bool deep);

/* Run the plan; returns the process exit code. */
int run_command(const struct run_options *opt);

struct run_result;

/* what every driver (run, trace, record) refuses before creating anything:
 * privileges, BTF, output paths, the device model; an exit code */
int run_preflight_env(const struct run_options *opt);

/* a file named by option cannot be written at the end: an error, -errno */
int run_output_path_check(const char *option, const char *path);

/* the run's identity (version, kernel, start time) / fsprof's peak RSS */
void run_result_start(struct run_result *r);
void run_result_record_rss(struct run_result *r);

/*
 * The outputs of an analysed run: text (or bonnie CSV), --json,
 * --openmetrics; returns code, or EXIT_RUN_FAILED when a file could not be
 * written.
 */
int run_report_results(const struct run_options *opt,
		       const struct run_result *r, int code);

/* the image size used for a workload needing need bytes at its peak */
uint64_t run_image_size(uint64_t need);

#endif
