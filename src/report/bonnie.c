// SPDX-License-Identifier: GPL-2.0
/*
 * bonnie++ 1.97's output rules: a rate is K/sec (KiB/s) truncated to an
 * integer, seeks/s printed "%.0f" from 1000 up and "%.1f" below, %CP is
 * (user + sys) / wall x 100 truncated; a test shorter than 0.5 s prints
 * "+++++" and "+++", a test that did not run prints empty fields. Latency is
 * the largest single operation of the test. The CSV line has 48 fields; the
 * file creation tests fsprof does not run are left empty, as bonnie++ -n 0
 * leaves them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "report/bonnie.h"
#include "util/log.h"
#include "util/parse.h"
#include "version.h"

#define BONNIE_MIN_TIME_NS 500000000ULL
#define BONNIE_DEFAULT_CHUNK 8192
#define BONNIE_MACHINE_WIDTH 19
/* num_files .. ran_del_cpu: the file creation tests */
#define BONNIE_CSV_FILE_FIELDS 17
#define BONNIE_CSV_FILE_LATENCIES 6

/* the six IO tests, in bonnie++'s column order, by fsprof phase name */
static const char *const bonnie_tests[] = {
	"putc", "write", "rewrite", "getc", "read", "seeks",
};

#define BONNIE_NTESTS (sizeof(bonnie_tests) / sizeof(bonnie_tests[0]))

enum cell_state { CELL_NOT_RUN, CELL_TOO_SHORT, CELL_OK };

struct bonnie_cell {
	enum cell_state state;
	double rate; /* KiB/s, or seeks/s for the seeks test */
	int cpu; /* %CP */
	uint64_t latency_ns; /* the slowest operation */
};

struct bonnie_row {
	struct bonnie_cell cell[BONNIE_NTESTS];
	char size[32]; /* "512M" */
	char chunk[32]; /* "" for the default 8k, else "4k" */
	char seed[64];
	char seeks[32]; /* seeks in total, and the processes making them */
	char seekers[32];
};

static void bonnie_units_text(uint64_t v, const char *units, char *buf,
			      size_t len)
{
	unsigned int i = 0;
	size_t n;

	if (v == 0) {
		snprintf(buf, len, "0%c", units[0]);
	} else {
		while (v % 1024 == 0 && units[i + 1]) {
			v /= 1024;
			i++;
		}
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[i]);
	}
	n = strlen(buf);
	if (n && buf[n - 1] == ' ')
		buf[n - 1] = '\0';
}

void bonnie_size_text(uint64_t mib, char *buf, size_t len)
{
	bonnie_units_text(mib, "MG", buf, len);
}

void bonnie_chunk_text(uint64_t bytes, char *buf, size_t len)
{
	bonnie_units_text(bytes, " km", buf, len);
}

/* bonnie++'s thresholds (> 99.999999 s, > 0.099999 s), truncating */
void bonnie_latency_text(uint64_t ns, char *buf, size_t len)
{
	if (!ns)
		snprintf(buf, len, "%s", "");
	else if (ns > 99999999000ULL)
		snprintf(buf, len, "%llus",
			 (unsigned long long)(ns / 1000000000));
	else if (ns > 99999000ULL)
		snprintf(buf, len, "%llums",
			 (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
}

/* the value of key in "key=val,key=val" into buf ("" when absent) */
static void param_text(const char *params, const char *key, char *buf,
		       size_t len)
{
	size_t klen = strlen(key);
	const char *p = params;

	buf[0] = '\0';
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t vlen;

		if (!strncmp(p, key, klen) && p[klen] == '=') {
			p += klen + 1;
			vlen = end ? (size_t)(end - p) : strlen(p);
			snprintf(buf, len, "%.*s", (int)vlen, p);
			return;
		}
		p = end ? end + 1 : NULL;
	}
}

static const struct phase_result *case_phase(const struct case_result *c,
					     const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n_phases; i++)
		if (!strcmp(c->phases[i].name, name))
			return &c->phases[i];
	return NULL;
}

static void bonnie_cell_make(const struct phase_result *p, bool seeks,
			     struct bonnie_cell *cell)
{
	const struct latency_hist *lat;
	double s;

	memset(cell, 0, sizeof(*cell));
	if (!p || !p->wall_ns)
		return;
	lat = metric_hist_find(&p->metrics, "bonnie.latency_ns");
	cell->latency_ns = lat ? lat->max_ns : 0;
	if (p->wall_ns < BONNIE_MIN_TIME_NS) {
		cell->state = CELL_TOO_SHORT;
		return;
	}
	s = (double)p->wall_ns / 1e9;
	cell->state = CELL_OK;
	cell->rate =
		seeks ? (double)metric_value(&p->metrics, "bonnie.seeks") / s :
			(double)p->work.bytes / 1024.0 / s;
	cell->cpu = (int)phase_cpu_percent(p);
}

static void bonnie_row_make(const struct case_result *c, struct bonnie_row *row)
{
	char chunk_param[64];
	uint64_t chunk = BONNIE_DEFAULT_CHUNK;
	char err[128];
	unsigned int i;

	for (i = 0; i < BONNIE_NTESTS; i++)
		bonnie_cell_make(case_phase(c, bonnie_tests[i]),
				 i == BONNIE_NTESTS - 1, &row->cell[i]);
	bonnie_size_text(c->size >> 20, row->size, sizeof(row->size));
	param_text(c->params, "chunk", chunk_param, sizeof(chunk_param));
	if (chunk_param[0] && parse_size(chunk_param, &chunk, err, sizeof(err)))
		chunk = BONNIE_DEFAULT_CHUNK;
	row->chunk[0] = '\0';
	if (chunk != BONNIE_DEFAULT_CHUNK)
		bonnie_chunk_text(chunk, row->chunk, sizeof(row->chunk));
	param_text(c->params, "seed", row->seed, sizeof(row->seed));
	param_text(c->params, "seeks", row->seeks, sizeof(row->seeks));
	param_text(c->params, "seekers", row->seekers, sizeof(row->seekers));
}

