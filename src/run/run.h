/* SPDX-License-Identifier: GPL-2.0 */
/* The run driver: target up, tracer up, phases, collect, teardown, report. */
#ifndef FSPROF_RUN_H
#define FSPROF_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "run/options.h"

/*
 * Load and attach every domain (all filesystems, no device), print the
 * attach report and detach again; returns the process exit code.
 */
int run_list_probes(bool deep);

struct workload_params;

/*
 * The run on this machine of the planned workloads (params, one per -w);
 * returns the process exit code
 */
int run_local(const struct run_options *opt,
	      const struct workload_params *params);

struct run_result;
struct workload_params;

/* the largest image, data and file count of the run's workloads */
void run_needs(const struct run_options *opt,
	       const struct workload_params *params, uint64_t *image_size,
	       uint64_t *space, uint64_t *files);

/* output files that could not be written at the end: EXIT_USAGE, said */
int run_output_paths_check(const struct run_options *opt);

/* what every driver (run, trace, record) refuses before creating anything:
 * privileges, BTF, output paths, the device model; an exit code */
int run_preflight_env(const struct run_options *opt);

/*
 * The stacks of --raid, --dm and the targets' raid=, dm=: EXIT_USAGE when
 * the kernel cannot build one, EXIT_ENVIRONMENT when a tool is missing
 * (said), else EXIT_OK
 */
int run_stacks_check(const struct run_options *opt);

/*
 * A signal came during the preflight (signals_early): said, and the exit
 * code a signal gives (128 + its number); nothing was set up yet
 */
int run_stopped_early(void);

/* a file named by option cannot be written at the end: an error, -errno */
int run_output_path_check(const char *option, const char *path);

/* the run's identity (version, kernel, start time, opt's command line) /
 * fsprof's peak RSS */
void run_result_start(struct run_result *r, const struct run_options *opt);
void run_result_record_rss(struct run_result *r);

/*
 * The outputs of an analysed run: text (or bonnie CSV), --json,
 * --openmetrics; returns code, or EXIT_RUN_FAILED when a file could not be
 * written.
 */
int run_report_results(const struct run_options *opt,
		       const struct run_result *r, int code);

#endif
