// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report/histo_text.h"
#include "util/histogram.h"

static void stars(uint64_t v, uint64_t max, FILE *out)
{
	unsigned int n = max ? (unsigned int)(v * HISTO_STARS / max) : 0, i;

	if (v && !n)
		n = 1;
	fputc('|', out);
	for (i = 0; i < HISTO_STARS; i++)
		fputc(i < n ? '*' : ' ', out);
	fputc('|', out);
}

void report_histogram_bcc(const char *title, const char *unit,
			  const struct latency_hist *h, FILE *out)
{
	uint64_t b[HIST_LOG2_BUCKETS], max = 0;
	unsigned int k, lo = HIST_LOG2_BUCKETS, hi = 0;

	hist_fold_log2(h->slot, HIST_NSLOTS, b);
	for (k = 0; k < HIST_LOG2_BUCKETS; k++) {
		if (!b[k])
			continue;
		lo = k < lo ? k : lo;
		hi = k;
		max = b[k] > max ? b[k] : max;
	}
	if (lo == HIST_LOG2_BUCKETS)
		return;
	fprintf(out, "\n%s\n%24s : count     distribution\n", title, unit);
	for (k = lo; k <= hi; k++) {
		unsigned long long from = hist_log2_low(k);
		unsigned long long to = k ? from * 2 - 1 : 0;

		fprintf(out, "%10llu -> %-10llu : %-8llu  ", from, to,
			(unsigned long long)b[k]);
		stars(b[k], max, out);
		fputc('\n', out);
	}
}

/* "nsecs", "bytes", "blocks", like bcc's unit line */
static const char *hist_unit(const char *name)
{
	if (strstr(name, "_ns"))
		return "nsecs";
	if (strstr(name, "_bytes"))
		return "bytes";
	if (strstr(name, "_blocks"))
		return "blocks";
	return "value";
}

void report_case_histograms(const struct case_result *c, FILE *out)
{
	unsigned int p, i;
	char title[160];

	for (p = 0; p < c->n_phases; p++) {
		const struct phase_result *ph = &c->phases[p];
		struct block_class_result all;

		block_result_total(&ph->block, &all);
		snprintf(
			title, sizeof(title),
			"%s on %s, phase %s: block IO latency (issue -> complete)",
			c->workload, case_target_name(c), ph->name);
		report_histogram_bcc(title, "nsecs", &all.lat, out);
		for (i = 0; i < ph->metrics.n_hists; i++) {
			const struct metric_hist *m = &ph->metrics.hists[i];

			snprintf(title, sizeof(title), "%s, phase %s: %s",
				 case_target_name(c), ph->name, m->name);
			report_histogram_bcc(title, hist_unit(m->name), &m->h,
					     out);
		}
	}
}
