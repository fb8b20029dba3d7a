// SPDX-License-Identifier: GPL-2.0
/*
 * XFS domain, user side: see bpf/xfs.bpf.c. Besides the BPF counts it reads
 * XFS's own counters (/sys/fs/xfs/<dev>/stats/stats) at every phase switch,
 * so each phase carries the kernel's count of log writes and forces next to
 * the traced one (xfs.sysfs_*), and names the callers of log forces from
 * /proc/kallsyms.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "fsprof/xfs.h"
#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/percpu.h"
#include "trace/kallsyms.h"
#include "trace/timeline.h"
#include "trace/xfs_callers.h"
#include "trace/xfs_sysfs.h"
#include "util/kdev.h"
#include "util/log.h"

#define XFS_MAX_PROGS 32
#define XFS_MAX_CALLERS 128
#define XFS_EVENT_LEN 64

/* the counters' metric names, from include/fsprof/xfs.h's list */
#define XFS_CTR_NAME(id, metric) [XFS_CTR_##id] = "xfs." #metric,

static const char *const counter_names[XFS_CTR_NR] = { XFS_COUNTERS(
	XFS_CTR_NAME) };

static const char *const hist_names[XFS_HIST_NR] = {
	[XFS_HIST_LOG_WRITE_BYTES] = "xfs.log_write_bytes",
	[XFS_HIST_LOG_WRITE_NS] = "xfs.log_write_ns",
	[XFS_HIST_GRANT_SLEEP_NS] = "xfs.log_grant_sleep_ns",
	[XFS_HIST_ALLOC_BLOCKS] = "xfs.alloc_extent_blocks",
};

/* a caller_ip seen in a log force, named once */
struct force_caller_name {
	uint64_t ip;
	enum xfs_force_class class;
	char function[KSYM_NAME_LEN];
};

struct xfs_domain {
	struct fsprof_bpf *skel;
	struct percpu_stats counts; /* xfs_counts, one per phase */
	struct percpu_stats hists; /* xfs_hists, XFS_HIST_NR per phase */

	unsigned int n_progs;
	struct bpf_program *progs[XFS_MAX_PROGS];
	struct bpf_link *links[XFS_MAX_PROGS];
	char events[XFS_MAX_PROGS][XFS_EVENT_LEN]; /* "xfs:xfs_log_force" */
	bool missing[XFS_MAX_PROGS];

	/* XFS's own counters, the peer of the BPF counts */
	bool have_sysfs;
	char sysfs_path[PATH_MAX];
	unsigned int sysfs_phase; /* the phase whose begin is sysfs_begin */
	bool sysfs_begin_exact; /* read at the programs' boundary */
	/* a phase's delta is unknown, or the target was mounted again (its
	 * statistics restarted): so is the spill's */
	bool sysfs_lost;
	struct xfs_sysfs_stats sysfs_open, sysfs_begin;
	bool sysfs_have[FSPROF_MAX_PHASES];
	struct xfs_sysfs_stats sysfs_phase_delta[FSPROF_MAX_PHASES];

	unsigned int n_callers;
	struct force_caller_name callers[XFS_MAX_CALLERS];

	struct timeline_map timeline;
};

/* the timeline's series (log_force_events: both halves of each force) */
static const struct timeline_field xfs_timeline[] = {
	{ "xfs.log_writes", offsetof(struct xfs_tl_bin, log_writes) },
	{ "xfs.log_force_events",
	  offsetof(struct xfs_tl_bin, log_force_events) },
};

/* "tracepoint/xfs/xfs_log_force" -> "xfs_log_force" */
static const char *prog_event(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);
	const char *slash = strrchr(sec, '/');

	return slash ? slash + 1 : sec;
}

static void xfs_domain_free(struct xfs_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->n_progs; i++) {
		bpf_link__destroy(d->links[i]);
		d->links[i] = NULL;
	}
	timeline_map_close(&d->timeline);
	percpu_stats_fini(&d->counts);
	percpu_stats_fini(&d->hists);
	free(d);
}

/* what a pointer argument points to, by the name of its struct */
static const struct {
	const char *type;
	enum xfs_arg_kind kind;
} arg_types[] = {
	{ "xfs_mount", XFS_ARG_MOUNT },	      { "xfs_ail", XFS_ARG_AIL },
	{ "xfs_log_item", XFS_ARG_LOG_ITEM }, { "xfs_perag", XFS_ARG_PERAG },
	{ "xfs_group", XFS_ARG_GROUP },
};

