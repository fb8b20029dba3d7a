// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "workload/workers.h"

/* how often the parent looks for exited workers and due ticks */
#define WORKERS_POLL_NS 2000000ULL

int workers_map(struct workers *w, unsigned int cap, size_t shared_len)
{
	size_t slots = (size_t)cap * sizeof(struct worker_slot);
	void *map;

	memset(w, 0, sizeof(*w));
	if (!cap || cap > WORKERS_MAX) {
		log_error("workers: %u worker processes asked for, at most %u",
			  cap, WORKERS_MAX);
		return -EINVAL;
	}
	/* the workload's area starts cache-line aligned after the slots */
	slots = (slots + 63) & ~(size_t)63;
	map = mmap(NULL, slots + shared_len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		int err = errno;

		log_error("workers: mmap %zu shared bytes: %s",
			  slots + shared_len, strerror_safe(err));
		return -err;
	}
	w->cap = cap;
	w->slot = map;
	w->shared = shared_len ? (char *)map + slots : NULL;
	w->map_len = slots + shared_len;
	return 0;
}

int workers_spawn(struct workers *w, worker_fn fn, void *arg)
{
	unsigned int index = w->n;
	pid_t pid;

	if (index >= w->cap)
		return -ENOSPC;
	pid = fork();
	if (pid < 0) {
		int err = errno;

		log_error("workers: fork worker %u: %s", index,
			  strerror_safe(err));
		return -err;
	}
	if (pid == 0) {
		struct worker_slot *slot = &w->slot[index];
		int rc = fn(arg, index, slot);

		slot->err = rc;
		slot->finished = 1;
		/* never the parent's atexit handlers or stdio buffers */
		_exit(rc ? 1 : 0);
	}
	w->pid[index] = pid;
	w->n++;
	return 0;
}

static unsigned int workers_reap(struct workers *w)
{
	unsigned int running = 0, i;
	int status;
	pid_t pid;

	/* any child: fsprof has no other child running during a phase */
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < w->n; i++) {
			if (w->pid[i] == pid && !w->reaped[i]) {
				w->reaped[i] = true;
				w->status[i] = status;
			}
		}
	}
	for (i = 0; i < w->n; i++)
		running += !w->reaped[i];
	return running;
}

static void workers_signal(struct workers *w, int sig)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (!w->reaped[i])
			kill(w->pid[i], sig);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

/* a worker that died or failed: the others have no reason to go on */
static bool workers_any_failed(const struct workers *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (w->reaped[i] && (!w->slot[i].finished || w->slot[i].err))
			return true;
	return false;
}

/* the first real failure: an error, then a death, then an interruption */
static int workers_result(const struct workers *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (w->slot[i].finished && w->slot[i].err &&
		    w->slot[i].err != -EINTR)
			return w->slot[i].err;
	for (i = 0; i < w->n; i++) {
		if (!w->slot[i].finished) {
			log_error(
				"worker %u (pid %d) died without finishing (wait status 0x%x)",
				i, (int)w->pid[i], w->status[i]);
			return -ECHILD;
		}
	}
	for (i = 0; i < w->n; i++)
		if (w->slot[i].err)
			return w->slot[i].err;
	return 0;
}

int workers_wait(struct workers *w, const volatile sig_atomic_t *stop,
		 uint64_t tick_ns, void (*tick)(void *arg), void *arg)
{
	uint64_t next_tick = clock_mono_ns() + tick_ns;
	bool signalled = false;

	while (workers_reap(w)) {
		uint64_t now, nap = WORKERS_POLL_NS;

		if ((*stop || workers_any_failed(w)) && !signalled) {
			workers_signal(w, SIGTERM);
			signalled = true;
		}
		now = clock_mono_ns();
		if (tick && tick_ns && now >= next_tick) {
			tick(arg);
			next_tick += tick_ns;
		}
		if (tick && tick_ns && next_tick > now && next_tick - now < nap)
			nap = next_tick - now;
		sleep_ns(nap);
	}
	if (*stop)
		return -EINTR;
	return workers_result(w);
}

int workers_merge_ops(const struct workers *w, struct phase_ctx *pc)
{
	unsigned int i, op;

	for (op = 0; op < OP_NR; op++) {
		struct latency_hist *into = NULL;
		char name[METRIC_NAME_LEN];

		for (i = 0; i < w->n; i++) {
			const struct latency_hist *h = &w->slot[i].op[op];

			if (!h->count)
				continue;
			if (!into) {
				snprintf(name, sizeof(name), "op.%s_ns",
					 op_class_name(op));
				into = metric_hist(&pc->result->metrics, name);
				if (!into)
					return -ENOMEM;
			}
			latency_hist_add(into, h);
		}
	}
	return 0;
}

void workers_release(struct workers *w)
{
	unsigned int i;

	if (!w->slot)
		return;
	workers_signal(w, SIGKILL);
	for (i = 0; i < w->n; i++) {
		if (w->reaped[i])
			continue;
		if (waitpid(w->pid[i], &w->status[i], 0) == w->pid[i])
			w->reaped[i] = true;
	}
	munmap(w->slot, w->map_len);
	w->slot = NULL;
	w->shared = NULL;
}

void worker_op_record(struct worker_slot *slot, enum op_class op,
		      uint64_t start_ns)
{
	if (op < OP_NR)
		latency_hist_record(&slot->op[op], clock_mono_ns() - start_ns);
}
