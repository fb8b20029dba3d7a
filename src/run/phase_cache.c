// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/phase_cache.h"
#include "util/log.h"
#include "workload/cache.h"

/* name is one of the comma-separated words of list */
static bool cold_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p = p[len] ? p + len + 1 : NULL;
	}
	return false;
}

static bool workload_has_phase(const struct workload_def *wl, const char *name,
			       size_t len)
{
	unsigned int i;

	for (i = 0; i < wl->n_phases; i++)
		if (strlen(wl->phases[i].name) == len &&
		    !strncmp(wl->phases[i].name, name, len))
			return true;
	return false;
}

static bool run_has_phase(const struct run_options *opt, const char *name,
			  size_t len)
{
	unsigned int i;

	for (i = 0; i < opt->n_workloads; i++)
		if (workload_has_phase(workload_find(opt->workloads[i].name),
				       name, len))
			return true;
	return false;
}

int phase_cold_check(const struct run_options *opt, char *err, size_t len)
{
	const char *p = opt->cold;

	if (!p || !strcmp(p, PHASE_COLD_NONE))
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (!n || (n == 4 && !strncmp(p, PHASE_COLD_NONE, 4))) {
			snprintf(
				err, len,
				"--cold %s: give phase names separated by commas, or none alone",
				opt->cold);
			return -EINVAL;
		}
		if (!run_has_phase(opt, p, n)) {
			snprintf(
				err, len,
				"--cold: no workload of this run has a phase '%.*s' (fsprof list workloads shows their phases)",
				(int)n, p);
			return -EINVAL;
		}
		p += n;
		if (*p && !*++p) {
			snprintf(err, len, "--cold %s ends with a comma",
				 opt->cold);
			return -EINVAL;
		}
	}
	return 0;
}

const char *phase_cache_state(const struct run_options *opt,
			      const struct phase_def *def, bool can_remount)
{
	bool cold;

	/* --cold's list holds with --warm too: warm reads, a cold remove */
	cold = opt->cold ? cold_list_has(opt->cold, def->name) :
			   !opt->warm && !strcmp(def->cache, "cold");
	if (cold)
		return can_remount ? "cold" : "dropped";
	if (opt->warm)
		return "warm";
	/* a default cold phase that --cold left out runs warm */
	return !strcmp(def->cache, "cold") ? "warm" : def->cache;
}

int phase_cache_prepare(const char *state, const struct phase_def *def,
			struct target *target, struct tracer *tracer,
			const char *dir)
{
	int err;

	if (!strcmp(state, "dropped") && strcmp(def->cache, "dropped"))
		return cache_drop(dir);
	if (strcmp(state, "cold"))
		return 0;
	/* write back what it holds, while its statistics are readable */
	err = cache_syncfs(dir, "before mounting it again");
	if (err)
		return err;
	if (tracer)
		tracer_remount(tracer, false);
	err = target_mount_again(target);
	if (!err && tracer)
		tracer_remount(tracer, true);
	if (err)
		log_error(
			"phase %s cannot run cold (see above): run it warm with a --cold list without it, or --cold none",
			def->name);
	return err;
}
