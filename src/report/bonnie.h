/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bonnie workload's results the way bonnie++ 1.97 prints them: its text
 * table (K/sec and %CP per test, seeks/s, latency row) and its CSV line, so
 * bon_csv2html and other bonnie++ tooling can read fsprof's results.
 */
#ifndef FSPROF_REPORT_BONNIE_H
#define FSPROF_REPORT_BONNIE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

/* fields in a bonnie++ 1.97 CSV line */
#define BONNIE_CSV_FIELDS 48
#define BONNIE_CSV_VERSION "1.97"

/*
 * The bonnie++ table of every bonnie case in run (nothing for others); name
 * as for the CSV line.
 */
void report_bonnie_tables(const struct run_result *run, const char *name,
			  FILE *out);

/*
 * One bonnie++ 1.97 CSV line per bonnie case; name is the machine name
 * column (NULL: this host's nodename, as bonnie++). Returns the lines written.
 */
unsigned int report_bonnie_csv(const struct run_result *run, const char *name,
			       FILE *out);

/* bonnie++'s size text: mib MiB as "512M", "4G"; chunk bytes as "4k" */
void bonnie_size_text(uint64_t mib, char *buf, size_t len);
void bonnie_chunk_text(uint64_t bytes, char *buf, size_t len);

/* bonnie++'s latency text: "812us", "34ms", "120s"; "" for 0 */
void bonnie_latency_text(uint64_t ns, char *buf, size_t len);

#endif
