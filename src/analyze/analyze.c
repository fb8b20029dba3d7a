// SPDX-License-Identifier: GPL-2.0
/* Running the rule table over a run: verdicts, findings, comparisons. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/analyze_int.h"

/* warnings first, then info, then ok; the table's order within each */
static void findings_sort(struct finding_list *l)
{
	unsigned int i, j;

	for (i = 1; i < l->n; i++) {
		struct finding f = l->v[i];

		for (j = i; j > 0 && l->v[j - 1].severity < f.severity; j--)
			l->v[j] = l->v[j - 1];
		l->v[j] = f;
	}
}

static int analyze_phase(struct case_result *c, unsigned int i)
{
	struct phase_result *p = &c->phases[i];
	struct phase_facts x;
	unsigned int r;

	phase_facts_init(&x, c, i);
	analyze_verdict(&x, &p->verdict);
	finding_list_free(&p->findings);
	for (r = 0; r < analyze_n_rules; r++) {
		const struct rule *rule = &analyze_rules[r];
		struct finding f;

		if (!rule->check)
			continue;
		memset(&f, 0, sizeof(f));
		snprintf(f.rule, sizeof(f.rule), "%s", rule->id);
		snprintf(f.domain, sizeof(f.domain), "%s", rule->domain);
		snprintf(f.mechanism, sizeof(f.mechanism), "%s",
			 rule->mechanism);
		if (rule->check(&x, &f) && finding_list_add(&p->findings, &f))
			return -ENOMEM;
	}
	findings_sort(&p->findings);
	return 0;
}

int analyze_case(struct case_result *c)
{
	unsigned int i;
	int err;

	for (i = 0; i < c->n_phases; i++) {
		err = analyze_phase(c, i);
		if (err)
			return err;
	}
	return 0;
}

int analyze_run(struct run_result *run)
{
	unsigned int i;
	int err;

	for (i = 0; i < run->n_cases; i++) {
		err = analyze_case(&run->cases[i]);
		if (err)
			return err;
	}
	err = analyze_comparisons(run);
	return err ? err : analyze_classic(run);
}
