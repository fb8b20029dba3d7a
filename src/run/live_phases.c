// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "results/series.h"
#include "run/live_phases.h"
#include "util/clock.h"
#include "util/log.h"

/* user and system CPU of pid and the children it waited for, in ns */
static struct live_cpu pid_cpu(pid_t pid)
{
	struct live_cpu cpu = { 0, 0 };
	unsigned long long ut, st, cut, cst;
	char path[64], buf[1024], *p;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;

	if (pid <= 0 || hz <= 0)
		return cpu;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return cpu;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name may hold spaces and parentheses: fields follow the last ) */
	p = strrchr(buf, ')');
	if (!p ||
	    sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   &ut, &st, &cut, &cst) != 4)
		return cpu;
	cpu.user_ns = (ut + cut) * (1000000000ULL / (uint64_t)hz);
	cpu.sys_ns = (st + cst) * (1000000000ULL / (uint64_t)hz);
	return cpu;
}

/* a phase's CPU clock: the command's cgroup, or its /proc/<pid>/stat */
static struct live_cpu live_cpu_now(const struct live_phases *lp)
{
	struct live_cpu cpu = { 0, 0 };

	if (lp->cg && !cpu_cgroup_read(lp->cg, &cpu.user_ns, &cpu.sys_ns))
		return cpu;
	return pid_cpu(lp->cpu_pid);
}

void live_phases_use_cgroup(struct live_phases *lp, const struct cpu_cgroup *cg)
{
	lp->cg = cg;
}

void live_phases_init(struct live_phases *lp, struct tracer *tracer,
		      pid_t cpu_pid, uint64_t interval_ns)
{
	memset(lp, 0, sizeof(*lp));
	lp->tracer = tracer;
	lp->cpu_pid = cpu_pid;
	lp->interval_ns = interval_ns;
}

/*
 * The domains' switch to id: at at_ns when the kernel published it, else
 * when the tracer does (its stamp, the moment the programs see it)
 */
static uint64_t live_tracer_switch(struct live_phases *lp, unsigned int id,
				   uint64_t at_ns, bool publish)
{
	if (!lp->tracer)
		return at_ns;
	if (publish)
		return tracer_set_phase(lp->tracer, id);
	tracer_phase_switched(lp->tracer, id);
	return at_ns;
}

void live_phases_switch(struct live_phases *lp, unsigned int id,
			const char *name, uint64_t at_ns, bool publish)
{
	struct live_cpu cpu = live_cpu_now(lp);
	struct live_phase *ended = NULL;

	if (id >= FSPROF_MAX_PHASES)
		return;
	if (lp->running) {
		ended = &lp->ph[lp->running];
		ended->cpu1 = cpu;
	}
	/*
	 * The domains' boundary work (peer counters) is done for an end and
	 * a begin: a direct switch goes through 0 for them.
	 */
	if (ended && id)
		ended->end_ns = live_tracer_switch(lp, FSPROF_PHASE_NONE, at_ns,
						   publish);
	at_ns = live_tracer_switch(lp, id, at_ns, publish);
	if (ended && !id)
		ended->end_ns = at_ns;
	lp->running = id;
	if (!id)
		return;
	if (!lp->origin_ns)
		lp->origin_ns = at_ns;
	lp->ph[id] = (struct live_phase){ .start_ns = at_ns,
					  .cpu0 = cpu,
					  .used = true };
	snprintf(lp->ph[id].name, sizeof(lp->ph[id].name), "%s", name);
}

/* "0-10s", "10-20s", ...: the stretch a time phase covers */
static void interval_name(uint64_t from_ns, uint64_t len_ns, char *out,
			  size_t size)
{
	double a = from_ns / 1e9, b = (from_ns + len_ns) / 1e9;

	snprintf(out, size, "%g-%gs", a, b);
}

uint64_t live_phases_tick(struct live_phases *lp, uint64_t now)
{
	uint64_t end;
	char name[32];
	unsigned int id = lp->running;

	if (!lp->interval_ns || !id)
		return 0;
	end = lp->tick_ns ? lp->tick_ns : lp->ph[id].start_ns + lp->interval_ns;
	if (now < end)
		return end - now;
	if (id + 1 >= FSPROF_MAX_PHASES) {
		if (!lp->capped) {
			lp->capped = true;
			log_warn(
				"--interval: %d time phases is the most fsprof attributes; the last one runs to the end",
				FSPROF_MAX_PHASES - 1);
		}
		return lp->interval_ns;
	}
	/*
	 * At now, when it is published, not at end: the domains split the
	 * time they charge (busy time) at the published switch, so a phase's
	 * window is where its switch is, however late the timer woke us (a
	 * phase's busy time was its wall + the lateness). The slices keep
	 * their grid: the new one is the slot now falls in, and a slot
	 * passed over entirely (a tick late by more than an interval) is in
	 * the one that ended, whose wall says so.
	 */
	end += (now - end) / lp->interval_ns * lp->interval_ns;
	interval_name(end - lp->origin_ns, lp->interval_ns, name, sizeof(name));
	live_phases_switch(lp, id + 1, name, now, true);
	lp->tick_ns = end + lp->interval_ns;
	return lp->tick_ns - now;
}

uint64_t live_phases_begin(struct live_phases *lp, const char *name,
			   uint64_t at_ns)
{
	char slice[32];

	if (lp->interval_ns) {
		interval_name(0, lp->interval_ns, slice, sizeof(slice));
		name = slice;
	}
	live_phases_switch(lp, 1, name, at_ns, true);
	return lp->ph[1].start_ns;
}

static void phase_fill(const struct live_phase *ph, unsigned int id,
		       struct phase_result *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", ph->name);
	out->id = id;
	out->start_mono_ns = ph->start_ns;
	out->end_mono_ns = ph->end_ns;
	out->wall_ns = ph->end_ns - ph->start_ns;
	/* the command and the children it waited for, in clock ticks */
	out->user_ns = ph->cpu1.user_ns > ph->cpu0.user_ns ?
			       ph->cpu1.user_ns - ph->cpu0.user_ns :
			       0;
	out->sys_ns = ph->cpu1.sys_ns > ph->cpu0.sys_ns ?
			      ph->cpu1.sys_ns - ph->cpu0.sys_ns :
			      0;
	snprintf(out->cache, sizeof(out->cache), "warm");
	snprintf(out->sync, sizeof(out->sync), "none");
}

int live_phases_collect(struct live_phases *lp, struct case_result *c,
			uint64_t at_ns, bool prelude_to_spill)
{
	unsigned int id;
	int err, first = 0;

	if (lp->running)
		live_phases_switch(lp, FSPROF_PHASE_NONE, "", at_ns, true);
	for (id = 1; id < FSPROF_MAX_PHASES; id++) {
		struct phase_result *p;

		if (!lp->ph[id].used)
			continue;
		if (id == 1 && prelude_to_spill) {
			/* before the first marker: between phases */
			if (lp->tracer)
				tracer_collect(lp->tracer, id, &c->spill);
			series_set_free(&c->spill.timeline);
			continue;
		}
		if (c->n_phases >= c->phases_cap)
			break;
		p = &c->phases[c->n_phases];
		phase_fill(&lp->ph[id], id, p);
		c->n_phases++;
		if (!lp->tracer)
			continue;
		err = tracer_collect(lp->tracer, id, p);
		if (err && !first)
			first = err;
	}
	if (lp->tracer) {
		tracer_collect(lp->tracer, FSPROF_PHASE_NONE, &c->spill);
		tracer_take_events(lp->tracer, &c->events);
	}
	return first;
}
