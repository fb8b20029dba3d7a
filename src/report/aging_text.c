// SPDX-License-Identifier: GPL-2.0
#include "report/aging_text.h"
#include "report/wrap.h"
#include "util/parse.h"

static void report_freespace(const struct freespace_table *t, FILE *out)
{
	const struct freespace_bucket *half;
	char lo[32], hi[32], range[80], bs[32];
	unsigned int i;

	if (t->error[0] || !t->tool[0]) {
		text_hanging(out, 2, "free space after aging: not recorded: %s",
			     t->error[0] ? t->error : "no histogram taken");
		return;
	}
	half = freespace_median_bucket(t);
	format_bytes(t->block_size, bs, sizeof(bs));
	format_bytes(half ? half->max_bytes + 1 : 0, hi, sizeof(hi));
	text_hanging(
		out, 2,
		"free space after aging (%s): %llu blocks of %s in %llu free extents%s%s",
		t->tool, (unsigned long long)t->free_blocks, bs,
		(unsigned long long)t->free_extents,
		half ? "; half of it in extents under " : "", half ? hi : "");
	fprintf(out, "    %-22s %9s %10s %8s\n", "free extent size", "extents",
		"blocks", "percent");
	for (i = 0; i < t->n; i++) {
		format_bytes(t->b[i].min_bytes, lo, sizeof(lo));
		format_bytes(t->b[i].max_bytes + 1, hi, sizeof(hi));
		snprintf(range, sizeof(range), "%s - <%s", lo, hi);
		fprintf(out, "    %-22s %9llu %10llu %7.2f%%\n", range,
			(unsigned long long)t->b[i].extents,
			(unsigned long long)t->b[i].blocks, t->b[i].percent);
	}
}

void report_aging(const struct age_result *a, FILE *out)
{
	char wrote[32], deleted[32];

	if (!a->on)
		return;
	format_bytes(a->bytes_written, wrote, sizeof(wrote));
	format_bytes(a->bytes_deleted, deleted, sizeof(deleted));
	text_hanging(
		out, 2,
		"aged before the first phase (--age %s; untimed, untraced, %.1f s): %llu files written (%s), %.0f%% used; %llu deleted (%s), %.0f%% used",
		a->spec, (double)a->wall_ns / 1e9,
		(unsigned long long)a->files_written, wrote,
		100 * a->used_filled, (unsigned long long)a->files_deleted,
		deleted, 100 * a->used_aged);
	report_freespace(&a->free, out);
}
