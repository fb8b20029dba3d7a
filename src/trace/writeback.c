// SPDX-License-Identifier: GPL-2.0
/* Writeback domain, user side: see bpf/writeback.bpf.c. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/domain_def.h"
#include "trace/percpu.h"
#include "trace/kconfig.h"
#include "trace/timeline.h"
#include "trace/writeback.h"
#include "util/kdev.h"
#include "util/log.h"
#include "util/sysfile.h"

#define REASON_PREFIX "WB_REASON_"

enum wb_prog {
	WB_START,
	WB_WRITTEN,
	WB_BDP,
	WB_BDP_OLD, /* balance_dirty_pages up to 6.8, with 12 arguments */
	WB_NR,
};

/* the programs, and the event each counts */
static const struct program_def wb_progs[WB_NR] = {
	[WB_START] = { "fsprof_wb_start", "writeback:writeback_start" },
	[WB_WRITTEN] = { "fsprof_wb_written", "writeback:writeback_written" },
	[WB_BDP] = { "fsprof_bdp", "writeback:balance_dirty_pages" },
	[WB_BDP_OLD] = { "fsprof_bdp_old", "writeback:balance_dirty_pages" },
};

/* the one maximum of struct wb_phase_stats */
static const size_t wb_stats_max[] = {
	offsetof(struct wb_phase_stats, throttle_max_ns),
};

/* its counts are reported by hand, by reason: writeback_collect() */
static const struct domain_def wb_def = {
	.name = "writeback",
	.progs = wb_progs,
	.n_progs = WB_NR,
	.stats_map = "wb_stats",
	.stats_size = sizeof(struct wb_phase_stats),
	.stats_max = wb_stats_max,
	.n_stats_max = ARRAY_SIZE(wb_stats_max),
};

struct writeback_domain {
	struct fsprof_bpf *skel;
	struct program_slot slots[WB_NR]; /* missing: the kernel has no event */
	bool hz_known; /* throttle pauses converted to ns in the kernel */
	struct percpu_stats stats;
	char reason[WB_REASON_SLOTS][WB_REASON_NAME_LEN];
	struct timeline_map timeline;
};

/* the timeline's series, each the bins of the metric of the same name */
static const struct timeline_field wb_timeline_ns[] = {
	{ "writeback.pages_written", offsetof(struct wb_tl_bin, pages) },
	{ "writeback.throttle_count",
	  offsetof(struct wb_tl_bin, throttle_count) },
	{ "writeback.throttle_pause_ns",
	  offsetof(struct wb_tl_bin, throttle_pause) },
};

/* without CONFIG_HZ the pauses stay in jiffies, as the metric does */
static const struct timeline_field wb_timeline_jiffies[] = {
	{ "writeback.pages_written", offsetof(struct wb_tl_bin, pages) },
	{ "writeback.throttle_count",
	  offsetof(struct wb_tl_bin, throttle_count) },
	{ "writeback.throttle_pause_jiffies",
	  offsetof(struct wb_tl_bin, throttle_pause) },
};

int wb_reason_names(const struct btf *btf,
		    char names[WB_REASON_SLOTS][WB_REASON_NAME_LEN])
{
	const struct btf_type *t = NULL;
	const struct btf_enum *e;
	int id, i, n, named = 0;

	for (i = 0; i < WB_REASON_SLOTS; i++)
		snprintf(names[i], WB_REASON_NAME_LEN, "reason_%d", i);
	id = btf ? btf__find_by_name_kind(btf, "wb_reason", BTF_KIND_ENUM) : -1;
	if (id > 0)
		t = btf__type_by_id(btf, id);
	if (!t)
		return 0;
	e = btf_enum(t);
	n = btf_vlen(t);
	for (i = 0; i < n; i++, e++) {
		const char *name = btf__name_by_offset(btf, e->name_off);
		char *out;
		size_t j;

		/* WB_REASON_MAX counts the others; a value is not a reason */
		if (!name || e->val < 0 || e->val >= WB_REASON_SLOTS ||
		    !strcmp(name, REASON_PREFIX "MAX"))
			continue;
		if (!strncmp(name, REASON_PREFIX, strlen(REASON_PREFIX)))
			name += strlen(REASON_PREFIX);
		out = names[e->val];
		for (j = 0; name[j] && j < WB_REASON_NAME_LEN - 1; j++)
			out[j] = (char)tolower((unsigned char)name[j]);
		out[j] = '\0';
		named++;
	}
	return named;
}

