// SPDX-License-Identifier: GPL-2.0
/* One case: a fresh target, the tracer, the workload's phases, teardown. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "run/case_age.h"
#include "run/case_run.h"
#include "run/case_target.h"
#include "run/phase.h"
#include "run/phase_cache.h"
#include "util/log.h"
#include "util/progress.h"

#define MiB (1ULL << 20)

uint64_t run_image_size(uint64_t need)
{
	/* room for the journal, inode tables and reserved blocks */
	uint64_t size = need + need / 8 + 128 * MiB;

	if (size < need) /* overflow */
		return UINT64_MAX;
	/* mkfs.xfs refuses filesystems under 300 MB */
	if (size < 512 * MiB)
		size = 512 * MiB;
	return (size + MiB - 1) / MiB * MiB;
}

/*
 * What the image is sized for: the workload's need, or with --age the
 * image whose share left free by the aging holds that need.
 */
static uint64_t case_image_need(const struct run_options *opt,
				const struct workload_def *wl,
				const struct workload_params *params)
{
	uint64_t need = workload_image_need(wl, params);
	double free_share = age_spec_free_share(&opt->age);

	if (!opt->age.on || free_share <= 0)
		return need;
	return (uint64_t)((double)need / free_share);
}

void case_plan_make(const struct run_options *opt, const struct workload_opt *w,
		    const struct workload_params *params,
		    const struct fsspec *fs, unsigned int repeat,
		    struct case_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->wl = workload_find(w->name);
	plan->params = *params;
	plan->repeat = repeat;
	plan->fs = fs;
	plan->spec.fstype = fs->fstype;
	plan->spec.mkfs_opts = fs->mkfs_opts;
	plan->spec.mount_opts = fs->mount_opts;
	plan->spec.scratch = opt->scratch;
	plan->spec.model = fsspec_model(fs, &opt->model);
	plan->spec.kind = opt->dir    ? TARGET_DIR :
			  opt->device ? TARGET_DEVICE :
					TARGET_IMAGE;
	plan->spec.dir = opt->dir;
	plan->spec.device = opt->device;
	plan->spec.force = opt->force;
	plan->spec.stack = fsspec_stack(fs, &opt->stack);
	plan->spec.space_needed = plan->wl->space_needed(&plan->params);
	plan->spec.files_needed =
		workload_files_needed(plan->wl, &plan->params);
	plan->spec.image_size = opt->image_size ?
					opt->image_size :
					run_image_size(case_image_need(
						opt, plan->wl, &plan->params));
}

/*
 * A phase failed (a full or read-only filesystem, an IO error): the case
 * says which and why, and the run goes on with the next case.
 */
static void case_phase_failed(struct case_result *c, const char *phase)
{
	snprintf(c->failed_phase, sizeof(c->failed_phase), "%s", phase);
	snprintf(c->error, sizeof(c->error), "phase %s: %s", phase,
		 log_last_error());
	log_warn(
		"%s on %s: phase %s failed; the results keep it, marked incomplete, and the run goes on",
		c->workload, c->target_label, phase);
}

static int case_run_phases(struct run_ctx *ctx, const struct case_plan *plan,
			   struct case_result *c, struct target *target,
			   struct tracer *tracer)
{
	struct workload_env env = {
		.dir = target->workdir,
		.params = &plan->params,
		.stop = &ctx->stop,
		.warm = ctx->opt->warm,
	};
	bool draw = isatty(STDOUT_FILENO) && log_get_level() >= LOG_NORMAL;
	bool can_remount = target->spec.kind != TARGET_DIR;
	struct progress progress;
	struct phase_runner r = {
		.tracer = tracer,
		.target = target,
		.env = &env,
		.progress = &progress,
	};
	unsigned int i;
	int err = 0;

	if (plan->wl->setup) {
		err = plan->wl->setup(&env);
		if (err)
			return err;
	}
	for (i = 0; i < plan->wl->n_phases && !ctx->stop; i++) {
		progress_init(&progress, stdout, draw,
			      plan->wl->phases[i].name);
		r.cache = phase_cache_state(ctx->opt, &plan->wl->phases[i],
					    can_remount);
		err = phase_run(&r, &plan->wl->phases[i], i + 1, &c->phases[i]);
		/* a dead engine fails the case, with what happened said */
		if (target_model_check(target) && !err)
			err = -EPIPE;
		if (err && !ctx->stop)
			case_phase_failed(c, plan->wl->phases[i].name);
		if (err || ctx->stop)
			break;
		c->n_phases++;
	}
	if (plan->wl->cleanup)
		plan->wl->cleanup(&env);
	if (tracer) {
		tracer_collect(tracer, FSPROF_PHASE_NONE, &c->spill);
		tracer_take_events(tracer, &c->events);
	}
	if (ctx->stop)
		return -EINTR;
	c->complete = !err;
	return err;
}

int case_run(struct run_ctx *ctx, const struct case_plan *plan)
{
	struct case_target ct;
	struct case_result *c;
	struct sysinfo si;
	int err;

	c = run_result_add_case(ctx->result, plan->wl->n_phases);
	if (!c)
		return -ENOMEM;
	snprintf(c->workload, sizeof(c->workload), "%s", plan->wl->name);
	snprintf(c->target_label, sizeof(c->target_label), "%s",
		 plan->fs->label);
	snprintf(c->target_name, sizeof(c->target_name), "%s", plan->fs->name);
	params_format(&plan->params, c->params, sizeof(c->params));
	c->size = param_num(&plan->params, "size");
	c->data_bytes = plan->spec.space_needed;
	if (!sysinfo(&si))
		c->ram_bytes = (uint64_t)si.totalram * si.mem_unit;
	c->repeat = plan->repeat;
	c->order = plan->order;
	{
		char key[sizeof(c->workload) + sizeof(c->params) +
			 sizeof(c->target_label) + 3];

		snprintf(key, sizeof(key), "%s|%s|%s", c->workload, c->params,
			 c->target_label);
		progress_case_key(key);
	}

	err = case_target_up(&ct, &plan->spec, c, &ctx->td);
	if (!err && !ctx->stop && ctx->opt->age.on)
		err = case_age(&ct.target, &ctx->opt->age,
			       plan->spec.space_needed, &ctx->stop, c);
	if (!err && !ctx->stop)
		err = case_tracer_up(&ct, &ctx->tracer, ctx->opt, NULL, c,
				     &ctx->td);
	if (!err && !ctx->stop)
		err = case_run_phases(ctx, plan, c, &ct.target, ct.tracer);
	if (ctx->stop)
		err = -EINTR;
	err = case_model_end(&ct, c, err);

	if (err && err != -EINTR && !c->error[0])
		snprintf(c->error, sizeof(c->error), "%s", log_last_error());
	return case_target_down(&ct, &ctx->td, err);
}

/* --verify (run/verify.c): one more case, into a result of its own */
int run_verify_case(struct run_ctx *ctx, struct run_result *into,
		    const struct verify_case *vc)
{
	struct run_result *main_result = ctx->result;
	struct case_plan plan;
	int err;

	case_plan_make(ctx->opt, vc->workload, vc->params, vc->fs, vc->repeat,
		       &plan);
	ctx->result = into;
	err = case_run(ctx, &plan);
	ctx->result = main_result;
	return err;
}

bool run_ctx_stopped(const struct run_ctx *ctx)
{
	return ctx->stop != 0;
}
