// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "check/privileges.h"
#include "fsprof/phase.h"
#include "report/bonnie.h"
#include "report/attach.h"
#include "report/text.h"
#include "report/outfile.h"
#include "results/json.h"
#include "run/case_gate.h"
#include "report/render.h"
#include "run/case_run.h"
#include "run/phase.h"
#include "run/run.h"
#include "run/run_history.h"
#include "run/signals.h"
#include "run/verify.h"
#include "target/devinfo.h"
#include "target/leftovers.h"
#include "target/scratch.h"
#include "target/stack_features.h"
#include "target/sysctl.h"
#include "target/target.h"
#include "trace/log_region.h"
#include "trace/tracer.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/progress.h"
#include "version.h"
#include "workload/workload.h"

void run_result_start(struct run_result *r, const struct run_options *opt)
{
	struct utsname u;

	if (run_result_set_command(r, opt->argc, opt->argv))
		log_warn(
			"out of memory: the run's command line is not recorded");
	snprintf(r->tool_version, sizeof(r->tool_version), "%s",
		 FSPROF_VERSION);
	if (!uname(&u))
		snprintf(r->kernel_release, sizeof(r->kernel_release), "%s",
			 u.release);
	r->started_real_ns = clock_real_ns();
}

void run_result_record_rss(struct run_result *r)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_SELF, &ru))
		r->max_rss_kib = (uint64_t)ru.ru_maxrss;
}

/* a results file we could not write at the end would waste the run */
int run_output_paths_check(const struct run_options *opt)
{
	return (opt->json_path && outfile_check("json", opt->json_path)) ||
	       (opt->csv_path && outfile_check("csv", opt->csv_path)) ||
	       (opt->html_path && outfile_check("html", opt->html_path)) ||
	       (opt->trace_path && outfile_check("trace", opt->trace_path)) ||
	       (opt->openmetrics_path &&
		outfile_check("openmetrics", opt->openmetrics_path));
}

int run_stopped_early(void)
{
	int sig = signals_pending();

	log_error("interrupted by %s before anything was set up",
		  strsignal(sig));
	return 128 + sig;
}

/*
 * A device model some target has (--device-model, or a target's model=),
 * the first; NULL when none: what the engine's checks need
 */
static const struct device_model *run_model_any(const struct run_options *opt)
{
	const struct device_model *m;
	unsigned int i;

	for (i = 0; i < opt->n_fs; i++) {
		m = fsspec_model(&opt->fs[i], &opt->model);
		if (device_model_active(m))
			return m;
	}
	return device_model_active(&opt->model) ? &opt->model : NULL;
}

int run_preflight_env(const struct run_options *opt)
{
	char why[256];

	if (!privileges_ok(why, sizeof(why))) {
		log_error("cannot trace the kernel: %s", why);
		return EXIT_ENVIRONMENT;
	}
	if (!opt->no_trace && access("/sys/kernel/btf/vmlinux", R_OK)) {
		log_error(
			"kernel has no BTF at /sys/kernel/btf/vmlinux: fsprof needs a kernel built with CONFIG_DEBUG_INFO_BTF (or run with --no-trace)");
		return EXIT_ENVIRONMENT;
	}
	if (run_output_paths_check(opt))
		return EXIT_USAGE;
	if (run_model_any(opt) && model_daemon_available(why, sizeof(why))) {
		log_error("--device-model %s: %s", run_model_any(opt)->name,
			  why);
		return EXIT_ENVIRONMENT;
	}
	return EXIT_OK;
}

void run_needs(const struct run_options *opt,
	       const struct workload_params *params, uint64_t *image_size,
	       uint64_t *space, uint64_t *files)
{
	unsigned int i;

	*image_size = *space = *files = 0;
	/* one image exists at a time: the largest must fit */
	for (i = 0; i < opt->n_workloads; i++) {
		const struct workload_def *wl =
			workload_find(opt->workloads[i].name);
		uint64_t bytes = wl->space_needed(&params[i]);
		uint64_t n = workload_files_needed(wl, &params[i]);
		uint64_t size = opt->image_size ?
					opt->image_size :
					run_image_size(workload_image_need(
						wl, &params[i]));

		if (size > *image_size)
			*image_size = size;
		if (bytes > *space)
			*space = bytes;
		if (n > *files)
			*files = n;
	}
}

