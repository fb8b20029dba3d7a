// SPDX-License-Identifier: GPL-2.0
/*
 * The glob tables' parsers (util/tsv.c under compare/noise_floors.c and
 * compare/kpi.c): rows or an error naming the line; on success the last
 * row is "*", every glob and text terminated, every floor a share of 0
 * to 1, every direction one of three, and a lookup of any name answers.
 */
#include <stdint.h>
#include <string.h>

#include "compare/kpi.h"
#include "compare/noise_floors.h"
#include "fuzz.h"

static void check_floors(const char *text)
{
	struct noise_floors nf;
	char err[256] = "";
	unsigned int i;

	if (noise_floors_parse(text, &nf, err, sizeof(err))) {
		FUZZ_ASSERT(err[0] && nf.n == 0 && !nf.rows);
		return;
	}
	FUZZ_ASSERT(nf.n > 0 && !strcmp(nf.rows[nf.n - 1].glob, "*"));
	for (i = 0; i < nf.n; i++) {
		FUZZ_ASSERT(
			memchr(nf.rows[i].how, '\0', sizeof(nf.rows[i].how)));
		FUZZ_ASSERT(nf.rows[i].floor >= 0 && nf.rows[i].floor <= 1);
	}
	FUZZ_ASSERT(noise_floors_lookup(&nf, text) != NULL);
	noise_floors_free(&nf);
}

static void check_kpis(const char *text)
{
	struct kpi_table t;
	char err[256] = "";
	unsigned int i;

	if (kpi_parse(text, &t, err, sizeof(err))) {
		FUZZ_ASSERT(err[0] && t.n == 0 && !t.rows);
		return;
	}
	FUZZ_ASSERT(t.n > 0 && !strcmp(t.rows[t.n - 1].glob, "*"));
	for (i = 0; i < t.n; i++) {
		FUZZ_ASSERT(memchr(t.rows[i].why, '\0', sizeof(t.rows[i].why)));
		FUZZ_ASSERT(t.rows[i].dir <= KPI_HIGHER_BETTER);
	}
	FUZZ_ASSERT(kpi_lookup(&t, text) != NULL);
	kpi_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);

	check_floors(text);
	check_kpis(text);
	free(text);
	return 0;
}
