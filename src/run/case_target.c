// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "run/case_target.h"
#include "target/devinfo.h"
#include "target/devstack.h"
#include "target/sysctl.h"
#include "trace/log_region.h"
#include "util/log.h"
#include "util/spawn.h"

/* a stack's members, each a disk of the model with a lower loop of its own */
static void record_model_members(const struct stack_devs *sd,
				 struct model_result *mr)
{
	unsigned int i;

	for (i = 0; i < sd->n && i < BLK_MEMBERS_MAX; i++) {
		struct model_member *mm = &mr->member[i];
		const char *name = strrchr(sd->member[i].path, '/');

		snprintf(mm->member, sizeof(mm->member), "%s",
			 name ? name + 1 : sd->member[i].path);
		snprintf(mm->device, sizeof(mm->device), "%s",
			 sd->lower[i].path);
		mm->major = major(sd->lower[i].dev);
		mm->minor = minor(sd->lower[i].dev);
		mm->dio = sd->lower[i].dio;
	}
	mr->n_members = i;
}

static void target_record_model(const struct target *t,
				struct target_result *tr)
{
	const struct device_model *m = t->spec.model;
	struct model_result *mr = &tr->model;

	memset(mr, 0, sizeof(*mr));
	if (!device_model_active(m)) {
		snprintf(mr->m.name, sizeof(mr->m.name), "none");
		mr->m.rotational = -1;
		return;
	}
	mr->m = *m;
	if (t->model_at != MODEL_LOWER_LOOP) {
		mr->m.rotational = -1;
		return;
	}
	snprintf(mr->placement, sizeof(mr->placement), "lower-loop");
	mr->major = major(t->model_dev);
	mr->minor = minor(t->model_dev);
	snprintf(mr->device, sizeof(mr->device), "%s", t->lower.path);
	mr->dio = t->lower.dio;
	record_model_members(&t->stack, mr);
}

/*
 * A bio-based disk: the disks under it, down its slaves, that issue the
 * requests (an md array's members, a dm device's, dm on md); 0 when there
 * are such, said
 */
static int stack_find(dev_t disk, struct block_stack *st)
{
	struct devstack_source src;
	char name[32];
	unsigned int i;
	int err;

	devstack_system(&src);
	err = devstack_name_of(&src, major(disk), minor(disk), name,
			       sizeof(name));
	if (!err)
		err = devstack_walk(&src, name, st);
	for (i = 0; !err && i < st->n; i++)
		if (!devinfo_issues_requests(makedev(st->member[i].disk_major,
						     st->member[i].disk_minor)))
			err = -ENODEV; /* zram under dm: nothing to see */
	if (err == -E2BIG)
		log_warn(
			"%s has more than %d member disks: block IO is not traced",
			name, BLK_MEMBERS_MAX);
	if (err) {
		st->n = 0;
		return err;
	}
	log_info("%s: block IO traced on its %u member disk(s)", st->layout,
		 st->n);
	return 0;
}

/* the log's ranges on a stacked target's members, or why there are none */
static void stack_map_log(struct block_stack *st, const struct log_region *log)
{
	struct devstack_source src;

	devstack_system(&src);
	if (devstack_map_log(&src, log, st))
		log_warn("%s", st->log_note);
	else
		log_info("the log class %s", st->log_note);
}

/*
 * Where the target's requests are seen: a partition's sector range on its
 * disk, or nowhere when the disk is bio-based (device-mapper, MD, zram: its
 * IO reaches the disks below it as their own requests).
 */
static void trace_config_devices(struct trace_config *tc,
				 const struct target *t,
				 struct target_result *tr)
{
	char name[64] = "";

	if (t->disk_dev != t->fs_dev &&
	    devinfo_partition_range(t->fs_dev, &tc->part_start,
				    &tc->part_sectors))
		log_warn(
			"cannot read the sector range of partition %u:%u: block IO of the whole disk is counted",
			major(t->fs_dev), minor(t->fs_dev));
	if (devinfo_issues_requests(t->disk_dev))
		return;
	if (!stack_find(t->disk_dev, &tr->stack)) {
		tc->stack = &tr->stack;
		return;
	}
	tc->no_requests = true;
	devinfo_dev_path(t->disk_dev, name, sizeof(name));
	snprintf(
		tr->block_untraced, sizeof(tr->block_untraced),
		"block IO not visible on %s (%u:%u): a bio-based device (device-mapper, MD, zram) issues no requests of its own; its IO reaches the devices below it",
		name[0] ? name : "the target's disk", major(t->disk_dev),
		minor(t->disk_dev));
	log_warn("%s", tr->block_untraced);
}