static const char *machine_name(const char *name, struct utsname *u)
{
	if (name)
		return name;
	if (uname(u))
		return "localhost";
	return u->nodename;
}

static void csv_cell(const struct bonnie_cell *cell, bool seeks, FILE *out)
{
	switch (cell->state) {
	case CELL_NOT_RUN:
		fputs(",,", out);
		break;
	case CELL_TOO_SHORT:
		fputs(",+++++,+++", out);
		break;
	case CELL_OK:
		if (!seeks)
			fprintf(out, ",%d", (int)cell->rate);
		else
			fprintf(out, cell->rate >= 1000.0 ? ",%.0f" : ",%.1f",
				cell->rate);
		fprintf(out, ",%d", cell->cpu);
		break;
	}
}

static void report_bonnie_csv_case(const struct case_result *c,
				   const char *name, FILE *out)
{
	struct bonnie_row row;
	char lat[32];
	unsigned int i;

	bonnie_row_make(c, &row);
	/* format_version,bonnie_version,name,concurrency,seed,file_size,
	 * io_chunk_size,seeks,seek_proc_count */
	fprintf(out, "%s,fsprof-%s,%s,1,%s,%s,%s,%s,%s", BONNIE_CSV_VERSION,
		FSPROF_VERSION, name, row.seed, row.size, row.chunk, row.seeks,
		row.seekers);
	/* putc .. seeks_cpu */
	for (i = 0; i < BONNIE_NTESTS; i++)
		csv_cell(&row.cell[i], i == BONNIE_NTESTS - 1, out);
	/* num_files .. ran_del_cpu: not run */
	for (i = 0; i < BONNIE_CSV_FILE_FIELDS; i++)
		fputc(',', out);
	/* putc_latency .. seeks_latency, then the file tests' (empty) */
	for (i = 0; i < BONNIE_NTESTS; i++) {
		bonnie_latency_text(row.cell[i].latency_ns, lat, sizeof(lat));
		fprintf(out, ",%s", lat);
	}
	for (i = 0; i < BONNIE_CSV_FILE_LATENCIES; i++)
		fputc(',', out);
	fputc('\n', out);
}

unsigned int report_bonnie_csv(const struct run_result *run, const char *name,
			       FILE *out)
{
	unsigned int i, lines = 0;
	struct utsname u;

	name = machine_name(name, &u);
	for (i = 0; i < run->n_cases; i++) {
		if (strcmp(run->cases[i].workload, "bonnie"))
			continue;
		report_bonnie_csv_case(&run->cases[i], name, out);
		lines++;
	}
	return lines;
}

static void table_cell(const struct bonnie_cell *cell, bool seeks, FILE *out)
{
	switch (cell->state) {
	case CELL_NOT_RUN:
		fputs("          ", out);
		break;
	case CELL_TOO_SHORT:
		fputs(" +++++ +++", out);
		break;
	case CELL_OK:
		if (!seeks)
			fprintf(out, " %5d", (int)cell->rate);
		else
			fprintf(out, cell->rate >= 1000.0 ? " %5.0f" : " %5.1f",
				cell->rate);
		fprintf(out, " %3d", cell->cpu);
		break;
	}
}

static void report_bonnie_table(const struct case_result *c, const char *name,
				FILE *out)
{
	int width = BONNIE_MACHINE_WIDTH - 1;
	struct bonnie_row row;
	char size[80], lat[32];
	unsigned int i;

	bonnie_row_make(c, &row);
	snprintf(size, sizeof(size), "%s%s%s", row.size,
		 row.chunk[0] ? ":" : "", row.chunk);
	width -= (int)strlen(size);
	if (width < 0)
		width = 0;
	fprintf(out,
		"\nbonnie++ 1.97 table (K = KiB; %%CP = user+sys CPU / wall; latency = slowest operation)\n");
	fprintf(out,
		"Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n");
	fprintf(out,
		"Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n");
	fprintf(out,
		"%s K/sec %%CP K/sec %%CP K/sec %%CP K/sec %%CP K/sec %%CP  /sec %%CP\n",
		row.chunk[0] ? "Machine   Size:chnk" : "Machine        Size");
	fprintf(out, "%-*.*s %s", width, width, name, size);
	for (i = 0; i < BONNIE_NTESTS; i++)
		table_cell(&row.cell[i], i == BONNIE_NTESTS - 1, out);
	fprintf(out, "\nLatency          ");
	for (i = 0; i < BONNIE_NTESTS; i++) {
		bonnie_latency_text(row.cell[i].latency_ns, lat, sizeof(lat));
		fprintf(out, " %9s", lat);
	}
	fputc('\n', out);
}

void report_bonnie_tables(const struct run_result *run, const char *name,
			  FILE *out)
{
	struct utsname u;
	unsigned int i;

	/* -q: the summary alone */
	if (log_get_level() == LOG_QUIET)
		return;
	name = machine_name(name, &u);
	for (i = 0; i < run->n_cases; i++)
		if (!strcmp(run->cases[i].workload, "bonnie"))
			report_bonnie_table(&run->cases[i], name, out);
}