/* the kind of the first argument of event, from its BTF prototype */
static enum xfs_arg_kind first_arg_kind(const struct kernel_btf *kb,
					const char *event)
{
	const struct btf *btf;
	const struct btf_type *t = btf_tracepoint_arg(kb, event, 0, &btf);
	const char *name;
	size_t i;

	if (t && btf_is_int(t))
		return XFS_ARG_DEV;
	if (!t || !btf_is_ptr(t))
		return XFS_ARG_UNKNOWN;
	t = btf__type_by_id(btf, btf__resolve_type(btf, t->type));
	name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	for (i = 0; name && i < sizeof(arg_types) / sizeof(arg_types[0]); i++)
		if (!strcmp(name, arg_types[i].type))
			return arg_types[i].kind;
	return XFS_ARG_UNKNOWN;
}

/*
 * Set the argument kind of the events whose first argument changed between
 * kernels; false when this kernel's is one the BPF side cannot read.
 */
static bool xfs_set_arg_kind(struct xfs_domain *d,
			     const struct trace_config *cfg, const char *event)
{
	enum xfs_arg_kind kind;

	if (strncmp(event, "xfs_ail_", 8) &&
	    strcmp(event, "xfs_extent_busy_force"))
		return true;
	kind = first_arg_kind(cfg->btf, event);
	if (kind == XFS_ARG_UNKNOWN) {
		log_warn(
			"xfs domain: tracepoint %s takes a first argument fsprof cannot read: not traced",
			event);
		return false;
	}
	if (!strncmp(event, "xfs_ail_", 8))
		d->skel->rodata->ail_arg = kind;
	else
		d->skel->rodata->busy_arg = kind;
	return true;
}

/* the object's programs on XFS's tracepoints are this domain's */
static bool xfs_event(const char *event)
{
	return !strncmp(event, "xfs_", 4) || !strncmp(event, "xlog_", 5);
}

/* autoload only the programs whose tracepoint this kernel has */
static void xfs_probe_events(struct xfs_domain *d,
			     const struct trace_config *cfg)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, d->skel->obj) {
		unsigned int i = d->n_progs;
		const char *event = prog_event(prog);

		if (!xfs_event(event))
			continue;
		if (i == XFS_MAX_PROGS) {
			log_warn("xfs domain: more than %d programs: %s not traced",
				 XFS_MAX_PROGS, bpf_program__name(prog));
			continue;
		}
		d->progs[i] = prog;
		snprintf(d->events[i], sizeof(d->events[i]), "xfs:%s", event);
		d->missing[i] = btf_tracepoint_nargs(cfg->btf, event) < 0 ||
				!xfs_set_arg_kind(d, cfg, event);
		bpf_program__set_autoload(prog, !d->missing[i]);
		d->n_progs++;
	}
}

/* record XFS's counters at open, the base of the between-phases share */
static void xfs_sysfs_open(struct xfs_domain *d, unsigned int kernel_dev)
{
	int err;

	err = xfs_sysfs_stats_path(kernel_dev, d->sysfs_path,
				   sizeof(d->sysfs_path));
	if (!err)
		err = xfs_sysfs_stats_read(d->sysfs_path, &d->sysfs_open);
	d->have_sysfs = !err;
	if (err)
		log_debug(
			"xfs domain: no XFS statistics for device %u:%u (%s): not an XFS target, xfs.sysfs_* left out",
			kdev_major(kernel_dev), kdev_minor(kernel_dev),
			strerror_safe(-err));
}

static int xfs_open(void **priv, struct fsprof_bpf *skel,
			 const struct trace_config *cfg)
{
	static const size_t hist_max[] = { offsetof(struct hist_counts, max) };
	struct xfs_domain *d = calloc(1, sizeof(*d));
	int err;

	if (!d)
		return -ENOMEM;
	d->skel = skel;
	err = percpu_stats_init(&d->counts, d->skel->maps.xfs_counts,
				sizeof(struct xfs_counts), NULL, 0);
	if (!err)
		err = percpu_stats_init(&d->hists, d->skel->maps.xfs_hists,
					sizeof(struct hist_counts), hist_max,
					1);
	if (err) {
		xfs_domain_free(d);
		return err;
	}
	d->skel->rodata->tl_bin_ns = timeline_bin_ns(cfg->bin_ns);
	xfs_probe_events(d, cfg);
	*priv = d;
	return 0;
}

static int xfs_loaded(void *priv)
{
	struct xfs_domain *d = priv;

	return timeline_map_open(&d->timeline, d->skel->maps.xfs_timeline,
				 d->skel->rodata->tl_bin_ns);
}

