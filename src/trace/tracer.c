// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "trace/bpf_group.h"
#include "trace/event_stream.h"
#include "trace/tracer.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/quiet_thread.h"
#include "util/stage.h"

/*
 * How long collect waits for requests of an ended phase to complete: a
 * request that takes longer is stuck, not slow (the hdd model's deepest
 * queue, 128 requests at 150 IOPS, drains in under 1 s).
 */
#define TRACER_SETTLE_MAX_NS 2000000000ULL
#define TRACER_SETTLE_POLL_NS 1000000L

/*
 * Every libbpf load parses the kernel's BTF into two 5.5 MB buffers
 * (6.18), freed after. glibc raises its mmap threshold to the size of a
 * freed mapped block, so from the second parse on they came from the heap
 * and stayed resident: the threshold held at its default keeps them mapped
 * and gives them back (`trace -- true`: peak 22.8 -> 21.7 MB, resident
 * after the loads 11.9 -> 10.6 MB).
 */
#define TRACER_MMAP_THRESHOLD (128 * 1024)

/* adding a domain: a bpf/<d>.bpf.c + src/trace/<d>.c pair and a line here */
static const struct trace_domain_ops *const all_domains[] = {
	&block_domain, &jbd2_domain,  &ext4_domain,  &writeback_domain,
	&xfs_domain,   &btrfs_domain, &sched_domain,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool domain_traces_fstype(const struct trace_domain_ops *ops,
				 const char *fstype)
{
	const char *const *f;

	if (!ops->fstypes || !fstype)
		return true;
	for (f = ops->fstypes; *f; f++)
		if (!strcmp(*f, fstype))
			return true;
	return false;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	/* libbpf's warnings explain a failed load; the rest needs -v */
	if (level != LIBBPF_WARN && log_get_level() < LOG_VERBOSE)
		return 0;
	if (log_get_level() < LOG_NORMAL)
		return 0;
	/* as log.c does: no stderr line inside a line of stdout's */
	fflush(stdout);
	return vfprintf(stderr, fmt, ap);
}

/* with -v: what the verifier went through for each program a load took */
static void tracer_log_verified(const struct bpf_group *g)
{
	struct bpf_program *prog;

	if (log_get_level() < LOG_VERBOSE)
		return;
	bpf_object__for_each_program(prog, bpf_group_object(g)) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		log_debug("tracer: program %s: %u instructions verified",
			  bpf_program__name(prog), info.verified_insns);
	}
}

/* a domain of a loaded group: loaded, attached, or dropped */
static int tracer_attach_domain(struct tracer *t, struct tracer_domain *dom,
				uint64_t load_ns)
{
	const struct trace_domain_ops *ops = dom->ops;
	uint64_t t0 = clock_mono_ns();
	int err = ops->loaded ? ops->loaded(dom->priv) : 0;

	if (err) {
		log_warn("%s domain: after its load: %s", ops->name,
			 strerror_safe(-err));
		goto fail;
	}
	err = ops->attach(dom->priv, t->attached);
	if (err) {
		log_warn("%s domain: nothing attached", ops->name);
		goto fail;
	}
	/* its load is its group's, the same figure for each domain in it */
	log_debug("tracer: %s domain: load %.1f ms, attach %.1f ms", ops->name,
		  (double)load_ns / 1e6, (double)(clock_mono_ns() - t0) / 1e6);
	stage_mark("%s domain attached", ops->name);
	t->dom[t->n++] = *dom;
	return 0;
fail:
	ops->destroy(dom->priv);
	return err;
}

/* the kernel's BTF, parsed for the domains' probes (trace/btf_probe.h) */
struct btf_parse {
	struct kernel_btf btf;
	uint64_t ns;
	int err;
};

static void *btf_parse_run(void *arg)
{
	struct btf_parse *p = arg;
	uint64_t t0 = clock_mono_ns();

	p->err = kernel_btf_load(&p->btf);
	p->ns = clock_mono_ns() - t0;
	return NULL;
}

/*
 * Open the domains of want[] (and, with_extra, the tracer's extra not yet
 * loaded) into a new group, load it once, attach each domain. A group of
 * several that did not load sets *retry (its domains destroyed): the
 * caller loads each alone. A domain alone whose load failed is dropped,
 * or kept unloaded by its load_failed. -errno only when the kernel has no
 * BTF: then nothing can be traced.
 */
