// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check/privileges.h"
#include "report/text.h"
#include "results/json.h"
#include "run/phase.h"
#include "run/run.h"
#include "run/signals.h"
#include "target/target.h"
#include "trace/tracer.h"
#include "util/clock.h"
#include "util/log.h"
#include "version.h"
#include "workload/workload.h"

#define MiB (1ULL << 20)

/* everything one run owns, torn down in reverse by td */
struct run_ctx {
	const struct run_options *opt;
	const struct workload_def *wl;
	struct teardown td;
	struct target target;
	struct tracer tracer;
	struct run_result *result;
	volatile sig_atomic_t stop;
};

uint64_t run_image_size(uint64_t need)
{
	/* room for the journal, inode tables and reserved blocks */
	uint64_t size = need + need / 8 + 128 * MiB;

	if (size < need) /* overflow */
		return UINT64_MAX;
	if (size < 256 * MiB)
		size = 256 * MiB;
	return (size + MiB - 1) / MiB * MiB;
}

static void result_record_target(struct run_result *r, struct target *t)
{
	struct target_result *tr = &r->target;

	snprintf(tr->fstype, sizeof(tr->fstype), "%s", t->spec.fstype);
	snprintf(tr->image, sizeof(tr->image), "%s", t->image);
	tr->image_size = t->spec.image_size;
	snprintf(tr->device, sizeof(tr->device), "%s", t->loop.path);
	tr->dev_major = major(t->loop.dev);
	tr->dev_minor = minor(t->loop.dev);
	tr->loop_dio = t->loop.dio;
	snprintf(tr->mkfs_cmd, sizeof(tr->mkfs_cmd), "%s", t->mkfs.cmd);
	tr->mkfs_output = t->mkfs.output; /* the result owns it now */
	t->mkfs.output = NULL;
	snprintf(tr->mount_opts, sizeof(tr->mount_opts), "%s", t->mount_opts);
	snprintf(tr->super_opts, sizeof(tr->super_opts), "%s", t->super_opts);
}

static void result_init(struct run_ctx *ctx)
{
	struct run_result *r = ctx->result;
	struct utsname u;

	snprintf(r->tool_version, sizeof(r->tool_version), "%s",
		 FSPROF_VERSION);
	if (!uname(&u))
		snprintf(r->kernel_release, sizeof(r->kernel_release), "%s",
			 u.release);
	r->started_real_ns = clock_real_ns();
	snprintf(r->workload, sizeof(r->workload), "%s", ctx->wl->name);
	r->size = ctx->opt->size ? ctx->opt->size : ctx->wl->default_size;
}

static int run_phases(struct run_ctx *ctx)
{
	struct workload_env env = {
		.dir = ctx->target.mnt,
		.size = ctx->result->size,
		.stop = &ctx->stop,
	};
	struct tracer *tracer = ctx->opt->no_trace ? NULL : &ctx->tracer;
	unsigned int i;
	int err;

	for (i = 0; i < ctx->wl->n_phases && !ctx->stop; i++) {
		struct phase_result *p = &ctx->result->phases[i];

		err = phase_run(tracer, &ctx->wl->phases[i], &env, i + 1, p);
		if (ctx->stop)
			break;
		if (err)
			return err;
		ctx->result->n_phases++;
	}
	if (tracer)
		tracer_collect_spill(tracer, ctx->result);
	return ctx->stop ? -EINTR : 0;
}

static int run_execute(struct run_ctx *ctx)
{
	struct target_spec spec = {
		.fstype = ctx->opt->fstype,
		.mkfs_opts = ctx->opt->mkfs_opts,
		.mount_opts = ctx->opt->mount_opts,
		.scratch = ctx->opt->scratch,
	};
	int err;

	spec.image_size = ctx->opt->image_size ?
				  ctx->opt->image_size :
				  run_image_size(ctx->wl->space_needed(
					  ctx->result->size));
	err = target_preflight(&spec);
	if (err)
		return -EXIT_ENVIRONMENT;
	err = signals_install(&ctx->stop);
	if (err)
		return err;
	err = target_up(&ctx->target, &spec, &ctx->td);
	result_record_target(ctx->result, &ctx->target);
	if (err || ctx->stop)
		return ctx->stop ? -EINTR : err;
	if (!ctx->opt->no_trace) {
		err = tracer_start(&ctx->tracer, ctx->target.kernel_dev,
				   ctx->result, &ctx->td);
		if (err)
			return -EXIT_ENVIRONMENT;
	}
	if (ctx->stop)
		return -EINTR;
	return run_phases(ctx);
}

static void result_record_rss(struct run_result *r)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_SELF, &ru))
		r->max_rss_kib = (uint64_t)ru.ru_maxrss;
}

static int run_exit_code(const struct run_ctx *ctx, int err, int td_failed)
{
	if (ctx->stop)
		return 128 + ctx->stop;
	if (err == -EXIT_ENVIRONMENT)
		return EXIT_ENVIRONMENT;
	if (err || td_failed)
		return EXIT_RUN_FAILED;
	return EXIT_OK;
}

/* a results file we could not write at the end would waste the run */
static int json_path_check(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK | X_OK)) {
		log_error("--json %s: cannot write in %s: %s", path, dir,
			  strerror_safe(errno));
		return -errno;
	}
	return 0;
}

int run_command(const struct run_options *opt)
{
	struct run_ctx *ctx;
	char why[256];
	int err, td_failed, code;

	if (!privileges_ok(why, sizeof(why))) {
		log_error("cannot trace the kernel: %s", why);
		return EXIT_ENVIRONMENT;
	}
	if (opt->json_path && json_path_check(opt->json_path))
		return EXIT_USAGE;
	ctx = calloc(1, sizeof(*ctx));
	if (ctx)
		ctx->result = calloc(1, sizeof(*ctx->result));
	if (!ctx || !ctx->result) {
		log_error("out of memory");
		free(ctx);
		return EXIT_RUN_FAILED;
	}
	ctx->opt = opt;
	ctx->wl = workload_find(opt->workload);
	result_init(ctx);

	err = run_execute(ctx);
	result_record_rss(ctx->result);
	td_failed = teardown_run(&ctx->td);
	if (td_failed)
		log_error("%d teardown step(s) failed; see above for what is left behind",
			  td_failed);
	ctx->result->interrupted = ctx->stop != 0;
	ctx->result->signal = ctx->stop;
	if (ctx->stop)
		log_error("interrupted by %s; everything set up was torn down",
			  strsignal(ctx->stop));

	code = run_exit_code(ctx, err, td_failed);
	if (ctx->result->n_phases)
		report_text(ctx->result, stdout);
	if (opt->json_path && ctx->result->n_phases &&
	    results_write_json(ctx->result, opt->json_path))
		code = code ? code : EXIT_RUN_FAILED;

	target_free(&ctx->target);
	run_result_free(ctx->result);
	free(ctx->result);
	free(ctx);
	return code;
}