int wb_bdi_name(unsigned int kernel_dev, const char *sysfs, char *buf,
		size_t len)
{
	unsigned int major = kdev_major(kernel_dev),
		     minor = kdev_minor(kernel_dev);
	char path[256];
	int n;

	n = snprintf(buf, len, "%u:%u", major, minor);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	/* a partition has no bdi of its own: its disk's is the parent dir */
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/partition", sysfs,
		 major, minor);
	if (access(path, F_OK))
		return 0;
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/../dev", sysfs, major,
		 minor);
	n = (int)sysfile_read_line(path, buf, len);
	return n < 0 ? n : 0;
}

static void writeback_free(struct writeback_domain *d)
{
	timeline_map_close(&d->timeline);
	percpu_stats_fini(&d->stats);
	detach_programs(d->slots, WB_NR);
	free(d);
}

static void wb_programs_choose(struct writeback_domain *d,
			       const struct trace_config *cfg)
{
	struct program_slot *sl = d->slots;
	int nargs;

	sl[WB_START].missing =
		btf_tracepoint_nargs(cfg->btf, "writeback_start") != 2;
	sl[WB_WRITTEN].missing =
		btf_tracepoint_nargs(cfg->btf, "writeback_written") != 2;
	/* pages are counted from start to written: one alone is useless */
	if (sl[WB_START].missing || sl[WB_WRITTEN].missing)
		sl[WB_START].missing = sl[WB_WRITTEN].missing = true;
	bpf_program__set_autoload(sl[WB_START].prog, !sl[WB_START].missing);
	bpf_program__set_autoload(sl[WB_WRITTEN].prog, !sl[WB_WRITTEN].missing);
	/* the dtc argument replaced five numbers after 6.8: 12 -> 8 args */
	nargs = btf_tracepoint_nargs(cfg->btf, "balance_dirty_pages");
	sl[WB_BDP].missing = nargs != 8 && nargs != 12;
	bpf_program__set_autoload(sl[WB_BDP].prog, nargs == 8);
	bpf_program__set_autoload(sl[WB_BDP_OLD].prog, nargs == 12);
}

static int writeback_open(void **priv, struct fsprof_bpf *skel,
			 const struct trace_config *cfg)
{
	struct writeback_domain *d = calloc(1, sizeof(*d));
	int err, nargs;

	if (!d)
		return -ENOMEM;
	if (kconfig_fallback())
		/* no config: the pause stays in jiffies, reported as such */
		log_warn(
			"writeback domain: no /proc/config.gz or /boot/config-$(uname -r): throttle pauses are reported in jiffies");
	d->skel = skel;
	err = domain_def_open(&wb_def, d->skel->skeleton, &d->stats, d->slots);
	if (err)
		goto fail;
	d->skel->rodata->tl_bin_ns = timeline_bin_ns(cfg->bin_ns);
	wb_reason_names(kernel_btf_find(cfg->btf, "wb_reason", BTF_KIND_ENUM,
					&nargs),
			d->reason);

	wb_programs_choose(d, cfg);
	*priv = d;
	return 0;
fail:
	writeback_free(d);
	return err;
}

static int writeback_loaded(void *priv)
{
	struct writeback_domain *d = priv;

	d->hz_known = d->skel->kconfig && d->skel->kconfig->CONFIG_HZ;
	return timeline_map_open(&d->timeline, d->skel->maps.writeback_timeline,
				 d->skel->rodata->tl_bin_ns);
}

static int writeback_attach(void *priv, struct attach_list *list)
{
	struct writeback_domain *d = priv;

	return domain_def_attach(&wb_def, d->slots, list);
}

/* a case: the flusher's events filtered on its target's bdi, by name */
static int writeback_bind(void *priv, const struct trace_config *cfg)
{
	struct writeback_domain *d = priv;
	char bdi[WB_BDI_NAME_LEN];
	int err = wb_bdi_name(cfg->kernel_dev, "/sys", bdi, sizeof(bdi));

	if (err) {
		log_warn(
			"writeback domain: cannot name the bdi of device %u:%u: %s",
			kdev_major(cfg->kernel_dev),
			kdev_minor(cfg->kernel_dev), strerror_safe(-err));
		return -ENODEV;
	}
	memcpy(d->skel->bss->targ_bdi, bdi, sizeof(bdi));
	return 0;
}