static int tracer_load_group(struct tracer *t, const struct trace_config *target,
			     const struct trace_domain_ops *const *want,
			     unsigned int n_want, bool with_extra, bool *retry)
{
	struct tracer_domain opened[TRACER_MAX_DOMAINS];
	struct trace_config cfg = *target;
	unsigned int i, n = 0, n_before = t->n;
	uint64_t t0 = clock_mono_ns(), load_ns;
	struct btf_parse parse;
	struct bpf_group *g;
	bool extra = false, threaded;
	pthread_t parser;
	int err, open_errno;

	*retry = false;
	if (t->n_groups == TRACER_MAX_GROUPS) {
		log_warn("tracer: %u BPF objects loaded already: no more",
			 t->n_groups);
		return 0;
	}
	/* the kernel's BTF parsed beside the object's open: neither needs
	 * the other (4-6 ms each here) */
	threaded = !quiet_thread_start(&parser, btf_parse_run, &parse,
				       "fsprof-btf");
	if (!threaded)
		btf_parse_run(&parse);
	g = bpf_group_open(&t->phase_map);
	open_errno = errno;
	if (threaded)
		pthread_join(parser, NULL);
	err = parse.err;
	if (err) {
		log_error(
			"kernel has no BTF at /sys/kernel/btf/vmlinux (%s): fsprof needs a kernel built with CONFIG_DEBUG_INFO_BTF",
			strerror_safe(-err));
		if (g)
			bpf_group_free(g);
		return err;
	}
	cfg.btf = &parse.btf;
	log_debug("tracer: kernel BTF parsed in %.1f ms",
		  (double)parse.ns / 1e6);
	if (!g) {
		log_warn("tracer: open the BPF object: %s",
			 strerror_safe(open_errno));
		kernel_btf_free(&parse.btf);
		return 0;
	}
	for (i = 0; i < n_want; i++) {
		const struct trace_domain_ops *ops = want[i];
		uint64_t t1 = clock_mono_ns();
		void *priv = NULL;

		err = ops->open(&priv, g->skel, &cfg);
		log_debug("tracer: %s domain: open %.1f ms", ops->name,
			  (double)(clock_mono_ns() - t1) / 1e6);
		if (err) {
			log_warn("%s domain: open: %s", ops->name,
				 strerror_safe(-err));
			continue;
		}
		memset(&opened[n], 0, sizeof(opened[0]));
		opened[n].ops = ops;
		opened[n].group = g;
		opened[n++].priv = priv;
	}
	/* freed before libbpf parses the kernel's BTF for its own load */
	kernel_btf_free(&parse.btf);
	if (with_extra && t->extra.open && !t->extra_done)
		extra = !t->extra.open(t->extra.arg, g->skel);
	stage_mark("domains opened");
	if (!n && !extra) {
		bpf_group_free(g);
		return 0;
	}
	t0 = clock_mono_ns();
	err = bpf_group_load(g);
	load_ns = clock_mono_ns() - t0;
	log_debug("tracer: one load of %u domain(s)%s in %.1f ms", n,
		  extra ? " and the phase marker" : "", (double)load_ns / 1e6);
	stage_mark("domains loaded");
	if (err && n + extra > 1) {
		log_debug(
			"tracer: %u domains%s in one object did not load (%s): each alone",
			n, extra ? " and the phase marker" : "",
			strerror_safe(-err));
		for (i = 0; i < n; i++)
			opened[i].ops->destroy(opened[i].priv);
		bpf_group_free(g);
		*retry = true;
		return 0;
	}
	if (extra)
		t->extra_done = true;
	if (extra && err)
		t->extra.loaded(t->extra.arg, NULL, err);
	for (i = 0; i < n; i++) {
		const struct trace_domain_ops *ops = opened[i].ops;

		if (err && !(ops->load_failed &&
			     !ops->load_failed(opened[i].priv, err))) {
			log_warn(
				"%s domain: load into the kernel: %s (run with -v for the verifier log)",
				ops->name, strerror_safe(-err));
			ops->destroy(opened[i].priv);
			continue;
		}
		tracer_attach_domain(t, &opened[i], load_ns);
	}
	if (t->n == n_before && (!extra || err)) {
		bpf_group_free(g);
		return 0;
	}
	/*
	 * attached with every target setting 0: counting nothing. Without
	 * that image its domains could not be turned off between cases.
	 */
	err = bpf_group_save(g);
	if (err) {
		log_warn("tracer: keep the programs' state as loaded: %s; %u domain(s) dropped",
			 strerror_safe(-err), t->n - n_before);
		while (t->n > n_before) {
			t->n--;
			t->dom[t->n].ops->destroy(t->dom[t->n].priv);
		}
		if (extra)
			t->extra.loaded(t->extra.arg, NULL, err);
		bpf_group_free(g);
		return 0;
	}
	tracer_log_verified(g);
	selfcost_add_object(&t->self, bpf_group_object(g));
	t->group[t->n_groups++] = g;
	if (extra)
		t->extra.loaded(t->extra.arg, g->skel, 0);
	return 0;
}

