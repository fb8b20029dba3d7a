// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "trace/event_stream.h"
#include "util/log.h"
#include "util/quiet_thread.h"

#define MAX_SOURCES 8

struct raw_event {
	struct fsprof_event e;
	unsigned int source;
};

/* what a ring's callback gets: its stream and which source it is */
struct ring_ctx {
	struct event_stream *es;
	unsigned int source;
};

struct event_stream {
	struct ring_buffer *rb;
	pthread_t thread;
	bool running;
	int stop_fd; /* eventfd: written to stop the thread */
	unsigned int n_sources;
	struct event_source src[MAX_SOURCES];
	struct ring_ctx ctx[MAX_SOURCES];
	/* touched by the thread only while it runs, then by the caller */
	struct raw_event *raw;
	size_t n, cap;
	uint64_t not_stored, malformed;
	bool taken;
};

static int raw_append(void *arg, void *data, size_t size)
{
	struct ring_ctx *ctx = arg;
	struct event_stream *es = ctx->es;

	if (size < sizeof(struct fsprof_event)) {
		es->malformed++;
		return 0;
	}
	if (es->n == es->cap) {
		size_t cap = es->cap ? es->cap * 2 : 1024;
		struct raw_event *bigger;

		if (es->cap >= EVENT_LIST_MAX) {
			es->not_stored++;
			return 0;
		}
		bigger = realloc(es->raw, cap * sizeof(*bigger));
		if (!bigger) {
			es->not_stored++;
			return 0;
		}
		es->raw = bigger;
		es->cap = cap;
	}
	memcpy(&es->raw[es->n].e, data, sizeof(struct fsprof_event));
	es->raw[es->n++].source = ctx->source;
	return 0;
}

/* drain the rings every EVENT_POLL_MS, or sooner when BPF wakes us */
static void *drain_thread(void *arg)
{
	struct event_stream *es = arg;
	struct pollfd pfd[2] = {
		{ .fd = ring_buffer__epoll_fd(es->rb), .events = POLLIN },
		{ .fd = es->stop_fd, .events = POLLIN },
	};

	for (;;) {
		if (poll(pfd, 2, EVENT_POLL_MS) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		if (ring_buffer__consume(es->rb) < 0)
			break;
	}
	return NULL;
}

static int stream_add_ring(struct event_stream *es,
			   const struct event_source *s)
{
	unsigned int i = es->n_sources;
	int fd = s->ops->event_ring(s->priv);
	int err;

	if (fd < 0)
		return 0;
	es->src[i] = *s;
	es->ctx[i] = (struct ring_ctx){ .es = es, .source = i };
	if (!es->rb) {
		es->rb = ring_buffer__new(fd, raw_append, &es->ctx[i], NULL);
		err = es->rb ? 0 : -errno;
	} else {
		err = ring_buffer__add(es->rb, fd, raw_append, &es->ctx[i]);
	}
	if (err) {
		log_warn(
			"%s domain: its ring of rare events cannot be read (%s): no events from it",
			s->ops->name, strerror_safe(-err));
		return err;
	}
	es->n_sources++;
	return 0;
}

static int stream_thread_create(struct event_stream *es)
{
	return -quiet_thread_start(&es->thread, drain_thread, es,
				   "fsprof-events");
}

int event_stream_start(struct event_stream **out,
		       const struct event_source *src, unsigned int n)
{
	struct event_stream *es = calloc(1, sizeof(*es));
	unsigned int i;
	int err;

	*out = NULL;
	if (!es)
		return -ENOMEM;
	es->stop_fd = -1;
	for (i = 0; i < n && es->n_sources < MAX_SOURCES; i++)
		if (src[i].ops->event_ring)
			stream_add_ring(es, &src[i]);
	if (!es->n_sources) {
		event_stream_free(es);
		return 0;
	}
	/* what the rings still hold is an earlier case's: dropped */
	ring_buffer__consume(es->rb);
	es->n = 0;
	es->not_stored = es->malformed = 0;
	es->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (es->stop_fd < 0) {
		err = -errno;
		goto fail;
	}
	err = stream_thread_create(es);
	if (err)
		goto fail;
	es->running = true;
	*out = es;
	return 0;
fail:
	log_warn(
		"rare events: cannot start the thread that reads them (%s): no events recorded",
		strerror_safe(-err));
	event_stream_free(es);
	return err;
}

static void stream_stop(struct event_stream *es)
{
	uint64_t one = 1;

	if (!es->running)
		return;
	if (write(es->stop_fd, &one, sizeof(one)) != sizeof(one))
		log_warn("rare events: cannot wake the reader thread: %s",
			 strerror_safe(errno));
	pthread_join(es->thread, NULL);
	es->running = false;
	/* what arrived after the thread's last pass */
	ring_buffer__consume(es->rb);
}

int event_stream_take(struct event_stream *es, struct event_list *list)
{
	struct event_record rec;
	size_t i;
	int err = 0;

	if (!es || es->taken)
		return 0;
	stream_stop(es);
	es->taken = true;
	for (i = 0; i < es->n && !err; i++) {
		const struct raw_event *r = &es->raw[i];
		const struct event_source *s = &es->src[r->source];

		memset(&rec, 0, sizeof(rec));
		rec.t_ns = r->e.ts_ns;
		rec.phase = r->e.phase;
		rec.kind = r->e.kind;
		memcpy(rec.v, r->e.v, sizeof(rec.v));
		if (s->ops->event_name)
			s->ops->event_name(s->priv, &r->e, &rec);
		err = event_list_add(list, &rec);
	}
	list->not_stored += es->not_stored;
	if (es->malformed)
		log_warn(
			"rare events: %llu records shorter than an event were skipped",
			(unsigned long long)es->malformed);
	return err;
}

void event_stream_free(struct event_stream *es)
{
	if (!es)
		return;
	stream_stop(es);
	ring_buffer__free(es->rb);
	if (es->stop_fd >= 0)
		close(es->stop_fd);
	free(es->raw);
	free(es);
}
