// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report/openmetrics.h"
#include "results/budget_parts.h"

#define NS_PER_S 1e9

void openmetrics_escape(const char *value, char *out, size_t size)
{
	size_t o = 0;

	for (; *value && o + 3 < size; value++) {
		if (*value == '\\' || *value == '"') {
			out[o++] = '\\';
			out[o++] = *value;
		} else if (*value == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = *value;
		}
	}
	out[o] = '\0';
}

/* the labels every sample of a phase carries */
struct om_labels {
	char text[2048];
};

static void label_add(struct om_labels *l, const char *name, const char *value)
{
	char esc[1024];
	size_t n = strlen(l->text);

	openmetrics_escape(value, esc, sizeof(esc));
	snprintf(l->text + n, sizeof(l->text) - n, "%s%s=\"%s\"", n ? "," : "",
		 name, esc);
}

static void phase_labels(const struct case_result *c, const char *phase,
			 const char *host, struct om_labels *l)
{
	const char *dev = strrchr(c->target.device, '/');
	char rep[16];

	l->text[0] = '\0';
	label_add(l, "host", host);
	label_add(l, "fs", c->target.fstype);
	label_add(l, "device", dev ? dev + 1 : c->target.device);
	label_add(l, "target",
		  c->target_name[0] ? c->target_name : c->target_label);
	label_add(l, "workload", c->workload);
	if (!strcmp(c->workload, "trace"))
		label_add(l, "command", c->params);
	label_add(l, "phase", phase);
	snprintf(rep, sizeof(rep), "%u", c->repeat);
	label_add(l, "repeat", rep);
}

/* one family: its metadata, then a sample per case x phase */
struct om_family {
	const char *name; /* without the unit suffix */
	const char *unit; /* "" for none */
	const char *help;
};

static void family_head(FILE *out, const struct om_family *f)
{
	const char *sep = f->unit[0] ? "_" : "";

	fprintf(out, "# TYPE %s%s%s gauge\n", f->name, sep, f->unit);
	if (f->unit[0])
		fprintf(out, "# UNIT %s_%s %s\n", f->name, f->unit, f->unit);
	fprintf(out, "# HELP %s%s%s %s\n", f->name, sep, f->unit, f->help);
}

static void sample(FILE *out, const struct om_family *f,
		   const struct om_labels *l, const char *extra, double v)
{
	const char *sep = f->unit[0] ? "_" : "";

	/*
	 * every digit a double holds: %.9g printed 1,923,092,481 bytes as
	 * 1.92309248e+09; a whole number below 2^53 is printed whole
	 */
	fprintf(out, "%s%s%s{%s%s%s} ", f->name, sep, f->unit, l->text,
		extra && extra[0] ? "," : "", extra ? extra : "");
	if (isfinite(v) && v > -9007199254740992.0 && v < 9007199254740992.0 &&
	    v == floor(v))
		fprintf(out, "%lld\n", (long long)v);
	else
		fprintf(out, "%.17g\n", v);
}

enum om_headline {
	OM_WALL,
	OM_CPU,
	OM_WORK_BYTES,
	OM_READ_IOS,
	OM_WRITE_IOS,
	OM_FLUSHES,
	OM_READ_BYTES,
	OM_WRITE_BYTES,
	OM_LAT_P50,
	OM_LAT_P99,
	OM_BUSY,
	OM_QD,
	OM_HEADLINE_NR,
};