int tracer_start(struct tracer *t)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->self.stats_fd = -1;
	t->phase_map.fd = -1;
	mallopt(M_MMAP_THRESHOLD, TRACER_MMAP_THRESHOLD);
	libbpf_set_print(libbpf_print);
	t->attached = calloc(1, sizeof(*t->attached));
	if (!t->attached)
		return -ENOMEM;
	err = phase_map_create(&t->phase_map);
	if (err) {
		free(t->attached);
		t->attached = NULL;
		return err;
	}
	selfcost_start(&t->self);
	t->started = true;
	return 0;
}

void tracer_set_extra(struct tracer *t, const struct tracer_extra *x)
{
	t->extra = *x;
	t->extra_done = false;
}

int tracer_load(struct tracer *t, const struct trace_config *cfg)
{
	const struct trace_domain_ops *want[TRACER_MAX_DOMAINS];
	unsigned int i, n = 0, n_before = t->n;
	uint64_t t0 = clock_mono_ns();
	bool retry;
	int err;

	for (i = 0; i < ARRAY_SIZE(all_domains); i++) {
		if (t->tried & 1u << i ||
		    !domain_traces_fstype(all_domains[i], cfg->fstype))
			continue; /* loaded already, or no xfs events on ext4 */
		t->tried |= 1u << i;
		want[n++] = all_domains[i];
	}
	if (!n)
		return 0; /* all there */
	/* one object for all: one libbpf load (trace/bpf_group.h) */
	err = tracer_load_group(t, cfg, want, n, true, &retry);
	for (i = 0; !err && retry && i <= n; i++) {
		bool alone; /* a group of one is not tried again */

		/* each domain, then the extra, alone */
		err = i < n ? tracer_load_group(t, cfg, &want[i], 1, false,
						&alone) :
			      tracer_load_group(t, cfg, NULL, 0, true, &alone);
	}
	if (err)
		return err; /* no kernel BTF: said */
	log_debug("tracer: %u domain(s) loaded in %.1f ms", t->n - n_before,
		  (double)(clock_mono_ns() - t0) / 1e6);
	return 0;
}

/* a loaded domain that sits the case out (its bind refused the target) */
static bool domain_sits_out(const struct tracer *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->dom[i].ops->name, name))
			return !t->dom[i].bound;
	return false;
}

/*
 * the outcomes of the programs of the case's domains (fstype's), but for
 * a domain that sits the case out
 */
static void case_programs(const struct tracer *t, const char *fstype,
			  struct attach_list *programs)
{
	unsigned int i, d;

	programs->n = 0;
	for (i = 0; t->attached && i < t->attached->n; i++) {
		const struct attach_record *r = &t->attached->v[i];
		struct attach_record *to;

		for (d = 0; d < ARRAY_SIZE(all_domains); d++)
			if (!strcmp(all_domains[d]->name, r->domain))
				break;
		if (d < ARRAY_SIZE(all_domains) &&
		    !domain_traces_fstype(all_domains[d], fstype))
			continue;
		if (domain_sits_out(t, r->domain))
			continue;
		to = attach_list_add(programs);
		if (!to)
			return;
		*to = *r;
	}
}

