// SPDX-License-Identifier: GPL-2.0
/*
 * A saved run read back (fsprof report, fsprof diff). Its findings are
 * what was found when it ran, and fsprof report keeps them; the results
 * file does not hold the phases' bound verdicts and the comparisons
 * between targets, so those are made again from its numbers. Asked to
 * (fsprof report --reanalyze, fsprof diff), the rules run afresh on the
 * saved model, and what only re-running the workload could produce - each
 * finding's --verify result - is carried over from the saved finding of
 * the same rule in the same phase.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/analyze_int.h"
#include "analyze/reanalyze.h"

static void carry_verified(struct finding_list *now,
			   const struct finding_list *saved)
{
	unsigned int i;

	for (i = 0; i < now->n; i++) {
		const struct finding *old =
			finding_list_find(saved, now->v[i].rule);

		if (old && old->verified.done && !now->v[i].verified.done)
			now->v[i].verified = old->verified;
	}
}

int analyze_saved_run(struct run_result *run)
{
	struct finding_list *saved;
	unsigned int i, p, n = 0, k = 0;
	int err;

	for (i = 0; i < run->n_cases; i++)
		n += run->cases[i].n_phases;
	saved = calloc(n ? n : 1, sizeof(*saved));
	if (!saved)
		return -1;
	for (i = 0; i < run->n_cases; i++)
		for (p = 0; p < run->cases[i].n_phases; p++) {
			struct phase_result *ph = &run->cases[i].phases[p];

			saved[k++] = ph->findings;
			memset(&ph->findings, 0, sizeof(ph->findings));
		}
	err = analyze_run(run);
	for (i = 0, k = 0; i < run->n_cases; i++)
		for (p = 0; p < run->cases[i].n_phases; p++, k++) {
			carry_verified(&run->cases[i].phases[p].findings,
				       &saved[k]);
			finding_list_free(&saved[k]);
		}
	free(saved);
	return err;
}

int analyze_saved_verdicts(struct run_result *run)
{
	unsigned int i, p;
	int err;

	for (i = 0; i < run->n_cases; i++)
		for (p = 0; p < run->cases[i].n_phases; p++) {
			struct phase_facts x;

			phase_facts_init(&x, &run->cases[i], p);
			analyze_verdict(&x, &run->cases[i].phases[p].verdict);
		}
	err = analyze_comparisons(run);
	return err ? err : analyze_classic(run);
}