static const struct om_family headline[OM_HEADLINE_NR] = {
	[OM_WALL] = { "fsprof_phase_wall", "seconds",
		      "wall time of the phase, its sync included" },
	[OM_CPU] = { "fsprof_phase_cpu", "ratio",
		     "user + system CPU of the workload / wall time" },
	[OM_WORK_BYTES] = { "fsprof_phase_workload", "bytes",
			    "bytes the workload read or wrote itself" },
	[OM_READ_IOS] = { "fsprof_phase_device_read_requests", "",
			  "read requests the device issued" },
	[OM_WRITE_IOS] = { "fsprof_phase_device_write_requests", "",
			   "write requests the device issued" },
	[OM_FLUSHES] = { "fsprof_phase_device_flush_requests", "",
			 "cache flush requests the device issued" },
	[OM_READ_BYTES] = { "fsprof_phase_device_read", "bytes",
			    "bytes the device read" },
	[OM_WRITE_BYTES] = { "fsprof_phase_device_write", "bytes",
			     "bytes the device wrote" },
	[OM_LAT_P50] = { "fsprof_phase_device_latency_p50", "seconds",
			 "median device latency, issue to complete" },
	[OM_LAT_P99] = { "fsprof_phase_device_latency_p99", "seconds",
			 "99th percentile device latency, issue to complete" },
	[OM_BUSY] = { "fsprof_phase_device_busy", "ratio",
		      "time with a request in flight / wall time" },
	[OM_QD] = { "fsprof_phase_device_queue_depth", "",
		    "requests in flight, averaged over the wall time" },
};

static double headline_value(const struct phase_result *p, enum om_headline h)
{
	const struct block_result *b = &p->block;
	struct block_class_result tot;
	double wall = p->wall_ns ? (double)p->wall_ns : 1;

	block_result_total(b, &tot);
	switch (h) {
	case OM_WALL:
		return p->wall_ns / NS_PER_S;
	case OM_CPU:
		return phase_cpu_percent(p) / 100;
	case OM_WORK_BYTES:
		return (double)p->work.bytes;
	case OM_READ_IOS:
		return (double)b->cls[BLK_OPC_READ].ios;
	case OM_WRITE_IOS:
		return (double)b->cls[BLK_OPC_WRITE].ios;
	case OM_FLUSHES:
		return (double)b->cls[BLK_OPC_FLUSH].ios;
	case OM_READ_BYTES:
		return (double)b->cls[BLK_OPC_READ].bytes;
	case OM_WRITE_BYTES:
		return (double)b->cls[BLK_OPC_WRITE].bytes;
	case OM_LAT_P50:
		return latency_hist_percentile(&tot.lat, 50) / NS_PER_S;
	case OM_LAT_P99:
		return latency_hist_percentile(&tot.lat, 99) / NS_PER_S;
	case OM_BUSY:
		return b->device.busy_ns / wall;
	case OM_QD:
		return b->device.inflight_ns / wall;
	default:
		return 0;
	}
}

/* device metrics only where the block domain traced the phase */
static bool headline_applies(const struct phase_result *p, enum om_headline h)
{
	return h <= OM_WORK_BYTES || p->block.traced;
}

typedef void (*om_phase_fn)(FILE *out, const struct om_family *f,
			    const struct phase_result *p,
			    const struct om_labels *l, unsigned int arg);

/* every phase of every case through fn, under one family head */
static void each_phase(FILE *out, const struct run_result *run,
		       const char *host, const struct om_family *f,
		       om_phase_fn fn, unsigned int arg)
{
	struct om_labels l;
	unsigned int i, j;

	family_head(out, f);
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		for (j = 0; j < c->n_phases; j++) {
			phase_labels(c, c->phases[j].name, host, &l);
			fn(out, f, &c->phases[j], &l, arg);
		}
	}
}

static void headline_sample(FILE *out, const struct om_family *f,
			    const struct phase_result *p,
			    const struct om_labels *l, unsigned int h)
{
	if (headline_applies(p, h))
		sample(out, f, l, NULL, headline_value(p, h));
}

/*
 * wall = on-CPU + off-CPU by cause + taken on its CPUs (stolen, irq) +
 * unaccounted, from the sched domain
 */
