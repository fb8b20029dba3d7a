// SPDX-License-Identifier: GPL-2.0
/*
 * The workload parameter parser (workload/params.c) with every workload's
 * parameter table: the first input byte picks the workload and the scale,
 * the rest is the "key=val,..." text. Parsed parameters format back into a
 * text that parses to the same values.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "workload/params.h"
#include "workload/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct workload_params p, again;
	const struct workload_def *const *all;
	const struct workload_def *wl;
	char *text, err[512], canon[4096];
	enum scale scale;
	unsigned int n, i;

	if (!size)
		return 0;
	all = workload_all(&n);
	wl = all[data[0] % n];
	scale = data[0] & 0x80 ? SCALE_FULL : SCALE_QUICK;
	text = fuzz_cstring(data + 1, size - 1);
	err[0] = '\0';
	if (params_parse(wl->params, wl->n_params, text, scale, &p, err,
			 sizeof(err))) {
		FUZZ_ASSERT(err[0]);
	} else {
		FUZZ_ASSERT(p.n == wl->n_params);
		params_format(&p, canon, sizeof(canon));
		if (strlen(canon) + 1 < sizeof(canon) &&
		    !params_parse(wl->params, wl->n_params, canon, scale,
				  &again, err, sizeof(err)))
			for (i = 0; i < p.n; i++)
				FUZZ_ASSERT(p.v[i].num == again.v[i].num);
	}
	free(text);
	return 0;
}