/* a kernel that cannot build a stack is a usage error, said first */
int run_stacks_check(const struct run_options *opt)
{
	const struct stack_spec *s;
	char why[512];
	unsigned int i;

	for (i = 0; i < opt->n_fs; i++) {
		s = fsspec_stack(&opt->fs[i], &opt->stack);
		if (!stack_spec_active(s))
			continue;
		if (stack_features_check(s, why, sizeof(why))) {
			log_error("%s", why);
			return EXIT_USAGE;
		}
		if (stack_tools_check(s, why, sizeof(why))) {
			log_error("%s", why);
			return EXIT_ENVIRONMENT;
		}
	}
	return EXIT_OK;
}

/* what can be refused before anything is created */
static int run_preflight(const struct run_options *opt,
			 const struct workload_params *params)
{
	struct target_spec spec = {
		.kind = opt->dir    ? TARGET_DIR :
			opt->device ? TARGET_DEVICE :
				      TARGET_IMAGE,
		.scratch = opt->scratch,
		.dir = opt->dir,
		.device = opt->device,
		.force = opt->force,
		.model = run_model_any(opt),
		/* --device: every target needs as many devices (cmd_run.c) */
		.stack = fsspec_stack(&opt->fs[0], &opt->stack),
	};
	int code = run_stacks_check(opt);

	if (!code)
		code = run_preflight_env(opt);
	if (code)
		return code;
	run_needs(opt, params, &spec.image_size, &spec.space_needed,
		  &spec.files_needed);
	/* a device target still needs the scratch dir for its mount point;
	 * every run keeps its state file there */
	if (spec.kind != TARGET_IMAGE && scratch_check(opt->scratch, 0))
		return EXIT_ENVIRONMENT;
	if (target_preflight(&spec))
		return EXIT_ENVIRONMENT;
	return EXIT_OK;
}

static int run_exit_code(const struct run_ctx *ctx, int err)
{
	if (ctx->stop)
		return 128 + ctx->stop;
	return err ? EXIT_RUN_FAILED : EXIT_OK;
}

int run_report_results(const struct run_options *opt,
		       const struct run_result *r, int code)
{
	unsigned int i, phases = 0;

	for (i = 0; i < r->n_cases; i++)
		phases += r->cases[i].n_phases;
	/* a case whose first phase failed still has its error to report */
	for (i = 0; i < r->n_cases; i++)
		phases += r->cases[i].failed_phase[0] != '\0';
	if (!phases)
		return code;
	if (opt->format && !strcmp(opt->format, "bonnie-csv")) {
		report_bonnie_csv(r, NULL, stdout);
	} else if (opt->format && strcmp(opt->format, "text")) {
		/* json, csv, html, ...: as fsprof report --format renders */
		if (report_render(r, opt->format, stdout))
			code = code ? code : EXIT_RUN_FAILED;
	} else {
		report_text(r, stdout);
		report_bonnie_tables(r, NULL, stdout);
	}
	if ((opt->json_path && results_write_json(r, opt->json_path)) |
	    (opt->csv_path && outfile_write(r, "csv", opt->csv_path)) |
	    (opt->html_path && outfile_write(r, "html", opt->html_path)) |
	    (opt->trace_path && outfile_write(r, "trace", opt->trace_path)) |
	    (opt->openmetrics_path &&
	     outfile_write(r, "openmetrics", opt->openmetrics_path)))
		return code ? code : EXIT_RUN_FAILED;
	return code;
}

/* the next case's place in the run: the host's, through the gate of a
 * guest (--case-gate), else the next; 1: the host said stop */
static int run_plan_order(struct run_ctx *ctx, const struct case_plan *plan,
			  unsigned int *order)
{
	if (ctx->gate <= 0) {
		*order = ctx->result->n_cases + 1;
		return 0;
	}
	return case_gate_wait(ctx->gate, plan, order);
}

/* workloads outer, repeats next, targets inner: targets compared
 * back to back, so slow drift of the machine hits them alike; a workload
 * skips the targets it does not run on (--suite classic without --fs) */
