/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The setters of run's options (trace and record take most of them), for
 * the option table's rows: each stores its argument in v->run or returns
 * EXIT_USAGE, said.
 */
#ifndef FSPROF_CLI_RUN_OPTIONS_H
#define FSPROF_CLI_RUN_OPTIONS_H

#include "cli/options.h"

/* the const char * / bool / uint64_t size at run_options + o->field */
int set_run_string(struct cli_values *v, const struct cli_option *o,
		   const char *arg);
int set_run_flag(struct cli_values *v, const struct cli_option *o,
		 const char *arg);
int set_run_size(struct cli_values *v, const struct cli_option *o,
		 const char *arg);

int set_workload(struct cli_values *v, const struct cli_option *o,
		 const char *arg);
int set_suite(struct cli_values *v, const struct cli_option *o,
	      const char *arg);
/* --age fill=PCT,...: workload/age_spec.h */
int set_age(struct cli_values *v, const struct cli_option *o, const char *arg);
int set_scale(struct cli_values *v, const struct cli_option *o,
	      const char *arg);
int set_fs(struct cli_values *v, const struct cli_option *o, const char *arg);
int set_device_model(struct cli_values *v, const struct cli_option *o,
		     const char *arg);
/* --raid LEVEL:N, --dm linear: target/stack_spec.h */
int set_raid(struct cli_values *v, const struct cli_option *o,
	     const char *arg);
int set_dm(struct cli_values *v, const struct cli_option *o, const char *arg);
int set_repeat(struct cli_values *v, const struct cli_option *o,
	       const char *arg);
int set_verify(struct cli_values *v, const struct cli_option *o,
	       const char *arg);
int set_probes(struct cli_values *v, const struct cli_option *o,
	       const char *arg);
/* run: text or bonnie-csv; trace, record: text */
int set_run_format(struct cli_values *v, const struct cli_option *o,
		   const char *arg);
int set_live_format(struct cli_values *v, const struct cli_option *o,
		    const char *arg);
int set_run_label(struct cli_values *v, const struct cli_option *o,
		  const char *arg);
int set_bin(struct cli_values *v, const struct cli_option *o, const char *arg);
int set_slow_io(struct cli_values *v, const struct cli_option *o,
		const char *arg);
int set_interval(struct cli_values *v, const struct cli_option *o,
		 const char *arg);
int set_duration(struct cli_values *v, const struct cli_option *o,
		 const char *arg);

int set_kernel_timeout(struct cli_values *v, const struct cli_option *o,
		       const char *arg);

/* a parsed option kept, as given, in v->run->guest_args (a parse's
 * "parsed" hook); 0 or EXIT_USAGE */
int cli_option_keep(struct cli_values *v, const struct cli_option *o,
		    const char *arg);

/* a parsed option of run, kept for the guests' runs unless it is one
 * only the host reads; 0 or EXIT_USAGE */
int run_guest_arg_add(struct cli_values *v, const struct cli_option *o,
		      const char *arg);

#endif