/* a stream of the bound domains' rings, for the case */
static void tracer_start_events(struct tracer *t)
{
	struct event_source src[TRACER_MAX_DOMAINS];
	unsigned int i, n = 0;

	for (i = 0; i < t->n; i++)
		if (t->dom[i].bound)
			src[n++] = (struct event_source){ t->dom[i].ops,
							  t->dom[i].priv };
	event_stream_start(&t->events, src, n);
}

static int tracer_off_step(void *arg)
{
	tracer_off(arg);
	return 0;
}

/*
 * A case begins: each group's maps emptied when a case counted into them
 * (loaded for this one, they are as made: empty), and its globals as after
 * attach, every domain in it off. A group that could not be emptied sits
 * the case out.
 */
static void tracer_groups_reset(struct tracer *t)
{
	unsigned int i;

	for (i = 0; i < t->n_groups; i++) {
		struct bpf_group *g = t->group[i];
		int err = 0;

		if (g->used)
			err = domain_state_reset(&g->state,
						 bpf_group_object(g));
		else
			domain_state_restore(&g->state);
		g->ready = !g->used || !err;
		if (!g->ready) {
			domain_state_restore(&g->state);
			log_warn("tracer: empty the counts for the case: %s",
				 strerror_safe(-err));
		}
	}
}

/*
 * the case's target: the domain counts. A bind that fails leaves the
 * domain off: a domain sets what turns its programs on last.
 */
static int tracer_bind_domain(struct tracer_domain *dom,
			      const struct trace_config *cfg)
{
	const struct trace_domain_ops *ops = dom->ops;
	uint64_t t0 = clock_mono_ns();
	int err;

	if (!domain_traces_fstype(ops, cfg->fstype))
		return -ENOENT;
	if (!dom->group->ready)
		return -EIO;
	err = ops->bind(dom->priv, cfg);
	if (err)
		return err;
	dom->bound = dom->group->used = true;
	log_debug("tracer: %s domain: bound in %.1f ms", ops->name,
		  (double)(clock_mono_ns() - t0) / 1e6);
	return 0;
}

int tracer_bind(struct tracer *t, const struct trace_config *cfg,
		struct attach_list *programs, struct teardown *td)
{
	uint64_t t0 = clock_mono_ns();
	unsigned int i, n = 0;
	int err;

	err = tracer_load(t, cfg);
	if (err)
		return err;
	tracer_off(t);
	err = teardown_push(td, tracer_off_step, t, "stop counting");
	if (err)
		return err;
	/* the case's phases start from 1 again, at 0 until the first */
	t->phase = FSPROF_PHASE_NONE;
	phase_map_publish(&t->phase_map, FSPROF_PHASE_NONE, clock_mono_ns());
	selfcost_case_start(&t->self);
	tracer_groups_reset(t);
	for (i = 0; i < t->n; i++)
		n += !tracer_bind_domain(&t->dom[i], cfg);
	case_programs(t, cfg->fstype, programs);
	if (!n)
		log_warn(
			"no kernel domain could be traced; only user-side metrics will be reported");
	tracer_start_events(t);
	log_debug("tracer: bound to the case in %.1f ms",
		  (double)(clock_mono_ns() - t0) / 1e6);
	return 0;
}

void tracer_off(struct tracer *t)
{
	unsigned int i;

	/* the rings are the domains' maps: stop reading them first */
	event_stream_free(t->events);
	t->events = NULL;
	/* every domain's globals as after attach: all off */
	for (i = 0; i < t->n_groups; i++)
		domain_state_restore(&t->group[i]->state);
	for (i = 0; i < t->n; i++) {
		struct tracer_domain *dom = &t->dom[i];

		if (!dom->bound)
			continue;
		if (dom->ops->unbind)
			dom->ops->unbind(dom->priv);
		dom->bound = false;
	}
}

/*
 * The switch a program reads is stamped here, just before it is published:
 * the phase's window (its start_mono_ns and end_mono_ns) is then exactly
 * the stretch the programs charge to it. A stamp taken before the boundary
 * work (the peers' reads, up to JBD2_PEER_SETTLE_MS) left that work's
 * waits of the main thread inside the window but charged elsewhere.
 */
