/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bonnie workload's results the way bonnie++ prints them: its 1.97 text
 * table (K/sec and %CP per test, seeks/s, latency row) and the CSV line of
 * bonnie++ 2.00 (CSV format 1.98, with the seeks and seeker processes after
 * the chunk size), which Debian's bon_csv2txt and bon_csv2html read (they
 * refuse 1.97 lines).
 */
#ifndef FSPROF_REPORT_BONNIE_H
#define FSPROF_REPORT_BONNIE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

/* fields in a bonnie++ CSV line of format 1.98 */
#define BONNIE_CSV_FIELDS 50
#define BONNIE_CSV_VERSION "1.98"

/*
 * The bonnie++ table of every bonnie case in run (nothing for others); name
 * as for the CSV line.
 */
void report_bonnie_tables(const struct run_result *run, const char *name,
			  FILE *out);

/*
 * One bonnie++ CSV line (format 1.98) per bonnie case; name is the machine name
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