/* mount(8)'s line for the mount target_up made with mount(2), if any */
static void target_mount_line(const struct target *t, char *buf, size_t len)
{
	const char *opts = t->spec.mount_opts;
	char *argv[9];
	unsigned int n = 0;

	buf[0] = '\0';
	if (t->spec.kind == TARGET_DIR || !t->devpath[0] || !t->mnt[0])
		return;
	argv[n++] = "mount";
	argv[n++] = "-t";
	argv[n++] = (char *)t->spec.fstype;
	if (opts && opts[0]) {
		argv[n++] = "-o";
		argv[n++] = (char *)opts;
	}
	argv[n++] = (char *)t->devpath;
	argv[n++] = (char *)t->mnt;
	argv[n] = NULL;
	spawn_format_argv(argv, buf, len);
}

static void case_record_target(struct case_result *c, struct target *t)
{
	struct target_result *tr = &c->target;
	struct utsname u;

	snprintf(tr->kind, sizeof(tr->kind), "%s",
		 t->spec.kind == TARGET_IMAGE  ? "image" :
		 t->spec.kind == TARGET_DEVICE ? "device" :
						 "dir");
	snprintf(tr->fstype, sizeof(tr->fstype), "%s", t->fstype);
	snprintf(tr->image, sizeof(tr->image), "%s", t->image);
	tr->image_size = t->image[0] ? t->spec.image_size : 0;
	snprintf(tr->device, sizeof(tr->device), "%s", t->devpath);
	snprintf(tr->workdir, sizeof(tr->workdir), "%s", t->workdir);
	tr->dev_major = major(t->fs_dev);
	tr->dev_minor = minor(t->fs_dev);
	tr->loop_dio = t->loop.dio;
	snprintf(tr->untraced, sizeof(tr->untraced), "%s", t->untraced);
	snprintf(tr->mkfs_cmd, sizeof(tr->mkfs_cmd), "%s", t->mkfs.cmd);
	snprintf(tr->fs_uuid, sizeof(tr->fs_uuid), "%s", t->fs_uuid);
	tr->mkfs_output = t->mkfs.output; /* the result owns it now */
	t->mkfs.output = NULL;
	snprintf(tr->mount_opts, sizeof(tr->mount_opts), "%s", t->mount_opts);
	snprintf(tr->super_opts, sizeof(tr->super_opts), "%s", t->super_opts);
	target_mount_line(t, tr->mount_cmd, sizeof(tr->mount_cmd));
	target_record_model(t, tr);
	if (!uname(&u))
		snprintf(tr->kernel_release, sizeof(tr->kernel_release), "%s",
			 u.release);
	sysctl_record_dirty(&tr->sysctls);
}

int case_target_up(struct case_target *ct, const struct target_spec *spec,
		   struct case_result *c, struct teardown *td)
{
	int err;

	memset(ct, 0, sizeof(*ct));
	ct->mark = td->n;
	err = target_up(&ct->target, spec, td);
	case_record_target(c, &ct->target);
	if (!err && ct->target.untraced[0])
		log_warn("%s", ct->target.untraced);
	return err;
}

int case_tracer_up(struct case_target *ct, struct tracer *tracer,
		   const struct run_options *opt,
		   const struct case_workload *who, struct case_result *c,
		   struct teardown *td)
{
	struct target *t = &ct->target;
	struct trace_config tc = {
		.kernel_dev = target_kernel_dev(t->fs_dev),
		.disk_dev = target_kernel_dev(t->disk_dev),
		.log = &c->target.log,
		.fstype = t->fstype,
		.deep = opt->probes_deep,
		.bin_ns = opt->bin_ns,
		.slow_io_ns = opt->slow_io_ns,
		.workload_pid = who ? who->pid : 0,
		.every_process = who && who->every_process,
	};
	int err;

	if (opt->no_trace || !t->fs_dev)
		return 0;
	trace_config_devices(&tc, t, &c->target);
	if (log_region_read(t->devpath, t->fstype, &c->target.log))
		log_warn("block IO will have no log class: %s",
			 c->target.log.source);
	if (tc.stack)
		stack_map_log(&c->target.stack, &c->target.log);
	err = tracer->started ? 0 : tracer_start(tracer);
	if (!err)
		err = tracer_bind(tracer, &tc, &c->programs, td);
	if (err)
		return err;
	ct->tracer = tracer;
	tracer_charging(tracer, &c->charging);
	return 0;
}

int case_model_end(struct case_target *ct, struct case_result *c, int err)
{
	struct model_engine *e = &c->target.model.engine;
	struct model_stats s;
	int dead = target_model_check(&ct->target);

	target_model_stats(&ct->target, &s, &e->round_trip_ns);
	e->charged = s.charged;
	e->modelled_ns = s.modelled_ns;
	e->short_requests = s.short_requests;
	e->short_excess_ns = s.short_excess_ns;
	return err ? err : dead;
}

int case_target_down(struct case_target *ct, struct teardown *td, int err)
{
	int failed = teardown_run_to(td, ct->mark);

	ct->tracer = NULL;
	target_free(&ct->target);
	if (!failed)
		return err;
	log_error(
		"%d teardown step(s) failed; see above for what is left behind",
		failed);
	return err ? err : -EIO;
}
