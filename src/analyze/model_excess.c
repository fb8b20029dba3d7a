// SPDX-License-Identifier: GPL-2.0
#include "analyze/model_excess.h"

/* what a device did in a phase, in the throttle's four terms */
struct model_use {
	double amount[MODEL_LIMITS]; /* as model_limit's rows */
};

static const struct {
	const char *what, *metric, *member_metric;
	double unit;
} model_limit[MODEL_LIMITS] = {
	{ "write IOPS (cache flushes included)", "block.classes.write.ios",
	  "block.members.write_ios", 1 },
	{ "read IOPS", "block.classes.read.ios", "block.members.read_ios", 1 },
	{ "MB/s written", "block.classes.write.bytes",
	  "block.members.write_bytes", 1e6 },
	{ "MB/s read", "block.classes.read.bytes", "block.members.read_bytes",
	  1e6 },
};

static void limits_of(const struct device_model *m, double limit[MODEL_LIMITS])
{
	limit[0] = (double)m->wiops;
	limit[1] = (double)m->riops;
	limit[2] = (double)m->wbps;
	limit[3] = (double)m->rbps;
}

/* the traced device: its requests by operation */
static void use_of_device(const struct phase_result *p, struct model_use *u)
{
	const struct block_class_result *c = p->block.cls;

	u->amount[0] = (double)(c[BLK_OPC_WRITE].ios + c[BLK_OPC_FLUSH].ios);
	u->amount[1] = (double)c[BLK_OPC_READ].ios;
	u->amount[2] = (double)c[BLK_OPC_WRITE].bytes;
	u->amount[3] = (double)c[BLK_OPC_READ].bytes;
}

/* a stack's member: its requests by IO class */
static void use_of_member(const struct block_member_result *r,
			  struct model_use *u)
{
	static const unsigned int writes[] = { BLK_IOC_DATA_WRITE,
					       BLK_IOC_META_WRITE,
					       BLK_IOC_LOG_WRITE };
	static const unsigned int reads[] = { BLK_IOC_DATA_READ,
					      BLK_IOC_META_READ,
					      BLK_IOC_LOG_READ };
	unsigned int k;

	u->amount[0] = (double)r->ios[BLK_IOC_FLUSH];
	u->amount[1] = u->amount[2] = u->amount[3] = 0;
	for (k = 0; k < 3; k++) {
		u->amount[0] += (double)r->ios[writes[k]];
		u->amount[1] += (double)r->ios[reads[k]];
		u->amount[2] += (double)r->bytes[writes[k]];
		u->amount[3] += (double)r->bytes[reads[k]];
	}
}

/* the limits u went over, into out from n on; the new n */
static unsigned int excess_add(const double limit[MODEL_LIMITS],
			       const struct model_use *u, double secs,
			       double factor, int member,
			       struct model_excess *out, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < MODEL_LIMITS && n < MODEL_EXCESS_MAX; i++) {
		if (!limit[i] ||
		    u->amount[i] <= factor * limit[i] * (secs + MODEL_SLICE_S))
			continue;
		out[n++] = (struct model_excess){
			.what = model_limit[i].what,
			.metric = member < 0 ? model_limit[i].metric :
					       model_limit[i].member_metric,
			.member = member,
			.amount = u->amount[i],
			.rate = u->amount[i] / secs / model_limit[i].unit,
			.limit = limit[i] / model_limit[i].unit,
		};
	}
	return n;
}

unsigned int phase_model_excess(const struct target_result *t,
				const struct phase_result *p, double factor,
				struct model_excess out[MODEL_EXCESS_MAX])
{
	double secs = (double)p->wall_ns / 1e9, limit[MODEL_LIMITS];
	struct model_use u;
	unsigned int i, n = 0;

	if (!p->block.traced || !p->wall_ns)
		return 0;
	limits_of(&t->model.m, limit);
	/* a disk of the model each: every member's own limits */
	if (t->model.n_members && p->block.n_members) {
		for (i = 0; i < p->block.n_members; i++) {
			use_of_member(&p->block.member[i], &u);
			n = excess_add(limit, &u, secs, factor, (int)i, out, n);
		}
		return n;
	}
	use_of_device(p, &u);
	return excess_add(limit, &u, secs, factor, -1, out, n);
}
