/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing of user-given numbers with units, with real errors. */
#ifndef FSPROF_PARSE_H
#define FSPROF_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a byte size: "4096", "4k", "256M", "4G", "1T", also "4KiB", "4kB"
 * (= 4000), "1.5G". Binary units by default (k = 1024) as dd and fio do;
 * "kB"/"MB"/"GB"/"TB" are powers of 1000. Returns 0, or -EINVAL with a reason
 * in err (garbage, negative, zero, overflow).
 */
int parse_size(const char *text, uint64_t *out, char *err, size_t errlen);

/*
 * Parse a duration with its unit: "100ms", "50us", "1.5s", "200ns". A unit is
 * required. Returns 0, or -EINVAL with a reason in err (garbage, no unit,
 * under 1 ns, overflow).
 */
int parse_duration(const char *text, uint64_t *out, char *err, size_t errlen);

/* Format bytes with a binary unit: "256 MiB", "1.5 GiB", "512 B". */
void format_bytes(uint64_t bytes, char *buf, size_t len);

#endif
