// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report/targets.h"
#include "report/wrap.h"

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
		if (!case_target_first(run, i))
			continue;
		fprintf(out, "  %-*s  ", width,
			case_target_name(&run->cases[i]));
		spec_wrapped(out, run->cases[i].target_label, width + 4);
	}
	fputc('\n', out);
}

void kernel_case_orders(const struct run_result *run, unsigned int first,
			char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = first; i < run->n_cases && used + 1 < len; i++) {
		int w;

		if (!run->cases[i].order ||
		    !case_same_kernel(&run->cases[i], &run->cases[first]))
			continue;
		w = snprintf(buf + used, len - used, "%s%u", used ? " " : "",
			     run->cases[i].order);
		if (w < 0 || (size_t)w >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}

bool kernel_first(const struct run_result *run, unsigned int i)
{
	unsigned int j;

	if (!run->cases[i].kernel.guest)
		return false;
	for (j = 0; j < i; j++)
		if (case_same_kernel(&run->cases[j], &run->cases[i]))
			return false;
	return true;
}

void report_kernel_list(const struct run_result *run, FILE *out)
{
	char orders[256];
	unsigned int i;
	bool header = false, emulated = false;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_kernel *k = &run->cases[i].kernel;

		if (!kernel_first(run, i))
			continue;
		if (!header)
			fprintf(out, "kernels (QEMU guests):\n");
		header = true;
		emulated |= k->emulated;
		kernel_case_orders(run, i, orders, sizeof(orders));
		/* within TEXT_WIDTH: a Debian release and package name and
		 * the orders of a dozen cases take more */
		text_hanging(out, 4, "  %s  %s, %s guest, BTF %s%s%s%s",
			     k->release, k->source, k->accel, k->btf_hash,
			     orders[0] ? ", cases " : "", orders,
			     orders[0] ? " of the run" : "");
	}
	if (emulated)
		text_hanging(
			out, 4,
			"  tcg: emulated, the guests' times are the emulator's (slower by a varying factor)");
	if (header)
		fputc('\n', out);
}