static void budget_sample(FILE *out, const struct om_family *f,
			  const struct phase_result *p,
			  const struct om_labels *l, unsigned int arg)
{
	const struct metric *on = metric_find(&p->metrics, "sched.oncpu_ns");
	const struct metric *un =
		metric_find(&p->metrics, "sched.unaccounted_ns");
	char extra[96];
	unsigned int i;

	(void)arg;
	if (!on)
		return; /* no time budget measured */
	sample(out, f, l, "part=\"on_cpu\"", on->value / NS_PER_S);
	for (i = 0; i < p->metrics.n; i++) {
		const struct metric *m = &p->metrics.v[i];

		if (strncmp(m->name, BUDGET_OFFCPU_PREFIX,
			    strlen(BUDGET_OFFCPU_PREFIX)))
			continue;
		snprintf(extra, sizeof(extra), "part=\"off_cpu\",cause=\"%s\"",
			 m->name + strlen(BUDGET_OFFCPU_PREFIX));
		sample(out, f, l, extra, m->value / NS_PER_S);
	}
	for (i = 0; i < BUDGET_TAKEN_NR; i++) {
		const struct metric *t =
			metric_find(&p->metrics, budget_taken_parts[i].metric);

		if (!t)
			continue;
		snprintf(extra, sizeof(extra), "part=\"%s\"",
			 budget_taken_parts[i].key);
		sample(out, f, l, extra, t->value / NS_PER_S);
	}
	if (un)
		sample(out, f, l, "part=\"unaccounted\"", un->value / NS_PER_S);
}

static void verdict_sample(FILE *out, const struct om_family *f,
			   const struct phase_result *p,
			   const struct om_labels *l, unsigned int arg)
{
	char extra[64];

	(void)arg;
	if (!p->verdict.done)
		return;
	snprintf(extra, sizeof(extra), "bound=\"%s\"",
		 bound_kind_name(p->verdict.bound));
	sample(out, f, l, extra, 1);
}

static void finding_sample(FILE *out, const struct om_family *f,
			   const struct phase_result *p,
			   const struct om_labels *l, unsigned int arg)
{
	char extra[160];
	unsigned int i;

	(void)arg;
	for (i = 0; i < p->findings.n; i++) {
		const struct finding *fd = &p->findings.v[i];

		snprintf(extra, sizeof(extra),
			 "rule=\"%s\",severity=\"%s\",domain=\"%s\"", fd->rule,
			 finding_severity_name(fd->severity), fd->domain);
		sample(out, f, l, extra, 1);
	}
}

/* fsprof record: the processes that issued the most block IO */
static void process_sample(FILE *out, const struct om_family *f,
			   const struct phase_result *p,
			   const struct om_labels *l, unsigned int arg)
{
	char extra[160], comm[64];
	unsigned int i;

	(void)arg;
	for (i = 0; i < p->procs.n; i++) {
		openmetrics_escape(p->procs.v[i].comm, comm, sizeof(comm));
		snprintf(extra, sizeof(extra), "pid=\"%u\",comm=\"%s\"",
			 p->procs.v[i].tgid, comm);
		sample(out, f, l, extra, (double)p->procs.v[i].bytes);
	}
}

static const struct om_family budget = {
	"fsprof_phase_time", "seconds",
	"where the wall time went: on-CPU, off-CPU by kernel cause, taken on its CPUs (stolen, irq), unaccounted"
};
static const struct om_family verdict = {
	"fsprof_phase_bound", "",
	"1 for what bounds the phase (the verdict of fsprof's analysis)"
};
static const struct om_family findings = {
	"fsprof_phase_finding", "",
	"1 for every finding of fsprof's rules on the phase"
};
static const struct om_family processes = {
	"fsprof_phase_process_device", "bytes",
	"block IO bytes of the processes that issued the most (fsprof record)"
};

void report_openmetrics(const struct run_result *run, FILE *out)
{
	char host[256] = "";
	unsigned int h;

	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "unknown");
	fprintf(out,
		"# TYPE fsprof_run_start_timestamp gauge\n"
		"# HELP fsprof_run_start_timestamp when the run began, seconds since the epoch\n"
		"fsprof_run_start_timestamp %.3f\n",
		run->started_real_ns / NS_PER_S);
	for (h = 0; h < OM_HEADLINE_NR; h++)
		each_phase(out, run, host, &headline[h], headline_sample, h);
	each_phase(out, run, host, &budget, budget_sample, 0);
	each_phase(out, run, host, &verdict, verdict_sample, 0);
	each_phase(out, run, host, &findings, finding_sample, 0);
	each_phase(out, run, host, &processes, process_sample, 0);
	fprintf(out, "# EOF\n");
}
