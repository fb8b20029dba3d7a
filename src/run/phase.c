// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "run/phase.h"
#include "run/phase_cache.h"
#include "util/clock.h"
#include "util/progress.h"
#include "util/log.h"
#include "util/quiet_thread.h"

struct cpu_sample {
	uint64_t user_ns, sys_ns, vol, invol;
};

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL +
	       (uint64_t)tv.tv_usec * 1000ULL;
}

/* the workload's CPU: this process and the children it waited for */
static int cpu_sample_take(struct cpu_sample *s)
{
	struct rusage self, kids;

	memset(s, 0, sizeof(*s));
	if (getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &kids))
		return -errno;
	s->user_ns = timeval_ns(self.ru_utime) + timeval_ns(kids.ru_utime);
	s->sys_ns = timeval_ns(self.ru_stime) + timeval_ns(kids.ru_stime);
	s->vol = (uint64_t)(self.ru_nvcsw + kids.ru_nvcsw);
	s->invol = (uint64_t)(self.ru_nivcsw + kids.ru_nivcsw);
	return 0;
}

/*
 * The live line of a phase that does not count its work (a sync, a
 * remove): redrawn every second with the seconds so far, by a thread of
 * its own while the workload's blocks in the kernel; only on a terminal
 */
struct ticker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, running;
	struct progress *p;
};

static void *ticker_main(void *arg)
{
	struct ticker *t = arg;
	struct timespec until;

	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&t->cond, &t->lock, &until);
		if (!t->stop)
			progress_tick(t->p);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static void ticker_start(struct ticker *t, struct progress *p)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	if (!p || !p->enabled)
		return;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	t->running = !quiet_thread_start(&t->thread, ticker_main, t,
					 "fsprof-progress");
}

static void ticker_stop(struct ticker *t)
{
	if (!t->running)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
}

int phase_run(const struct phase_runner *r, const struct phase_def *def,
	      unsigned int id, struct phase_result *out)
{
	struct phase_ctx pc = { .result = out, .progress = r->progress };
	struct tracer *tracer = r->tracer;
	const struct workload_env *env = r->env;
	struct cpu_sample c0, c1;
	struct ticker tk;
	int err, cpu_err;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", def->name);
	snprintf(out->cache, sizeof(out->cache), "%s", r->cache);
	snprintf(out->sync, sizeof(out->sync), "%s", def->sync);
	out->id = id;

	if (def->prepare) {
		err = def->prepare(env);
		if (err)
			return err;
	}
	err = phase_cache_prepare(r->cache, def, r->target, tracer, env->dir);
	if (err)
		return err;
	progress_phase_begin(r->progress, def->name);
	ticker_start(&tk, r->progress);

	cpu_err = cpu_sample_take(&c0);
	out->start_mono_ns = tracer ? tracer_set_phase(tracer, id) :
				      clock_mono_ns();
	err = def->body(env, &pc);
	out->end_mono_ns = tracer ? tracer_set_phase(tracer, 0) :
				    clock_mono_ns();
	if (!cpu_err)
		cpu_err = cpu_sample_take(&c1);
	ticker_stop(&tk);
	progress_clear(r->progress);

	out->wall_ns = out->end_mono_ns - out->start_mono_ns;
	if (!err)
		progress_phase_end(r->progress, (double)out->wall_ns / 1e9);
	if (cpu_err) {
		/* zeros, said: never a difference of garbage */
		log_warn(
			"phase %s: getrusage: %s; its CPU time is not measured",
			def->name, strerror_safe(-cpu_err));
	} else {
		out->user_ns = c1.user_ns - c0.user_ns;
		out->sys_ns = c1.sys_ns - c0.sys_ns;
		out->vol_ctxsw = c1.vol - c0.vol;
		out->invol_ctxsw = c1.invol - c0.invol;
	}
	if (err)
		return err;
	if (tracer)
		return tracer_collect(tracer, id, out);
	return 0;
}
