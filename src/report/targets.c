// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report/targets.h"

/* is case i the first with its target? */
static bool target_first(const struct run_result *run, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (!strcmp(run->cases[j].target_label,
			    run->cases[i].target_label))
			return false;
	return true;
}

/* spec from column indent on, wrapped at TARGETS_WIDTH after a , : or space */
static void spec_wrapped(FILE *out, const char *spec, int indent)
{
	int room = TARGETS_WIDTH - indent;
	size_t len = strlen(spec);

	while ((int)len > room) {
		int cut = room;

		while (cut > room / 2 && !strchr(",: ", spec[cut - 1]))
			cut--;
		if (cut <= room / 2)
			cut = room;
		fprintf(out, "%.*s\n%*s", cut, spec, indent, "");
		spec += cut;
		len -= (size_t)cut;
	}
	fprintf(out, "%s\n", spec);
}

void report_target_list(const struct run_result *run, FILE *out)
{
	unsigned int i;
	int width = 0;
	bool named = false;

	for (i = 0; i < run->n_cases; i++) {
		const char *name = case_target_name(&run->cases[i]);

		if (strcmp(name, run->cases[i].target_label))
			named = true;
		if ((int)strlen(name) > width)
			width = (int)strlen(name);
	}
	if (!named)
		return;
	fprintf(out, "targets:\n");
	for (i = 0; i < run->n_cases; i++) {
		if (!target_first(run, i))
			continue;
		fprintf(out, "  %-*s  ", width,
			case_target_name(&run->cases[i]));
		spec_wrapped(out, run->cases[i].target_label, width + 4);
	}
	fputc('\n', out);
}

void report_kernel_list(const struct run_result *run, FILE *out)
{
	unsigned int i, j;
	bool header = false, emulated = false;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_kernel *k = &run->cases[i].kernel;

		if (!k->guest)
			continue;
		for (j = 0; j < i; j++)
			if (case_same_kernel(&run->cases[j], &run->cases[i]))
				break;
		if (j < i)
			continue;
		if (!header)
			fprintf(out, "kernels (QEMU guests):\n");
		header = true;
		emulated |= k->emulated;
		fprintf(out, "  %s  %s, %s guest, BTF %s\n", k->release,
			k->source, k->accel, k->btf_hash);
	}
	if (emulated)
		fprintf(out,
			"  tcg: emulated, the guests' times are the emulator's (slower by a varying factor)\n");
	if (header)
		fputc('\n', out);
}