static int wb_add_throttle(struct writeback_domain *d,
			   const struct wb_phase_stats *sum,
			   struct metric_set *m)
{
	struct latency_hist *h;
	unsigned int i;
	int err;

	err = metric_add(m, "writeback.throttle_count", sum->throttle_count);
	if (err)
		return err;
	if (!d->hz_known)
		return metric_add(m, "writeback.throttle_pause_jiffies",
				  sum->throttle_pause_jiffies);
	err = metric_add(m, "writeback.throttle_pause_ns",
			 sum->throttle_pause_ns);
	if (err || !sum->throttle_count)
		return err;
	h = metric_hist(m, "writeback.throttle_pause_ns");
	if (!h)
		return -ENOMEM;
	h->count += sum->throttle_count;
	h->sum_ns += sum->throttle_pause_ns;
	if (sum->throttle_max_ns > h->max_ns)
		h->max_ns = sum->throttle_max_ns;
	for (i = 0; i < HIST_NSLOTS; i++)
		h->slot[i] += sum->throttle_slot[i];
	return 0;
}

static int writeback_collect(void *priv, unsigned int phase,
			     struct phase_result *out)
{
	struct writeback_domain *d = priv;
	struct metric_set *m = &out->metrics;
	struct wb_phase_stats sum;
	unsigned long long pages = 0;
	char name[METRIC_NAME_LEN];
	unsigned int i;
	int err;

	err = percpu_stats_read(&d->stats, phase, &sum);
	if (err)
		return err;
	for (i = 0; i < WB_REASON_SLOTS; i++) {
		pages += sum.pages[i];
		/* only the reasons that happened: most phases have one */
		if (sum.work[i]) {
			snprintf(name, sizeof(name), "writeback.work_%s",
				 d->reason[i]);
			err = metric_add(m, name, sum.work[i]);
		}
		if (!err && sum.pages[i]) {
			snprintf(name, sizeof(name), "writeback.%s_pages",
				 d->reason[i]);
			err = metric_add(m, name, sum.pages[i]);
		}
		if (err)
			return err;
	}
	err = metric_add(m, "writeback.pages_written", pages);
	if (!err)
		err = metric_add(m, "writeback.events", sum.events);
	if (!err)
		err = wb_add_throttle(d, &sum, m);
	if (!err)
		err = metric_add(m, "writeback.events_dropped",
				 d->skel->bss->writeback_events_dropped[phase]);
	if (!err && phase != FSPROF_PHASE_NONE)
		err = timeline_map_collect(&d->timeline, out,
					   d->hz_known ? wb_timeline_ns :
							 wb_timeline_jiffies,
					   ARRAY_SIZE(wb_timeline_ns));
	return err;
}

static int writeback_event_ring(void *priv)
{
	const struct writeback_domain *d = priv;

	return bpf_map__fd(d->skel->maps.writeback_rare_events);
}

/* a flusher pass: the reason of its work by name */
static void writeback_event_name(void *priv, const struct fsprof_event *raw,
				 struct event_record *rec)
{
	const struct writeback_domain *d = priv;

	if (raw->kind == FSPROF_EV_WB_WORK && raw->aux < WB_REASON_SLOTS)
		snprintf(rec->s[0], sizeof(rec->s[0]), "%s",
			 d->reason[raw->aux]);
}

static void writeback_destroy(void *priv)
{
	if (priv)
		writeback_free(priv);
}

const struct trace_domain_ops writeback_domain = {
	.name = "writeback",
	.charging =
		"a flusher pass: the phase in which it finished writing; a dirty-throttle pause: the phase in which it began",
	.open = writeback_open,
	.loaded = writeback_loaded,
	.attach = writeback_attach,
	.bind = writeback_bind,
	.collect = writeback_collect,
	.event_ring = writeback_event_ring,
	.event_name = writeback_event_name,
	.destroy = writeback_destroy,
};
