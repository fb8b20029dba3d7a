// SPDX-License-Identifier: GPL-2.0
#include "report/attach.h"

void report_attach_table(const struct attach_list *list, FILE *out)
{
	unsigned int i;

	fprintf(out, "%-10s %-16s %-40s %-9s %s\n", "DOMAIN", "PROGRAM",
		"EVENT", "STATE", "REASON");
	for (i = 0; i < list->n; i++) {
		const struct attach_record *a = &list->v[i];

		fprintf(out, "%-10s %-16s %-40s %-9s %s\n", a->domain,
			a->program, a->event, attach_state_name(a->state),
			a->reason);
	}
}

void report_attach_summary(const struct attach_list *list, FILE *out)
{
	unsigned int i, n[3] = { 0, 0, 0 };

	for (i = 0; i < list->n; i++)
		n[list->v[i].state]++;
	fprintf(out,
		"probes: %u attached, %u missing (not in this kernel), %u failed%s\n",
		n[ATTACH_ATTACHED], n[ATTACH_MISSING], n[ATTACH_FAILED],
		n[ATTACH_FAILED] ? " (see the JSON's programs[] for why)" : "");
}
