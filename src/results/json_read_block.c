// SPDX-License-Identifier: GPL-2.0
/* The block domain's part of a saved phase (json.c block_json) read back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/json_read_int.h"

static int opclass_of(const char *name)
{
	unsigned int c;

	for (c = 0; c < BLK_OPC_NR; c++)
		if (!strcmp(blk_opclass_name(c), name))
			return (int)c;
	return -1;
}

static int ioclass_of(const char *name)
{
	unsigned int c;

	for (c = 0; c < BLK_IOC_NR; c++)
		if (!strcmp(blk_ioclass_name(c), name))
			return (int)c;
	return -1;
}

static int issuer_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < BLK_ISS_NR; i++)
		if (!strcmp(blk_issuer_name(i), name))
			return (int)i;
	return -1;
}

static int class_read(struct jread *r, const char *where, json_t *obj,
		      struct block_class_result *c)
{
	json_t *h;

	memset(c, 0, sizeof(*c));
	if (!json_is_object(obj))
		return jread_fail(r, where, "not an object");
	if (jread_u64(r, where, obj, "ios", &c->ios) ||
	    jread_u64(r, where, obj, "bytes", &c->bytes) ||
	    jread_u64(r, where, obj, "preflush", &c->preflush) ||
	    jread_u64(r, where, obj, "fua", &c->fua) ||
	    jread_u64(r, where, obj, "completion_unseen", &c->unseen) ||
	    jread_object(r, where, obj, "size", &h) ||
	    (h && jread_hist(r, where, h, &c->size)) ||
	    jread_object(r, where, obj, "latency", &h) ||
	    (h && jread_hist(r, where, h, &c->lat)))
		return -EINVAL;
	return 0;
}

static int busy_read(struct jread *r, const char *where, json_t *obj,
		     struct block_busy_result *t)
{
	json_t *inflight;

	if (jread_u64(r, where, obj, "busy_ns", &t->busy_ns) ||
	    jread_object(r, where, obj, "inflight", &inflight))
		return -EINVAL;
	if (inflight &&
	    (jread_u64(r, where, inflight, "time_ns", &t->inflight_ns) ||
	     jread_u64(r, where, inflight, "max", &t->max_inflight)))
		return -EINVAL;
	return 0;
}

/* io_classes.<class>.issuers.<issuer>: the (class, issuer) pairs */
static int pairs_read(struct jread *r, const char *where, json_t *classes,
		      struct block_result *b)
{
	const char *cname, *iname;
	json_t *cobj, *issuers, *iobj;
	char at[256];
	size_t n = 0;

	json_object_foreach(classes, cname, cobj)
	{
		json_t *iss = json_is_object(cobj) ?
				      json_object_get(cobj, "issuers") :
				      NULL;

		n += json_is_object(iss) ? json_object_size(iss) : 0;
	}
	b->io = n ? calloc(n, sizeof(*b->io)) : NULL;
	if (n && !b->io)
		return jread_fail(r, where, "out of memory");
	json_object_foreach(classes, cname, cobj)
	{
		int c = ioclass_of(cname);

		snprintf(at, sizeof(at), "%s.io_classes.%s", where, cname);
		if (c < 0)
			return jread_fail(r, at, "unknown IO class");
		if (!json_is_object(cobj))
			return jread_fail(r, at, "not an object");
		if (busy_read(r, at, cobj, &b->ioclass[c]) ||
		    jread_object(r, at, cobj, "issuers", &issuers))
			return -EINVAL;
		if (!issuers)
			continue;
		json_object_foreach(issuers, iname, iobj)
		{
			struct block_io_result *io = &b->io[b->n_io];
			int s = issuer_of(iname);

			snprintf(at, sizeof(at), "%s.io_classes.%s.issuers.%s",
				 where, cname, iname);
			if (s < 0)
				return jread_fail(r, at, "unknown issuer");
			if (b->n_io == n)
				return jread_fail(r, at, "changed while read");
			io->ioclass = (enum blk_ioclass)c;
			io->issuer = (enum blk_issuer)s;
			if (class_read(r, at, iobj, &io->r))
				return -EINVAL;
			b->n_io++;
		}
	}
	return 0;
}

int jread_block(struct jread *r, const char *where, json_t *obj,
		struct block_result *b)
{
	json_t *classes, *io_classes, *issuers, *v;
	const char *name;
	char at[256];

	memset(b, 0, sizeof(*b));
	if (!json_is_object(obj))
		return jread_fail(r, where, "not an object");
	if (jread_bool(r, where, obj, "traced", &b->traced))
		return -EINVAL;
	if (!b->traced)
		return 0;
	if (jread_object(r, where, obj, "classes", &classes) ||
	    jread_object(r, where, obj, "io_classes", &io_classes) ||
	    jread_object(r, where, obj, "issuers", &issuers) ||
	    busy_read(r, where, obj, &b->device) ||
	    jread_uint(r, where, obj, "inflight_at_end", &b->inflight_at_end))
		return -EINVAL;
	json_object_foreach(classes, name, v)
	{
		int c = opclass_of(name);

		snprintf(at, sizeof(at), "%s.classes.%s", where, name);
		if (c < 0)
			return jread_fail(r, at, "unknown operation class");
		if (class_read(r, at, v, &b->cls[c]))
			return -EINVAL;
	}
	json_object_foreach(issuers, name, v)
	{
		int s = issuer_of(name);

		snprintf(at, sizeof(at), "%s.issuers.%s", where, name);
		if (s < 0)
			return jread_fail(r, at, "unknown issuer");
		if (!json_is_object(v))
			return jread_fail(r, at, "not an object");
		if (busy_read(r, at, v, &b->issuer[s]))
			return -EINVAL;
	}
	if (jread_block_members(r, where, obj, b))
		return -EINVAL;
	return io_classes ? pairs_read(r, where, io_classes, b) : 0;
}