static uint64_t tracer_switch(struct tracer *t, unsigned int phase,
			      bool publish)
{
	unsigned int i, from = t->phase;
	uint64_t at_ns = 0;

	/* the cost samples bracket the window the programs charge to phase */
	if (phase)
		selfcost_phase_begin(&t->self);
	for (i = 0; i < t->n; i++)
		if (t->dom[i].bound && t->dom[i].ops->phase_before)
			t->dom[i].ops->phase_before(t->dom[i].priv, from, phase,
						    publish);
	if (publish) {
		at_ns = clock_mono_ns();
		phase_map_publish(&t->phase_map, phase, at_ns);
	}
	for (i = 0; i < t->n; i++)
		if (t->dom[i].bound && t->dom[i].ops->phase_after)
			t->dom[i].ops->phase_after(t->dom[i].priv, from, phase,
						   publish);
	if (!phase)
		selfcost_phase_end(&t->self, from);
	t->phase = phase;
	return at_ns;
}

uint64_t tracer_set_phase(struct tracer *t, unsigned int phase)
{
	return tracer_switch(t, phase, true);
}

void tracer_phase_switched(struct tracer *t, unsigned int phase)
{
	tracer_switch(t, phase, false);
}

void tracer_remount(struct tracer *t, bool mounted)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->dom[i].bound && t->dom[i].ops->remount)
			t->dom[i].ops->remount(t->dom[i].priv, mounted);
}

static unsigned int tracer_in_flight(struct tracer *t, unsigned int phase)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->n; i++)
		if (t->dom[i].bound && t->dom[i].ops->in_flight)
			n += t->dom[i].ops->in_flight(t->dom[i].priv, phase);
	return n;
}

/* wait for what phase still has in flight; what is left after the bound */
static unsigned int tracer_settle(struct tracer *t, unsigned int phase)
{
	const struct timespec poll = { 0, TRACER_SETTLE_POLL_NS };
	uint64_t deadline = clock_mono_ns() + TRACER_SETTLE_MAX_NS;
	unsigned int n;

	while ((n = tracer_in_flight(t, phase)) && clock_mono_ns() < deadline)
		nanosleep(&poll, NULL);
	return n;
}

int tracer_collect(struct tracer *t, unsigned int phase,
		   struct phase_result *out)
{
	unsigned int i;
	int err, first = 0;

	if (phase != FSPROF_PHASE_NONE && phase != t->phase)
		out->block.inflight_at_end = tracer_settle(t, phase);
	/*
	 * the spill is collected last, when the case's IO is over: its
	 * requests the kernel lost are counted now (no wait: a request still
	 * in flight is the teardown's). Added to: a traced command's prelude
	 * was collected into the spill before.
	 */
	if (phase == FSPROF_PHASE_NONE)
		out->block.inflight_at_end += tracer_in_flight(t, phase);
	for (i = 0; i < t->n; i++) {
		if (!t->dom[i].bound)
			continue;
		err = t->dom[i].ops->collect(t->dom[i].priv, phase, out);
		if (err && !first) {
			log_warn("%s domain: collect phase %u: %s",
				 t->dom[i].ops->name, phase,
				 strerror_safe(-err));
			first = err;
		}
	}
	err = selfcost_collect(&t->self, phase, &out->metrics);
	if (err && !first)
		first = err;
	return first;
}

int tracer_take_events(struct tracer *t, struct event_list *list)
{
	return event_stream_take(t->events, list);
}

void tracer_charging(const struct tracer *t, struct charging_list *out)
{
	unsigned int i;

	out->n = 0;
	for (i = 0; i < t->n && out->n < RESULTS_MAX_DOMAINS; i++) {
		const struct trace_domain_ops *ops = t->dom[i].ops;

		if (!t->dom[i].bound)
			continue;
		snprintf(out->v[out->n].domain, sizeof(out->v[0].domain), "%s",
			 ops->name);
		snprintf(out->v[out->n].rule, sizeof(out->v[0].rule), "%s",
			 ops->charging ? ops->charging : "");
		out->n++;
	}
}

void tracer_stop(struct tracer *t)
{
	if (!t->started)
		return;
	tracer_off(t);
	while (t->n > 0) {
		t->n--;
		t->dom[t->n].ops->destroy(t->dom[t->n].priv);
	}
	while (t->n_groups > 0)
		bpf_group_free(t->group[--t->n_groups]);
	selfcost_stop(&t->self);
	phase_map_close(&t->phase_map);
	free(t->attached);
	t->attached = NULL;
	t->started = false;
}
