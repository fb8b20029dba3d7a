// SPDX-License-Identifier: GPL-2.0
/*
 * The results JSON reader behind fsprof report and diff
 * (results/json_read.c): any document is a run or an error that says
 * where; a run read is freed without a leak.
 */
#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "results/json_read.h"
#include "results/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run_result run;
	json_error_t jerr;
	char err[1024];
	json_t *root;

	root = json_loadb((const char *)data, size, 0, &jerr);
	if (!root)
		return 0;
	memset(&run, 0, sizeof(run));
	err[0] = '\0';
	if (results_from_json(root, "fuzz.json", &run, err, sizeof(err)))
		FUZZ_ASSERT(err[0]);
	else
		run_result_free(&run);
	json_decref(root);
	return 0;
}
