// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"

struct csv_row_ctx {
	FILE *out;
	const struct case_result *c;
	unsigned int index; /* the case's position in the run, 1-based */
	const char *phase;
};

void csv_field(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static bool name_ends(const char *name, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !strncmp(name + n - k, suffix, k);
}

/* the unit of name's first n bytes, by their last component, or NULL */
static const char *component_unit(const char *name, size_t n)
{
	static const struct {
		const char *suffix, *unit;
	} units[] = {
		{ "mib_per_s", "MiB/s" },
		{ "mb_per_s", "MB/s" },
		{ "files_per_s", "files/s" },
		{ "bw_bytes", "bytes/s" },
		{ "_ns", "ns" },
		{ "_bytes", "bytes" },
		{ "_pages", "pages" },
		{ "_blocks", "blocks" },
		{ "_jiffies", "jiffies" },
		{ "percent", "%" },
		{ "ctxsw", "switches" },
	};
	size_t i, start = n;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (name_ends(name, n, units[i].suffix))
			return units[i].unit;
	while (start && name[start - 1] != '.')
		start--;
	if (n - start == 5 && !strncmp(name + start, "bytes", 5))
		return "bytes";
	if (n - start == 3 && !strncmp(name + start, "ios", 3))
		return "requests";
	return NULL;
}

const char *metric_unit(const char *name)
{
	size_t n = strlen(name);

	/* the last component with a unit: "sched.offcpu_ns.read_io" is ns */
	while (n) {
		const char *unit = component_unit(name, n);
		size_t dot = n;

		if (unit)
			return unit;
		while (dot && name[dot - 1] != '.')
			dot--;
		if (!dot)
			break;
		n = dot - 1;
	}
	return "count";
}

static void csv_row_text(const struct csv_row_ctx *x, const char *metric,
			 const char *value, const char *unit)
{
	const struct case_result *c = x->c;
	char num[16];

	snprintf(num, sizeof(num), "%u", x->index);
	csv_field(x->out, num, false);
	snprintf(num, sizeof(num), "%u", c->repeat);
	csv_field(x->out, num, false);
	csv_field(x->out, c->workload, false);
	csv_field(x->out, c->params, false);
	csv_field(x->out, case_target_name(c), false);
	csv_field(x->out, c->target_label, false);
	csv_field(x->out, c->target.fstype, false);
	csv_field(x->out, x->phase, false);
	csv_field(x->out, metric, false);
	csv_field(x->out, value, false);
	csv_field(x->out, unit, true);
}

static void csv_u64(const struct csv_row_ctx *x, const char *metric, uint64_t v)
{
	char value[32];

	snprintf(value, sizeof(value), "%llu", (unsigned long long)v);
	csv_row_text(x, metric, value, metric_unit(metric));
}

static void csv_real(const struct csv_row_ctx *x, const char *metric, double v,
		     const char *unit)
{
	char value[40];

	/* whole numbers in full, fractions to 10 significant digits */
	if (v == (double)(int64_t)v)
		snprintf(value, sizeof(value), "%.0f", v);
	else
		snprintf(value, sizeof(value), "%.10g", v);
	csv_row_text(x, metric, value, unit ? unit : metric_unit(metric));
}

/* count, mean, max and percentiles of a histogram under prefix */
static void csv_hist(const struct csv_row_ctx *x, const char *prefix,
		     const struct latency_hist *h, const char *unit)
{
	static const int pct[] = { 50, 90, 99 };
	char name[160];
	unsigned int i;

	if (!h->count)
		return;
	snprintf(name, sizeof(name), "%s.count", prefix);
	csv_real(x, name, (double)h->count, "count");
	snprintf(name, sizeof(name), "%s.mean", prefix);
	csv_real(x, name, (double)(h->sum_ns / h->count), unit);
	snprintf(name, sizeof(name), "%s.max", prefix);
	csv_real(x, name, (double)h->max_ns, unit);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "%s.p%d", prefix, pct[i]);
		csv_real(x, name,
			 (double)(int64_t)latency_hist_percentile(h, pct[i]),
			 unit);
	}
}

static void csv_block_class(const struct csv_row_ctx *x, const char *prefix,
			    const struct block_class_result *r)
{
	char name[160];

	snprintf(name, sizeof(name), "%s.ios", prefix);
	csv_u64(x, name, r->ios);
	snprintf(name, sizeof(name), "%s.bytes", prefix);
	csv_u64(x, name, r->bytes);
	snprintf(name, sizeof(name), "%s.latency", prefix);
	csv_hist(x, name, &r->lat, "ns");
}

