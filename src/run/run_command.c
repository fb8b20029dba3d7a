// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof run: the workloads' parameters planned (a bad one is a usage
 * error before anything is made), then the run here (run/run.c) or in a
 * guest of each kernel (run/kernel_run.c, --kernel).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fsprof/phase.h"
#include "run/kernel_run.h"
#include "run/run.h"
#include "run/run_command.h"
#include "run/signals.h"
#include "util/log.h"
#include "workload/workload.h"

/*
 * --size is the size= parameter (the data size) of the workloads that have
 * one; -ENOENT for the others.
 */
static int params_apply_size(struct workload_params *params, uint64_t size)
{
	unsigned int i;

	for (i = 0; i < params->n; i++) {
		struct param_value *v = &params->v[i];

		if (strcmp(v->def->key, "size"))
			continue;
		v->num = size;
		snprintf(v->str, sizeof(v->str), "%llu",
			 (unsigned long long)size);
		return 0;
	}
	return -ENOENT;
}

/* the parameters of one -w option, with --size applied */
static int workload_plan_params(const struct run_options *opt,
				const struct workload_opt *w,
				struct workload_params *params)
{
	const struct workload_def *wl = workload_find(w->name);
	char err[512];

	/* phase ids index the kernel's per-phase maps; 0 is between phases */
	if (wl->n_phases >= FSPROF_MAX_PHASES) {
		log_error(
			"workload %s has %u phases; fsprof can attribute kernel work to at most %d phases per case",
			wl->name, wl->n_phases, FSPROF_MAX_PHASES - 1);
		return -E2BIG;
	}
	if (params_parse(wl->params, wl->n_params, w->params, opt->scale,
			 params, err, sizeof(err))) {
		log_error("-w %s: %s", w->name, err);
		return -EINVAL;
	}
	if (opt->size && params_apply_size(params, opt->size) &&
	    opt->n_workloads == 1) {
		log_error(
			"--size: workload %s has no size parameter (fsprof list workloads shows its parameters)",
			wl->name);
		return -EINVAL;
	}
	/* a bad value is a usage error now, not a failed case after mkfs */
	if (wl->check && wl->check(params))
		return -EINVAL;
	return 0;
}

/* "ext3,ext4": the targets of opt->fs that w runs on; their count */
static unsigned int workload_targets_text(const struct run_options *opt,
					  const struct workload_opt *w,
					  char *buf, size_t len)
{
	unsigned int t, n = 0;
	size_t off = 0;

	buf[0] = '\0';
	for (t = 0; t < opt->n_fs; t++) {
		if (!workload_on_target(w, t))
			continue;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						n ? "," : "", opt->fs[t].label);
		n++;
	}
	return n;
}

/*
 * A --suite run says what it will run before it starts: each workload and
 * its targets (the originals' without --fs), and how many cases
 */
static void suite_plan_print(const struct run_options *opt)
{
	char line[4096], targets[1024];
	unsigned int i, n, cases = 0;
	size_t off = 0;
	bool own = false;

	for (i = 0; i < opt->n_workloads; i++)
		own |= opt->workloads[i].fs_mask != 0;
	for (i = 0; i < opt->n_workloads; i++) {
		n = workload_targets_text(opt, &opt->workloads[i], targets,
					  sizeof(targets));
		cases += n * opt->repeat;
		if (off < sizeof(line))
			off += (size_t)snprintf(line + off, sizeof(line) - off,
						"%s%s on %s", i ? "; " : "",
						opt->workloads[i].name,
						targets);
	}
	snprintf(targets, sizeof(targets), " (%u x --repeat %u)",
		 cases / opt->repeat, opt->repeat);
	log_info(
		"suite %s, %s: %s; %u case%s%s", opt->suite,
		own ? "each experiment on its original's targets (--fs LIST runs every workload on LIST)" :
		      "every workload on every target of --fs",
		line, cases, cases == 1 ? "" : "s",
		opt->repeat > 1 ? targets : "");
}

int run_command(const struct run_options *opt)
{
	struct workload_params params[RUN_MAX_WORKLOADS];
	unsigned int i;

	for (i = 0; i < opt->n_workloads; i++) {
		if (workload_plan_params(opt, &opt->workloads[i], &params[i])) {
			/* a usage error: the error, then where to look */
			fprintf(stderr, "see 'fsprof list workloads'\n");
			return EXIT_USAGE;
		}
	}
	if (opt->suite[0])
		suite_plan_print(opt);
	if (signals_early())
		log_warn("cannot catch SIGINT before the run: %s",
			 strerror_safe(errno));
	if (opt->kernels)
		return run_kernels(opt, params);
	return run_local(opt, params);
}
