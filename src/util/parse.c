// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/parse.h"

struct size_unit {
	const char *suffix;
	uint64_t mult;
};

static const struct size_unit size_units[] = {
	{ "", 1 },
	{ "b", 1 },
	{ "k", 1ULL << 10 },
	{ "kib", 1ULL << 10 },
	{ "kb", 1000ULL },
	{ "m", 1ULL << 20 },
	{ "mib", 1ULL << 20 },
	{ "mb", 1000000ULL },
	{ "g", 1ULL << 30 },
	{ "gib", 1ULL << 30 },
	{ "gb", 1000000000ULL },
	{ "t", 1ULL << 40 },
	{ "tib", 1ULL << 40 },
	{ "tb", 1000000000000ULL },
};

int parse_size(const char *text, uint64_t *out, char *err, size_t errlen)
{
	const struct size_unit *unit = NULL;
	unsigned long long whole;
	const char *p = text;
	char *end;
	double frac = 0;
	size_t i;

	if (!text || !*text) {
		snprintf(err, errlen, "empty size");
		return -EINVAL;
	}
	if (!isdigit((unsigned char)*p)) {
		snprintf(
			err, errlen,
			"'%s' is not a size (expected a number with an optional unit: 4k, 256M, 4G)",
			text);
		return -EINVAL;
	}
	errno = 0;
	whole = strtoull(p, &end, 10);
	if (errno == ERANGE) {
		snprintf(err, errlen, "size '%s' is too large", text);
		return -EINVAL;
	}
	if (*end == '.') {
		double scale = 0.1;

		if (!isdigit((unsigned char)end[1])) {
			snprintf(err, errlen, "'%s' is not a size", text);
			return -EINVAL;
		}
		/* digits only: strtod would also take an exponent ("1.5e3k") */
		for (end++; isdigit((unsigned char)*end); end++) {
			frac += (*end - '0') * scale;
			scale /= 10;
		}
	}
	for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
		if (!strcasecmp(end, size_units[i].suffix)) {
			unit = &size_units[i];
			break;
		}
	}
	/* "kB" is decimal, "k"/"K"/"KiB" binary; "Kb" would be bits: refuse */
	if (unit && strlen(end) == 2 && end[1] == 'b') {
		snprintf(err, errlen,
			 "size '%s': '%s' would mean bits; use %cB or %ciB",
			 text, end, end[0], toupper((unsigned char)end[0]));
		return -EINVAL;
	}
	if (!unit) {
		snprintf(
			err, errlen,
			"size '%s' has an unknown unit '%s' (use k, M, G, T; KiB..TiB; kB..TB)",
			text, end);
		return -EINVAL;
	}
	if (whole > UINT64_MAX / unit->mult) {
		snprintf(err, errlen, "size '%s' is too large", text);
		return -EINVAL;
	}
	whole *= unit->mult;
	if (frac > 0) {
		double extra = floor(frac * (double)unit->mult);

		if ((double)(UINT64_MAX - whole) < extra) {
			snprintf(err, errlen, "size '%s' is too large", text);
			return -EINVAL;
		}
		whole += (uint64_t)extra;
	}
	if (frac > 0 && unit->mult == 1) {
		snprintf(err, errlen, "size '%s' has a fraction of a byte",
			 text);
		return -EINVAL;
	}
	if (whole == 0) {
		snprintf(err, errlen, "size '%s' is zero", text);
		return -EINVAL;
	}
	/* sizes travel as signed 64-bit integers in JSON */
	if (whole > INT64_MAX) {
		snprintf(err, errlen, "size '%s' is too large", text);
		return -EINVAL;
	}
	*out = whole;
	return 0;
}

void format_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B",   "KiB", "MiB", "GiB",
					     "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = 0;

	/* 1048575 is "1.0 MiB", not "1024.0 KiB": round before picking */
	while (u < 6 && (v >= 1024 || (u && v >= 1023.95))) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
}

struct duration_unit {
	const char *suffix;
	uint64_t ns;
};

static const struct duration_unit duration_units[] = {
	{ "ns", 1 },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s", 1000000000ULL },
	{ "m", 60000000000ULL },
	{ "min", 60000000000ULL },
	{ "h", 3600000000000ULL },
};

int parse_duration(const char *text, uint64_t *out, char *err, size_t errlen)
{
	const struct duration_unit *unit = NULL;
	char *end;
	double v;
	size_t i;

	if (!text || !isdigit((unsigned char)*text)) {
		snprintf(
			err, errlen,
			"'%s' is not a duration (expected a number and a unit: 100ms, 50us, 1s)",
			text ? text : "");
		return -EINVAL;
	}
	errno = 0;
	v = strtod(text, &end);
	for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++)
		if (!strcasecmp(end, duration_units[i].suffix))
			unit = &duration_units[i];
	if (errno || !unit) {
		snprintf(
			err, errlen,
			"'%s' is not a duration (expected a number and a unit: ns, us, ms, s, min or h)",
			text);
		return -EINVAL;
	}
	v *= (double)unit->ns;
	if (v < 1 || v >= 18446744073709551616.0) {
		snprintf(err, errlen,
			 "duration '%s' is out of range (1 ns .. 584 years)",
			 text);
		return -EINVAL;
	}
	*out = (uint64_t)v;
	return 0;
}
