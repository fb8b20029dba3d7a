// SPDX-License-Identifier: GPL-2.0
#include "compare/diff.h"

void diff_options_default(struct diff_options *o)
{
	o->alpha = DIFF_ALPHA;
	o->noise_floor = DIFF_NOISE_PER_METRIC;
	o->metric_glob = NULL;
	o->fail_above = -1;
	o->allow_mismatch = false;
}

bool diff_setup_blocks(const struct diff_result *d)
{
	unsigned int i;

	if (d->opt.allow_mismatch)
		return false;
	for (i = 0; i < d->n_setup; i++)
		if (d->setup[i].blocking)
			return true;
	return false;
}

const char *diff_verdict_name(enum diff_verdict v)
{
	switch (v) {
	case DIFF_SAME:
		return "same";
	case DIFF_BETTER:
		return "better";
	case DIFF_WORSE:
		return "worse";
	case DIFF_HIGHER:
		return "higher";
	case DIFF_LOWER:
		return "lower";
	case DIFF_INCONCLUSIVE:
		return "inconclusive";
	case DIFF_UNMEASURED:
		return "unmeasured";
	}
	return "?";
}

bool diff_verdict_is_change(enum diff_verdict v)
{
	return v == DIFF_BETTER || v == DIFF_WORSE || v == DIFF_HIGHER ||
	       v == DIFF_LOWER;
}