static int xfs_attach(void *priv, struct attach_list *list)
{
	struct program_slot slots[XFS_MAX_PROGS];
	struct xfs_domain *d = priv;
	unsigned int n;

	for (n = 0; n < d->n_progs; n++) {
		slots[n].prog = d->progs[n];
		slots[n].link = &d->links[n];
		slots[n].event = d->events[n];
		slots[n].missing = d->missing[n];
	}
	return attach_programs("xfs", slots, (int)n, list) > 0 ? 0 : -ENOENT;
}

/* a case: XFS's counters of its target read first, then the programs on */
static int xfs_bind(void *priv, const struct trace_config *cfg)
{
	struct xfs_domain *d = priv;

	d->sysfs_phase = FSPROF_PHASE_NONE;
	d->sysfs_begin_exact = d->sysfs_lost = false;
	memset(d->sysfs_have, 0, sizeof(d->sysfs_have));
	d->n_callers = 0;
	xfs_sysfs_open(d, cfg->kernel_dev);
	__atomic_store_n(&d->skel->bss->xfs_targ_dev, cfg->kernel_dev,
			 __ATOMIC_RELEASE);
	return 0;
}

static void xfs_sysfs_snapshot(struct xfs_domain *d,
			       struct xfs_sysfs_stats *out)
{
	int err = xfs_sysfs_stats_read(d->sysfs_path, out);

	if (err) {
		log_warn("xfs domain: read %s: %s; xfs.sysfs_* left out",
			 d->sysfs_path, strerror_safe(-err));
		d->have_sysfs = false;
	}
}

/*
 * XFS's counters are read inside the window the BPF side charges to the
 * phase (after the switch to it, before the switch back), so both counts
 * cover the same work. A phase the kernel switched to or from before these
 * hooks ran (exact false: a traced command's marker) has no sysfs delta,
 * and then neither has the spill, which is the whole less the phases'.
 */
static void xfs_phase_after(void *priv, unsigned int from, unsigned int to,
			    bool exact)
{
	struct xfs_domain *d = priv;

	(void)from;
	if (to == FSPROF_PHASE_NONE || !d->have_sysfs ||
	    to >= FSPROF_MAX_PHASES)
		return;
	xfs_sysfs_snapshot(d, &d->sysfs_begin);
	d->sysfs_phase = to;
	d->sysfs_begin_exact = exact;
}

static void xfs_phase_before(void *priv, unsigned int from, unsigned int to,
			     bool exact)
{
	struct xfs_domain *d = priv;
	struct xfs_sysfs_stats end, delta;

	(void)from;
	if (to != FSPROF_PHASE_NONE)
		return;
	if (d->have_sysfs && d->sysfs_phase != FSPROF_PHASE_NONE) {
		xfs_sysfs_snapshot(d, &end);
		if (exact && d->sysfs_begin_exact) {
			xfs_sysfs_stats_delta(&d->sysfs_begin, &end, &delta);
			d->sysfs_phase_delta[d->sysfs_phase] = delta;
			d->sysfs_have[d->sysfs_phase] = true;
		} else {
			d->sysfs_lost = true;
		}
	}
	d->sysfs_phase = FSPROF_PHASE_NONE;
}

/*
 * A mount again starts XFS's statistics from zero, and its unmount writes
 * the unmount record after they were last readable: the spill's peer is
 * no longer known and is left out; the phases' peers, read inside each
 * phase, are not touched.
 */
static void xfs_remount(void *priv, bool mounted)
{
	struct xfs_domain *d = priv;

	if (!mounted && d->have_sysfs)
		log_debug(
			"xfs domain: the target is mounted again: the spill's xfs.sysfs_* left out");
	d->sysfs_lost = true;
}

static int xfs_collect_counts(struct xfs_domain *d, unsigned int phase,
			      struct metric_set *m)
{
	struct xfs_counts sums;
	const unsigned long long *sum = sums.ctr;
	unsigned int c;
	int err;

	err = percpu_stats_read(&d->counts, phase, &sums);
	if (err)
		return err;
	for (c = 0; c < XFS_CTR_NR; c++) {
		/* the headline count exists, even at 0, on an XFS target */
		bool always = c == XFS_CTR_LOG_WRITES && d->have_sysfs;

		/* log forces are reported by caller class */
		if (c == XFS_CTR_LOG_FORCE_EVENTS || (!sum[c] && !always))
			continue;
		err = metric_add(m, counter_names[c], sum[c]);
		if (err)
			return err;
	}
	return 0;
}

static int xfs_collect_hists(struct xfs_domain *d, unsigned int phase,
			     struct metric_set *m)
{
	struct hist_counts sum;
	unsigned int h;
	int err = 0;

