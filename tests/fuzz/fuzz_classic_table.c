// SPDX-License-Identifier: GPL-2.0
/*
 * data/classic.tsv's parser (analyze/classic_table.c): experiments with
 * their targets, figures and ratios, or an error naming the line; every ratio's
 * original interval ordered and every string terminated.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "analyze/classic_table.h"
#include "fuzz.h"

static void check_experiment(const struct classic_experiment *e)
{
	unsigned int k;

	FUZZ_ASSERT(memchr(e->workload, '\0', sizeof(e->workload)));
	/* every experiment names its targets */
	FUZZ_ASSERT(e->targets[0] &&
		    memchr(e->targets, '\0', sizeof(e->targets)));
	FUZZ_ASSERT(e->n_figures <= CLASSIC_MAX_FIGURES);
	FUZZ_ASSERT(e->n_ratios <= CLASSIC_MAX_RATIOS);
	for (k = 0; k < e->n_figures; k++) {
		FUZZ_ASSERT(e->figures[k].metric < CLASSIC_METRIC_NR);
		FUZZ_ASSERT(e->figures[k].orig.lo <= e->figures[k].orig.hi);
	}
	for (k = 0; k < e->n_ratios; k++) {
		const struct classic_ratio *r = &e->ratios[k];

		FUZZ_ASSERT(r->metric < CLASSIC_METRIC_NR);
		FUZZ_ASSERT(!isnan(r->orig.lo) && r->orig.lo <= r->orig.hi);
		FUZZ_ASSERT(memchr(r->label, '\0', sizeof(r->label)));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size), err[256];
	struct classic_list l;
	unsigned int i;

	err[0] = '\0';
	if (classic_table_parse(text, &l, err, sizeof(err))) {
		FUZZ_ASSERT(err[0]);
		FUZZ_ASSERT(l.n == 0 && !l.v);
	} else {
		FUZZ_ASSERT(l.n > 0);
		for (i = 0; i < l.n; i++)
			check_experiment(&l.v[i]);
		classic_list_free(&l);
	}
	free(text);
	return 0;
}
