// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/metrics.h"

static struct metric *metric_get(struct metric_set *s, const char *name,
				 enum metric_kind kind)
{
	struct metric *m;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 32;
		struct metric *bigger = realloc(s->v, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		s->v = bigger;
		s->cap = cap;
	}
	m = &s->v[s->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->kind = kind;
	return m;
}

int metric_add(struct metric_set *s, const char *name, uint64_t value)
{
	struct metric *m = metric_get(s, name, METRIC_SUM);

	if (!m)
		return -ENOMEM;
	m->value += value;
	return 0;
}

int metric_max(struct metric_set *s, const char *name, uint64_t value)
{
	struct metric *m = metric_get(s, name, METRIC_MAX);

	if (!m)
		return -ENOMEM;
	if (value > m->value)
		m->value = value;
	return 0;
}

const struct metric *metric_find(const struct metric_set *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

uint64_t metric_value(const struct metric_set *s, const char *name)
{
	const struct metric *m = metric_find(s, name);

	return m ? m->value : 0;
}

const struct latency_hist *metric_hist_find(const struct metric_set *s,
					    const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n_hists; i++)
		if (!strcmp(s->hists[i].name, name))
			return &s->hists[i].h;
	return NULL;
}

struct latency_hist *metric_hist(struct metric_set *s, const char *name)
{
	struct metric_hist *mh;
	unsigned int i;

	for (i = 0; i < s->n_hists; i++)
		if (!strcmp(s->hists[i].name, name))
			return &s->hists[i].h;
	if (s->n_hists == s->hists_cap) {
		unsigned int cap = s->hists_cap ? s->hists_cap * 2 : 8;
		struct metric_hist *bigger =
			realloc(s->hists, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		s->hists = bigger;
		s->hists_cap = cap;
	}
	mh = &s->hists[s->n_hists++];
	memset(mh, 0, sizeof(*mh));
	snprintf(mh->name, sizeof(mh->name), "%s", name);
	return &mh->h;
}

void latency_hist_record(struct latency_hist *h, uint64_t value)
{
	h->count++;
	h->sum_ns += value;
	if (value > h->max_ns)
		h->max_ns = value;
	h->slot[hist_slot(value)]++;
}

void latency_hist_add_counts(struct latency_hist *into,
			     const struct hist_counts *h)
{
	unsigned int i;

	into->count += h->count;
	into->sum_ns += h->sum;
	if (h->max > into->max_ns)
		into->max_ns = h->max;
	for (i = 0; i < HIST_NSLOTS; i++)
		into->slot[i] += h->slot[i];
}

int metric_hist_add_counts(struct metric_set *s, const char *name,
			   const struct hist_counts *h)
{
	struct latency_hist *out = metric_hist(s, name);

	if (!out)
		return -ENOMEM;
	latency_hist_add_counts(out, h);
	return 0;
}

void latency_hist_add(struct latency_hist *into, const struct latency_hist *h)
{
	unsigned int i;

	into->count += h->count;
	into->sum_ns += h->sum_ns;
	if (h->max_ns > into->max_ns)
		into->max_ns = h->max_ns;
	for (i = 0; i < HIST_NSLOTS; i++)
		into->slot[i] += h->slot[i];
}

double latency_hist_percentile(const struct latency_hist *h, double p)
{
	double v = hist_percentile(h->slot, HIST_NSLOTS, p);

	/* interpolation must not report more than was ever seen */
	return v > (double)h->max_ns ? (double)h->max_ns : v;
}

void metric_set_free(struct metric_set *s)
{
	free(s->v);
	free(s->hists);
	memset(s, 0, sizeof(*s));
}