	for (h = 0; h < XFS_HIST_NR && !err; h++) {
		err = percpu_stats_read(&d->hists, xfs_hist_index(phase, h),
					&sum);
		if (!err && sum.count)
			err = metric_hist_add_counts(m, hist_names[h], &sum);
	}
	return err;
}

/* name the callers not seen before, in one pass over /proc/kallsyms */
static void force_callers_name(struct xfs_domain *d, const uint64_t *ips,
			       unsigned int n)
{
	struct ksym_lookup sym[XFS_MAX_CALLERS];
	unsigned int i, j, n_new = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < d->n_callers && d->callers[j].ip != ips[i]; j++)
			;
		if (j == d->n_callers && n_new + d->n_callers < XFS_MAX_CALLERS)
			sym[n_new++].addr = ips[i];
	}
	if (!n_new)
		return;
	if (kallsyms_resolve("/proc/kallsyms", sym, n_new) < 0)
		for (i = 0; i < n_new; i++)
			sym[i].found = false;
	for (i = 0; i < n_new; i++) {
		struct force_caller_name *c = &d->callers[d->n_callers++];

		c->ip = sym[i].addr;
		c->class = XFS_FORCE_OTHER;
		c->function[0] = '\0';
		if (!sym[i].found)
			continue;
		snprintf(c->function, sizeof(c->function), "%s", sym[i].name);
		c->class = xfs_force_class_of(sym[i].name);
	}
}

static const struct force_caller_name *
force_caller_find(const struct xfs_domain *d, uint64_t ip)
{
	unsigned int i;

	for (i = 0; i < d->n_callers; i++)
		if (d->callers[i].ip == ip)
			return &d->callers[i];
	return NULL;
}

/* the (caller_ip, events) pairs of phase from the BPF map */
static unsigned int force_events_of_phase(struct xfs_domain *d,
					  unsigned int phase, uint64_t *ips,
					  uint64_t *events, unsigned int max)
{
	int fd = bpf_map__fd(d->skel->maps.xfs_force_callers);
	struct xfs_force_key key, next, *prev = NULL;
	unsigned int n = 0;
	__u64 count;

	while (n < max && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (key.phase != phase || bpf_map_lookup_elem(fd, &key, &count))
			continue;
		ips[n] = key.caller_ip;
		events[n++] = count;
	}
	return n;
}

/*
 * Log forces of phase: xfs.log_forces counts the CIL half that every
 * xfs_log_force()/xfs_log_force_seq() call fires exactly once, which is what
 * XFS's own xs_log_force counts. xfs.log_force_<class> counts the requests
 * by who made them; xfsaild's CIL flushes (xlog_cil_flush, no wait for the
 * log) fire the event too, so the classes can add up to more than the
 * forces. Without symbol addresses (kptr_restrict) nothing can be told
 * apart: the raw events are reported instead.
 */
static int xfs_collect_forces(struct xfs_domain *d, unsigned int phase,
			      struct metric_set *m)
{
	uint64_t per_class[XFS_FORCE_CLASS_NR] = { 0 }, forces = 0;
	uint64_t ips[XFS_MAX_CALLERS], events[XFS_MAX_CALLERS];
	uint64_t unresolved = 0;
	char name[METRIC_NAME_LEN];
	unsigned int i, n;
	int err = 0;

	n = force_events_of_phase(d, phase, ips, events, XFS_MAX_CALLERS);
	force_callers_name(d, ips, n);
	for (i = 0; i < n; i++) {
		const struct force_caller_name *c =
			force_caller_find(d, ips[i]);

		if (!c || !c->function[0]) {
			unresolved += events[i];
			continue;
		}
		per_class[c->class] += events[i];
		if (c->class == XFS_FORCE_OTHER)
			log_debug(
				"xfs domain: phase %u: %llu log forces from %s",
				phase, (unsigned long long)events[i],
				c->function);
	}
	forces = per_class[XFS_FORCE_CIL];
	for (i = 0; i < XFS_FORCE_CLASS_NR; i++) {
		if (i == XFS_FORCE_CIL || !per_class[i])
			continue;
		snprintf(name, sizeof(name), "xfs.log_force_%s",
			 xfs_force_class_name(i));
		err = err ?: metric_add(m, name, per_class[i]);
	}
	if (!unresolved && (forces || d->have_sysfs))
		err = err ?: metric_add(m, "xfs.log_forces", forces);
	if (unresolved)
		err = err   ?:
			      metric_add(m, "xfs.log_force_events_unresolved",
					 unresolved);
	return err;
}

