// SPDX-License-Identifier: GPL-2.0
/*
 * What two runs differ in besides what is compared. A diff compares two
 * kernels or two option sets: the kernel, mkfs and mount options and
 * vm.dirty_* are shown when they differ; the workload's parameters, the
 * image size, the device model and --age make the phases incomparable,
 * and the diff is refused unless --allow-mismatch; another fsprof version
 * is warned about (its metrics may be defined differently).
 */
#include <stdio.h>
#include <string.h>

#include "compare/diff_int.h"

static void item(struct diff_result *d, const char *what, const char *a,
		 const char *b, bool blocking)
{
	unsigned int i;

	if (!strcmp(a, b))
		return;
	for (i = 0; i < d->n_setup; i++)
		if (!strcmp(d->setup[i].what, what) &&
		    !strcmp(d->setup[i].a, a) && !strcmp(d->setup[i].b, b))
			return;
	if (d->n_setup == DIFF_SETUP_MAX)
		return;
	snprintf(d->setup[d->n_setup].what, sizeof(d->setup[0].what), "%s",
		 what);
	snprintf(d->setup[d->n_setup].a, sizeof(d->setup[0].a), "%s", a);
	snprintf(d->setup[d->n_setup].b, sizeof(d->setup[0].b), "%s", b);
	d->setup[d->n_setup++].blocking = blocking;
}

/* the command with its device left out: each run gets its own loop */
static void without_device(const char *cmd, const char *dev, char *out,
			   size_t len)
{
	const char *at = dev[0] ? strstr(cmd, dev) : NULL;

	if (!at) {
		snprintf(out, len, "%s", cmd);
		return;
	}
	snprintf(out, len, "%.*sDEVICE%s", (int)(at - cmd), cmd,
		 at + strlen(dev));
}

static const char *sysctl_of(const struct sysctl_record *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			return r->v[i].value;
	return "";
}

static void pair_compare(struct diff_result *d, const struct diff_pair *p)
{
	const struct target_result *a = &p->a_case->target,
				   *b = &p->b_case->target;
	char what[48], sa[32], sb[32], ma[1024], mb[1024];
	char mda[DEVICE_MODEL_TEXT_LEN], mdb[DEVICE_MODEL_TEXT_LEN];
	unsigned int i;

	snprintf(what, sizeof(what), "%s parameters", p->workload);
	item(d, what, p->a_case->params, p->b_case->params, true);
	snprintf(sa, sizeof(sa), "%llu", (unsigned long long)a->image_size);
	snprintf(sb, sizeof(sb), "%llu", (unsigned long long)b->image_size);
	item(d, "image size (bytes)", sa, sb, true);
	item(d, "device model",
	     device_model_format(&a->model.m, mda, sizeof(mda)),
	     device_model_format(&b->model.m, mdb, sizeof(mdb)), true);
	item(d, "target kind", a->kind, b->kind, true);
	/* an aged filesystem allocates differently: not the same experiment */
	item(d, "--age", p->a_case->age.on ? p->a_case->age.spec : "none",
	     p->b_case->age.on ? p->b_case->age.spec : "none", true);
	item(d, "kernel", a->kernel_release, b->kernel_release, false);
	item(d, "filesystem", a->fstype, b->fstype, false);
	without_device(a->mkfs_cmd, a->device, ma, sizeof(ma));
	without_device(b->mkfs_cmd, b->device, mb, sizeof(mb));
	item(d, "mkfs command", ma, mb, false);
	item(d, "mount options", a->super_opts, b->super_opts, false);
	for (i = 0; i < a->sysctls.n; i++)
		item(d, a->sysctls.v[i].name, a->sysctls.v[i].value,
		     sysctl_of(&b->sysctls, a->sysctls.v[i].name), false);
}

void diff_setup_compare(const struct run_result *a, const struct run_result *b,
			struct diff_result *d)
{
	unsigned int i;

	item(d, "fsprof version", a->tool_version, b->tool_version, false);
	for (i = 0; i < d->n_pairs; i++)
		pair_compare(d, &d->pairs[i]);
}
