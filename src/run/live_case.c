// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "analyze/analyze.h"
#include "run/case_age.h"
#include "run/live_case.h"
#include "run/run_history.h"
#include "run/signals.h"
#include "target/leftovers.h"
#include "target/scratch.h"
#include "util/log.h"
#include "util/stage.h"

void live_case_spec(const struct run_options *opt, uint64_t image_size,
		    struct target_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->kind = opt->dir	 ? TARGET_DIR :
		     opt->device ? TARGET_DEVICE :
				   TARGET_IMAGE;
	spec->fstype = opt->fs[0].fstype;
	spec->mkfs_opts = opt->fs[0].mkfs_opts;
	spec->mount_opts = opt->fs[0].mount_opts;
	spec->scratch = opt->scratch;
	spec->model = fsspec_model(&opt->fs[0], &opt->model);
	spec->dir = opt->dir;
	spec->device = opt->device;
	spec->force = opt->force;
	spec->stack = fsspec_stack(&opt->fs[0], &opt->stack);
	spec->image_size = opt->image_size ? opt->image_size : image_size;
}

static int live_case_preflight(const struct run_options *opt,
			       const struct target_spec *spec)
{
	int code = run_stacks_check(opt);

	if (!code)
		code = run_preflight_env(opt);
	if (code)
		return code;
	/* the state file, and a device's mount point, live in scratch */
	if (spec->kind != TARGET_IMAGE && scratch_check(opt->scratch, 0))
		return EXIT_ENVIRONMENT;
	return target_preflight(spec) ? EXIT_ENVIRONMENT : EXIT_OK;
}

int live_case_begin(struct live_case *lc, const struct run_options *opt,
		    const struct target_spec *spec, const char *workload)
{
	struct sysinfo si;
	int code, err;

	memset(lc, 0, sizeof(*lc));
	lc->opt = opt;
	if (signals_early())
		log_warn("cannot catch SIGINT before the run: %s",
			 strerror_safe(errno));
	code = live_case_preflight(opt, spec);
	if (!code && signals_pending())
		code = run_stopped_early();
	if (code)
		return code;
	stage_mark("preflight");
	lc->result = calloc(1, sizeof(*lc->result));
	if (!lc->result) {
		log_error("out of memory");
		return EXIT_RUN_FAILED;
	}
	run_result_start(lc->result, opt);
	lc->c = run_result_add_case(lc->result, FSPROF_MAX_PHASES - 1);
	if (!lc->c) {
		log_error("out of memory");
		return EXIT_RUN_FAILED;
	}
	snprintf(lc->c->workload, sizeof(lc->c->workload), "%s", workload);
	snprintf(lc->c->target_label, sizeof(lc->c->target_label), "%s",
		 opt->fs[0].label);
	snprintf(lc->c->target_name, sizeof(lc->c->target_name), "%s",
		 opt->fs[0].name);
	if (!sysinfo(&si))
		lc->c->ram_bytes = (uint64_t)si.totalram * si.mem_unit;
	lc->c->repeat = 1;
	err = signals_install(&lc->stop);
	if (!err)
		err = leftovers_begin(&lc->state, &lc->td, opt->scratch);
	if (err)
		return EXIT_RUN_FAILED;
	lc->target_up = true;
	err = case_target_up(&lc->ct, spec, lc->c, &lc->td);
	/* trace's --age: what the command needs is its own, none is held */
	if (!err && opt->age.on && !lc->stop)
		err = case_age(&lc->ct.target, &opt->age, 0, &lc->stop, lc->c);
	stage_mark("target up");
	if (err == -EINTR)
		return EXIT_OK; /* lc->stop: live_case_end reports it */
	if (err) {
		snprintf(lc->c->error, sizeof(lc->c->error), "%s",
			 log_last_error());
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

int live_case_end(struct live_case *lc, int code)
{
	struct run_result *r = lc->result;
	int err = 0;

	if (lc->target_up && lc->c)
		err = case_model_end(&lc->ct, lc->c, 0);
	if (lc->target_up)
		err = case_target_down(&lc->ct, &lc->td, err);
	stage_mark("target down");
	tracer_stop(&lc->tracer);
	leftovers_end(&lc->state, &lc->td, lc->opt->scratch);
	stage_mark("tracer stopped");
	if (!r)
		return code;
	if (err && !code)
		code = EXIT_RUN_FAILED;
	if (analyze_run(r))
		log_warn(
			"analysing the results ran out of memory: findings are incomplete");
	run_result_record_rss(r);
	if (lc->sigint_ends && lc->stop == SIGINT)
		lc->stop = 0;
	r->interrupted = lc->stop != 0;
	r->signal = lc->stop;
	if (lc->stop) {
		log_error(
			"interrupted by %s; the phases that ended are reported, the case is incomplete; everything set up was torn down",
			strsignal(lc->stop));
		code = 128 + lc->stop;
	}
	stage_mark("analysed");
	code = run_report_results(lc->opt, r, code);
	stage_mark("reported");
	run_history_record(lc->opt, r);
	stage_mark("recorded");
	run_result_free(r);
	free(r);
	lc->result = NULL;
	return code;
}