static int xfs_sysfs_add(struct metric_set *m, const struct xfs_sysfs_stats *s)
{
	int err;

	err = metric_add(m, "xfs.sysfs_log_writes", s->log_writes);
	err = err   ?:
		      metric_add(m, "xfs.sysfs_log_bytes",
				 (uint64_t)s->log_blocks * 512);
	err = err ?: metric_add(m, "xfs.sysfs_log_forces", s->log_forces);
	if (s->sleep_logspace)
		err = err   ?:
			      metric_add(m, "xfs.sysfs_log_grant_sleeps",
					 s->sleep_logspace);
	return err;
}

/*
 * XFS's counters for phase; for phase 0, what changed since open outside
 * every phase (phase 0 is collected last).
 */
static int xfs_collect_sysfs(struct xfs_domain *d, unsigned int phase,
			     struct metric_set *m)
{
	struct xfs_sysfs_stats now, spill;
	unsigned int p;

	if (!d->have_sysfs || phase >= FSPROF_MAX_PHASES)
		return 0;
	if (phase != FSPROF_PHASE_NONE)
		return d->sysfs_have[phase] ?
			       xfs_sysfs_add(m, &d->sysfs_phase_delta[phase]) :
			       0;
	if (d->sysfs_lost)
		return 0;
	if (xfs_sysfs_stats_read(d->sysfs_path, &now))
		return 0;
	xfs_sysfs_stats_delta(&d->sysfs_open, &now, &spill);
	for (p = 1; p < FSPROF_MAX_PHASES; p++) {
		const struct xfs_sysfs_stats *in = &d->sysfs_phase_delta[p];

		spill.log_writes -= in->log_writes;
		spill.log_blocks -= in->log_blocks;
		spill.log_forces -= in->log_forces;
		spill.sleep_logspace -= in->sleep_logspace;
	}
	return xfs_sysfs_add(m, &spill);
}

static int xfs_collect(void *priv, unsigned int phase, struct phase_result *out)
{
	struct xfs_domain *d = priv;
	int err;

	if (phase >= FSPROF_MAX_PHASES)
		return -EINVAL;
	err = xfs_collect_counts(d, phase, &out->metrics);
	err = err ?: xfs_collect_forces(d, phase, &out->metrics);
	err = err ?: xfs_collect_hists(d, phase, &out->metrics);
	err = err ?: xfs_collect_sysfs(d, phase, &out->metrics);
	err = err   ?:
		      metric_add(&out->metrics, "xfs.events_dropped",
				 d->skel->bss->xfs_events_dropped[phase]);
	if (!err && phase != FSPROF_PHASE_NONE)
		err = timeline_map_collect(&d->timeline, out, xfs_timeline,
					   sizeof(xfs_timeline) /
						   sizeof(xfs_timeline[0]));
	return err;
}

static int xfs_event_ring(void *priv)
{
	const struct xfs_domain *d = priv;

	return bpf_map__fd(d->skel->maps.xfs_rare_events);
}

/*
 * A log force event: who asked, by class and function (the "cil" class is
 * the second event every force fires: one per force, see xfs_callers.h).
 */
static void xfs_event_name(void *priv, const struct fsprof_event *raw,
			   struct event_record *rec)
{
	struct xfs_domain *d = priv;
	const struct force_caller_name *c;
	uint64_t ip = raw->v[1];

	if (raw->kind != FSPROF_EV_XFS_LOG_FORCE)
		return;
	force_callers_name(d, &ip, 1);
	c = force_caller_find(d, ip);
	if (!c || !c->function[0]) {
		snprintf(rec->s[0], sizeof(rec->s[0]), "unresolved");
		return;
	}
	snprintf(rec->s[0], sizeof(rec->s[0]), "%s",
		 xfs_force_class_name(c->class));
	snprintf(rec->s[1], sizeof(rec->s[1]), "%.*s",
		 (int)sizeof(rec->s[1]) - 1, c->function);
}

static void xfs_destroy(void *priv)
{
	if (priv)
		xfs_domain_free(priv);
}

static const char *const xfs_fstypes[] = { "xfs", NULL };

const struct trace_domain_ops xfs_domain = {
	.fstypes = xfs_fstypes,
	.name = "xfs",
	.charging =
		"an event: the phase running when it fired; a log write or grant sleep (and its latency): the phase in which it started",
	.open = xfs_open,
	.loaded = xfs_loaded,
	.attach = xfs_attach,
	.bind = xfs_bind,
	.phase_before = xfs_phase_before,
	.phase_after = xfs_phase_after,
	.remount = xfs_remount,
	.collect = xfs_collect,
	.event_ring = xfs_event_ring,
	.event_name = xfs_event_name,
	.destroy = xfs_destroy,
};
