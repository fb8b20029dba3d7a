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

#include "trace/event_stream.h"
#include "trace/tracer.h"
#include "util/clock.h"
#include "util/log.h"
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

/* with -v: what the verifier went through for each program it loaded */
static void tracer_log_verified(const struct trace_domain_ops *ops, void *priv)
{
	const struct bpf_object *obj = ops->object(priv);
	struct bpf_program *prog;

	if (log_get_level() < LOG_VERBOSE || !obj)
		return;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		log_debug("tracer: %s program %s: %u instructions verified",
			  ops->name, bpf_program__name(prog),
			  info.verified_insns);
	}
}

/* load and attach a domain opened earlier; on failure it is dropped */
/*
 * Domains load one after the other: loading two at once (threads) took 30%
 * off the load time but each libbpf load parses the kernel's BTF (~12 MB at
 * its peak), and two at once put fsprof's peak RSS over 32 MB.
 */
static int tracer_attach_domain(struct tracer *t, struct tracer_domain *dom)
{
	const struct trace_domain_ops *ops = dom->ops;
	uint64_t t0 = clock_mono_ns(), t1;
	int err = ops->load(dom->priv);

	t1 = clock_mono_ns();
	if (err) {
		log_warn(
			"%s domain: load into the kernel: %s (run with -v for the verifier log)",
			ops->name, strerror_safe(-err));
		goto fail;
	}
	err = ops->attach(dom->priv, t->attached);
	if (err) {
		log_warn("%s domain: nothing attached", ops->name);
		goto fail;
	}
	/* attached with every target setting 0: counting nothing */
	err = domain_state_save(&dom->state,
				(struct bpf_object *)ops->object(dom->priv));
	if (err) {
		log_warn("%s domain: keep its state as loaded: %s", ops->name,
			 strerror_safe(-err));
		goto fail;
	}
	log_debug("tracer: %s domain: load %.1f ms, attach %.1f ms", ops->name,
		  (double)(t1 - t0) / 1e6,
		  (double)(clock_mono_ns() - t1) / 1e6);
	stage_mark("%s domain loaded", ops->name);
	tracer_log_verified(ops, dom->priv);
	selfcost_add_object(&t->self, ops->object(dom->priv));
	t->dom[t->n++] = *dom;
	return 0;
fail:
	ops->destroy(dom->priv);
	return err;
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

int tracer_load(struct tracer *t, const struct trace_config *target)
{
	struct tracer_domain opened[TRACER_MAX_DOMAINS];
	struct trace_config cfg = *target;
	unsigned int i, n_opened = 0, n_before = t->n;
	uint64_t t0 = clock_mono_ns(), t1;
	struct kernel_btf btf;
	int err;

	for (i = 0; i < ARRAY_SIZE(all_domains); i++)
		if (!(t->tried & 1u << i) &&
		    domain_traces_fstype(all_domains[i], cfg.fstype))
			break;
	if (i == ARRAY_SIZE(all_domains))
		return 0; /* all there */
	err = kernel_btf_load(&btf);
	if (err) {
		log_error(
			"kernel has no BTF at /sys/kernel/btf/vmlinux (%s): fsprof needs a kernel built with CONFIG_DEBUG_INFO_BTF",
			strerror_safe(-err));
		return err;
	}
	cfg.btf = &btf;
	log_debug("tracer: kernel BTF parsed in %.1f ms",
		  (double)(clock_mono_ns() - t0) / 1e6);
	/* open all first: the BTF probe is done before libbpf loads its own */
	for (i = 0; i < ARRAY_SIZE(all_domains); i++) {
		const struct trace_domain_ops *ops = all_domains[i];
		void *priv = NULL;

		if (t->tried & 1u << i ||
		    !domain_traces_fstype(ops, cfg.fstype))
			continue; /* loaded already, or no xfs events on ext4 */
		t->tried |= 1u << i;
		t1 = clock_mono_ns();
		err = ops->open(&priv, &cfg);
		log_debug("tracer: %s domain: open %.1f ms", ops->name,
			  (double)(clock_mono_ns() - t1) / 1e6);
		if (!err) {
			err = phase_map_share(&t->phase_map, ops->object(priv));
			if (err)
				ops->destroy(priv);
		}
		if (err) {
			log_warn("%s domain: open: %s", ops->name,
				 strerror_safe(-err));
			continue;
		}
		memset(&opened[n_opened], 0, sizeof(opened[0]));
		opened[n_opened].ops = ops;
		opened[n_opened++].priv = priv;
	}
	kernel_btf_free(&btf);
	stage_mark("domains opened");
	for (i = 0; i < n_opened; i++)
		tracer_attach_domain(t, &opened[i]);
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

/* every count emptied, then the case's target: the domain counts */
static int tracer_bind_domain(struct tracer_domain *dom,
			      const struct trace_config *cfg)
{
	const struct trace_domain_ops *ops = dom->ops;
	uint64_t t0 = clock_mono_ns();
	int err = 0;

	if (!domain_traces_fstype(ops, cfg->fstype))
		return -ENOENT;
	/* loaded for this case, its maps are as made: empty */
	if (dom->used)
		err = domain_state_reset(
			&dom->state,
			(struct bpf_object *)ops->object(dom->priv));
	else
		domain_state_restore(&dom->state);
	if (err) {
		domain_state_restore(&dom->state);
		log_warn("%s domain: empty its counts for the case: %s",
			 ops->name, strerror_safe(-err));
		return err;
	}
	err = ops->bind(dom->priv, cfg);
	if (err) {
		domain_state_restore(&dom->state);
		return err;
	}
	dom->bound = dom->used = true;
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
	for (i = 0; i < t->n; i++) {
		struct tracer_domain *dom = &t->dom[i];

		if (!dom->bound)
			continue;
		domain_state_restore(&dom->state);
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
		domain_state_free(&t->dom[t->n].state);
	}
	selfcost_stop(&t->self);
	phase_map_close(&t->phase_map);
	free(t->attached);
	t->attached = NULL;
	t->started = false;
}
