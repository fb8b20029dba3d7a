// SPDX-License-Identifier: GPL-2.0
/* A bundle's kernels: each one the run's cases ran on, with its config. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "repro/bundle_int.h"

#define RUNNING_PREFIX "running:"

/* what fsprof run --kernel names k by to stage the very same kernel */
static const char *kernel_spec(const struct kernel_config *k)
{
	if (!strncmp(k->source, RUNNING_PREFIX, strlen(RUNNING_PREFIX)))
		return "running";
	return k->source; /* the Debian package, pinned; or the path */
}

static void rerun_list_add(struct bundle_kernels *bk,
			   const struct kernel_config *k)
{
	size_t used = strlen(bk->rerun_list);

	if (!k->guest)
		return;
	snprintf(bk->rerun_list + used, sizeof(bk->rerun_list) - used, "%s%s",
		 used ? "," : "", kernel_spec(k));
}

/* the file of the kernel's config in the bundle: one per release */
static void config_copy(struct bundle_kernels *bk, unsigned int i,
			const char *dir)
{
	const struct kernel_config *k = &bk->k[i];
	char path[4400], name[sizeof(bk->file[i])];
	unsigned int j;

	if (!k->from[0])
		return;
	for (j = 0; j < i; j++)
		if (kernel_config_same(&bk->k[j], k) && bk->file[j][0]) {
			memcpy(bk->file[i], bk->file[j], sizeof(bk->file[i]));
			return;
		}
	snprintf(name, sizeof(name), "kernels/%s%s.config", k->release,
		 k->guest ? "" : "-host");
	memcpy(bk->file[i], name, sizeof(name));
	snprintf(path, sizeof(path), "%s/kernels", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s", dir, bk->file[i]);
	if (kernel_config_copy(k->from, path, bk->copy_error[i],
			       sizeof(bk->copy_error[i])))
		bk->file[i][0] = '\0';
}

void bundle_kernels_collect(const struct run_result *run, const char *dir,
			    struct bundle_kernels *bk)
{
	struct kernel_config k;
	unsigned int i, j;

	memset(bk, 0, sizeof(*bk));
	for (i = 0; i < run->n_cases && bk->n < BUNDLE_MAX_KERNELS; i++) {
		const struct case_result *c = &run->cases[i];

		kernel_config_locate(c, &k);
		for (j = 0; j < bk->n; j++)
			if (kernel_config_same(&bk->k[j], &k) &&
			    bk->slot[j] == c->kernel.slot)
				break;
		if (j < bk->n)
			continue;
		bk->k[bk->n] = k;
		bk->slot[bk->n] = c->kernel.slot;
		config_copy(bk, bk->n, dir);
		rerun_list_add(bk, &k);
		bk->n++;
	}
	/* no case (a run that failed first): the run's own kernel */
	if (!bk->n && run->kernel_release[0]) {
		struct case_result *none = calloc(1, sizeof(*none));

		if (!none)
			return;
		snprintf(none->target.kernel_release,
			 sizeof(none->target.kernel_release), "%s",
			 run->kernel_release);
		kernel_config_locate(none, &bk->k[0]);
		free(none);
		config_copy(bk, 0, dir);
		bk->n = 1;
	}
}
