// SPDX-License-Identifier: GPL-2.0
/*
 * bonnie's random seeks: `seeks` tickets (a random chunk, and one in ten
 * marked "rewrite it") drawn before the phase from a seeded generator, taken
 * one at a time by `seekers` concurrent processes, as bonnie++'s seekers take
 * tickets from a pipe. Each seek is lseek + read(2) of a chunk; a rewrite
 * ticket then dirties a byte, seeks back and writes the chunk. Each seeker
 * opens the file itself and closes it with fsync(), as bonnie++ 1.97 does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/progress.h"
#include "workload/bonnie_state.h"
#include "workload/cache.h"
#include "workload/workers.h"

/* what one seeker did, in the shared mapping */
struct seeker_stats {
	uint64_t seeks;
	uint64_t rewrites;
	uint64_t bytes_read;
	uint64_t bytes_written;
	struct latency_hist lat; /* one seek: lseek + read [+ lseek + write] */
};

struct seek_shared {
	uint64_t next_ticket; /* taken with an atomic fetch-add */
	struct seeker_stats seeker[];
};

struct seek_job {
	const struct workload_env *env;
	const struct bonnie_state *st;
	struct seek_shared *shared;
};

/* splitmix64: small, seedable, good enough to pick chunks */
static uint64_t seek_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int bonnie_seeks_prepare(const struct workload_env *env)
{
	struct bonnie_state *st = bonnie_state(env);
	uint64_t seeks = param_num(env->params, "seeks");
	uint64_t rng = param_num(env->params, "seed");
	unsigned int i;

	if (seeks > 1U << 30) {
		log_error("bonnie: seeks=%llu is more than 2^30",
			  (unsigned long long)seeks);
		return -EINVAL;
	}
	free(st->tickets);
	st->tickets = calloc(seeks, sizeof(*st->tickets));
	if (!st->tickets)
		return -ENOMEM;
	st->n_tickets = (unsigned int)seeks;
	for (i = 0; i < st->n_tickets; i++) {
		uint64_t t = seek_random(&rng) % st->n_chunks;

		if (seek_random(&rng) % BONNIE_UPDATE_ONE_IN == 0)
			t |= BONNIE_TICKET_UPDATE;
		st->tickets[i] = t;
	}
	return cache_prepare(env);
}

static int seek_one(const struct bonnie_state *st, int fd, char *buf,
		    uint64_t ticket, struct worker_slot *slot,
		    struct seeker_stats *me)
{
	off_t where = (off_t)((ticket & ~BONNIE_TICKET_UPDATE) * st->chunk);
	uint64_t t0 = clock_mono_ns();
	ssize_t n;

	if (lseek(fd, where, SEEK_SET) < 0)
		return bonnie_fail("lseek", st->path);
	worker_op_record(slot, OP_SEEK, t0);
	t0 = clock_mono_ns();
	do
		n = read(fd, buf, st->chunk);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return bonnie_fail("read", st->path);
	worker_op_record(slot, OP_READ, t0);
	me->bytes_read += (uint64_t)n;
	me->seeks++;
	if (!(ticket & BONNIE_TICKET_UPDATE))
		return 0;
	/* touch a byte, seek back and write the chunk */
	buf[(uint64_t)where % st->chunk]--;
	t0 = clock_mono_ns();
	if (lseek(fd, where, SEEK_SET) < 0)
		return bonnie_fail("lseek", st->path);
	worker_op_record(slot, OP_SEEK, t0);
	t0 = clock_mono_ns();
	n = write(fd, buf, (size_t)n);
	if (n < 0)
		return bonnie_fail("write", st->path);
	worker_op_record(slot, OP_WRITE, t0);
	me->bytes_written += (uint64_t)n;
	me->rewrites++;
	return 0;
}

/* a seeker process: take tickets until none are left */
static int seeker_main(void *arg, unsigned int index, struct worker_slot *slot)
{
	struct seek_job *job = arg;
	const struct bonnie_state *st = job->st;
	struct seeker_stats *me = &job->shared->seeker[index];
	int fd, err = 0;
	uint64_t i, t0;
	char *buf;

	buf = malloc(st->chunk);
	if (!buf)
		return -ENOMEM;
	fd = open(st->path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return bonnie_fail("open", st->path);
	}
	for (;;) {
		if (*job->env->stop) {
			err = -EINTR;
			break;
		}
		i = __atomic_fetch_add(&job->shared->next_ticket, 1,
				       __ATOMIC_RELAXED);
		if (i >= st->n_tickets)
			break;
		t0 = clock_mono_ns();
		err = seek_one(st, fd, buf, st->tickets[i], slot, me);
		if (err)
			break;
		latency_hist_record(&me->lat, clock_mono_ns() - t0);
	}
	t0 = clock_mono_ns();
	if (fsync(fd) && !err)
		err = bonnie_fail("fsync", st->path);
	worker_op_record(slot, OP_FSYNC, t0);
	close(fd);
	free(buf);
	return err;
}

static int seeks_collect(const struct workers *w,
			 const struct seek_shared *shared, struct phase_ctx *pc)
{
	struct latency_hist *lat =
		metric_hist(&pc->result->metrics, BONNIE_LATENCY_METRIC);
	uint64_t seeks = 0, rewrites = 0;
	unsigned int i;

	if (!lat)
		return -ENOMEM;
	for (i = 0; i < w->n; i++) {
		const struct seeker_stats *s = &shared->seeker[i];

		seeks += s->seeks;
		rewrites += s->rewrites;
		work_add(pc, s->bytes_read + s->bytes_written,
			 s->seeks + s->rewrites, 0);
		latency_hist_add(lat, &s->lat);
	}
	if (metric_add(&pc->result->metrics, "bonnie.seeks", seeks) ||
	    metric_add(&pc->result->metrics, "bonnie.seek_rewrites",
		       rewrites) ||
	    metric_add(&pc->result->metrics, "bonnie.seekers", w->n))
		return -ENOMEM;
	return workers_merge_ops(w, pc);
}

/* Random Seeks: seekers concurrent processes share the tickets */
int bonnie_seeks(const struct workload_env *env, struct phase_ctx *pc)
{
	struct bonnie_state *st = bonnie_state(env);
	uint64_t seekers = param_num(env->params, "seekers");
	struct seek_job job = { .env = env, .st = st };
	struct workers w;
	unsigned int i;
	int err, spawn_err = 0;

	if (seekers > WORKERS_MAX) {
		log_error("bonnie: seekers=%llu is more than %u",
			  (unsigned long long)seekers, WORKERS_MAX);
		return -EINVAL;
	}
	err = workers_map(&w, (unsigned int)seekers,
			  sizeof(struct seek_shared) +
				  seekers * sizeof(struct seeker_stats));
	if (err)
		return err;
	job.shared = w.shared;
	progress_total(pc->progress, st->n_tickets, PROGRESS_OPS);
	for (i = 0; i < seekers && !spawn_err; i++)
		spawn_err = workers_spawn(&w, seeker_main, &job);
	/* the seekers already running take the tickets of a failed fork */
	err = workers_wait(&w, env->stop, 0, NULL, NULL);
	if (!err || err == -EINTR) {
		int cerr = seeks_collect(&w, job.shared, pc);

		err = err ? err : cerr;
	}
	progress_set(pc->progress, st->n_tickets);
	workers_release(&w);
	return spawn_err ? spawn_err : err;
}