static int run_plan(struct run_ctx *ctx, const struct workload_params *params)
{
	const struct run_options *opt = ctx->opt;
	unsigned int w, r, t, n = 0, total = 0;
	int err, first = 0;
	char what[220];

	for (w = 0; w < opt->n_workloads; w++)
		for (t = 0; t < opt->n_fs; t++)
			total += workload_on_target(&opt->workloads[w], t) *
				 opt->repeat;
	for (w = 0; w < opt->n_workloads; w++) {
		for (r = 1; r <= opt->repeat; r++) {
			for (t = 0; t < opt->n_fs; t++) {
				struct case_plan plan;

				if (ctx->stop)
					return -EINTR;
				if (!workload_on_target(&opt->workloads[w], t))
					continue;
				case_plan_make(opt, &opt->workloads[w],
					       &params[w], &opt->fs[t], r,
					       &plan);
				err = run_plan_order(ctx, &plan, &plan.order);
				if (err)
					return err < 0 ? err : first;
				snprintf(what, sizeof(what), "%s on %s",
					 opt->workloads[w].name,
					 opt->fs[t].name);
				progress_case(++n, total, what);
				err = case_run(ctx, &plan);
				if (err && !first)
					first = err;
			}
		}
	}
	return first;
}

int run_list_probes(bool deep)
{
	struct trace_config cfg = { .deep = deep };
	struct tracer tracer = { .started = false };
	char why[256];
	int code = EXIT_OK;

	if (!privileges_ok(why, sizeof(why))) {
		log_error("cannot load BPF programs: %s", why);
		return EXIT_ENVIRONMENT;
	}
	/* every domain: no filesystem named */
	if (tracer_start(&tracer) || tracer_load(&tracer, &cfg))
		code = EXIT_ENVIRONMENT;
	else
		report_attach_table(tracer.attached, stdout);
	tracer_stop(&tracer);
	return code;
}

int run_local(const struct run_options *opt,
	      const struct workload_params *params)
{
	struct run_ctx *ctx;
	int err, code;

	code = run_preflight(opt, params);
	if (!code && signals_pending())
		code = run_stopped_early();
	if (code)
		return code;
	ctx = calloc(1, sizeof(*ctx));
	if (ctx)
		ctx->result = calloc(1, sizeof(*ctx->result));
	if (!ctx || !ctx->result) {
		log_error("out of memory");
		free(ctx);
		return EXIT_RUN_FAILED;
	}
	ctx->opt = opt;
	run_result_start(ctx->result, opt);
	snprintf(ctx->result->suite, sizeof(ctx->result->suite), "%s",
		 opt->suite);

	err = signals_install(&ctx->stop);
	if (!err)
		err = leftovers_begin(&ctx->state, &ctx->td, opt->scratch);
	if (!err && opt->case_gate) {
		ctx->gate = case_gate_open(opt->case_gate);
		err = ctx->gate < 0 ? ctx->gate : 0;
	}
	if (!err)
		err = run_plan(ctx, params);
	/* a guest's run: the others' cases end before it wraps up */
	if (ctx->gate > 0) {
		case_gate_finish(ctx->gate);
		close(ctx->gate);
	}
	/* findings for the report and the JSON; --verify tests their knobs */
	if (analyze_run(ctx->result))
		log_warn(
			"analysing the results ran out of memory: findings are incomplete");
	if (opt->verify && !ctx->stop)
		verify_findings(ctx, ctx->result, opt, params);
	tracer_stop(&ctx->tracer);
	run_result_record_rss(ctx->result);
	ctx->result->interrupted = ctx->stop != 0;
	ctx->result->signal = ctx->stop;
	if (ctx->stop)
		log_error("interrupted by %s; everything set up was torn down",
			  strsignal(ctx->stop));

	leftovers_end(&ctx->state, &ctx->td, opt->scratch);
	code = run_report_results(opt, ctx->result, run_exit_code(ctx, err));
	run_history_record(opt, ctx->result);
	run_result_free(ctx->result);
	free(ctx->result);
	free(ctx);
	return code;
}