static void csv_block(const struct csv_row_ctx *x, const struct block_result *b)
{
	struct block_class_result total, cls[BLK_IOC_NR];
	unsigned int i;
	char name[96];

	if (!b->traced)
		return;
	block_result_total(b, &total);
	csv_block_class(x, "block.total", &total);
	csv_u64(x, "block.busy_ns", b->device.busy_ns);
	csv_u64(x, "block.inflight.time_ns", b->device.inflight_ns);
	for (i = 0; i < BLK_OPC_NR; i++) {
		if (!b->cls[i].ios)
			continue;
		snprintf(name, sizeof(name), "block.classes.%s",
			 blk_opclass_name(i));
		csv_block_class(x, name, &b->cls[i]);
	}
	memset(cls, 0, sizeof(cls));
	for (i = 0; i < b->n_io; i++)
		block_class_add(&cls[b->io[i].ioclass], &b->io[i].r);
	for (i = 0; i < BLK_IOC_NR; i++) {
		if (!cls[i].ios)
			continue;
		snprintf(name, sizeof(name), "block.io_classes.%s.ios",
			 blk_ioclass_name(i));
		csv_u64(x, name, cls[i].ios);
		snprintf(name, sizeof(name), "block.io_classes.%s.bytes",
			 blk_ioclass_name(i));
		csv_u64(x, name, cls[i].bytes);
		snprintf(name, sizeof(name), "block.io_classes.%s.busy_ns",
			 blk_ioclass_name(i));
		csv_u64(x, name, b->ioclass[i].busy_ns);
	}
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The named metrics (or histograms) of m in name order, so that a run and
 * its saved JSON read back give the same rows in the same order.
 */
static const char **names_sorted(const struct metric_set *m, bool hists,
				 unsigned int *n)
{
	const char **v;
	unsigned int i;

	*n = hists ? m->n_hists : m->n;
	v = calloc(*n ? *n : 1, sizeof(*v));
	if (!v) {
		*n = 0;
		return NULL;
	}
	for (i = 0; i < *n; i++)
		v[i] = hists ? m->hists[i].name : m->v[i].name;
	qsort(v, *n, sizeof(*v), name_cmp);
	return v;
}

static void csv_phase(const struct csv_row_ctx *x, const struct phase_result *p)
{
	const struct metric_set *m = &p->metrics;
	char name[METRIC_NAME_LEN + 32];
	const char **names;
	unsigned int i, n;

	csv_u64(x, "wall_ns", p->wall_ns);
	csv_u64(x, "workload.bytes", p->work.bytes);
	csv_u64(x, "workload.ops", p->work.ops);
	csv_u64(x, "workload.files", p->work.files);
	csv_real(x, "workload.mb_per_s", phase_mb_per_s(p), NULL);
	csv_real(x, "workload.files_per_s", phase_files_per_s(p), NULL);
	csv_u64(x, "cpu.user_ns", p->user_ns);
	csv_u64(x, "cpu.sys_ns", p->sys_ns);
	csv_real(x, "cpu.percent", phase_cpu_percent(p), NULL);
	csv_block(x, &p->block);
	names = names_sorted(m, false, &n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "metrics.%s", names[i]);
		csv_u64(x, name, metric_value(m, names[i]));
	}
	free(names);
	names = names_sorted(m, true, &n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "histograms.%s", names[i]);
		csv_hist(x, name, metric_hist_find(m, names[i]),
			 metric_unit(names[i]));
	}
	free(names);
	for (i = 0; p->verdict.done && i < p->verdict.n_shares; i++) {
		snprintf(name, sizeof(name), "verdict.shares.%s",
			 p->verdict.shares[i].name);
		csv_real(x, name, p->verdict.shares[i].value, "fraction");
	}
}

void report_csv(const struct run_result *run, FILE *out)
{
	unsigned int i, j;

	fprintf(out, "%s\n", CSV_HEADER);
	for (i = 0; i < run->n_cases; i++) {
		struct csv_row_ctx x = { out, &run->cases[i], i + 1, NULL };

		for (j = 0; j < x.c->n_phases; j++) {
			x.phase = x.c->phases[j].name;
			csv_phase(&x, &x.c->phases[j]);
		}
	}
}
