/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rare events of every domain's ring buffer, drained while the case runs
 * by one thread (the workload runs in the main thread), kept raw, and named
 * and handed to the results at the end of the case.
 */
#ifndef FSPROF_EVENT_STREAM_H
#define FSPROF_EVENT_STREAM_H

#include "results/events.h"
#include "trace/domain.h"

struct event_stream;

/* a domain that may have a ring (ops->event_ring) */
struct event_source {
	const struct trace_domain_ops *ops;
	void *priv;
};

/*
 * Start draining the rings of those of the n sources that have one. *out is
 * NULL when none has. Errors say what failed.
 */
int event_stream_start(struct event_stream **out,
		       const struct event_source *src, unsigned int n);

/*
 * Stop the thread, drain what is left, name every event through its domain
 * and append them to list. Once only; later calls add nothing.
 */
int event_stream_take(struct event_stream *es, struct event_list *list);

/* stop (if running) and release; NULL is fine */
void event_stream_free(struct event_stream *es);

#endif
