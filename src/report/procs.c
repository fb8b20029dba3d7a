// SPDX-License-Identifier: GPL-2.0
#include "report/procs.h"

void report_proc_top(const struct case_result *c, FILE *out)
{
	unsigned int i, j;
	bool head = false;

	for (i = 0; i < c->n_phases; i++) {
		const struct phase_result *p = &c->phases[i];

		if (!p->procs.n)
			continue;
		if (!head)
			fprintf(out,
				"\nprocesses by block IO (requests whose first bio they submitted)\n"
				"%-8s %8s %-16s %8s %10s %10s\n",
				"phase", "pid", "comm", "IOs", "MB", "wr MB");
		head = true;
		for (j = 0; j < p->procs.n; j++) {
			const struct proc_io_record *r = &p->procs.v[j];

			fprintf(out, "%-8s %8u %-16s %8llu %10.1f %10.1f\n",
				j ? "" : p->name, r->tgid, r->comm,
				(unsigned long long)r->ios, r->bytes / 1e6,
				r->write_bytes / 1e6);
		}
		if (p->procs.others)
			fprintf(out, "%-8s %8s %u more processes: %.1f MB\n",
				"", "", p->procs.others,
				p->procs.others_bytes / 1e6);
	}
}
