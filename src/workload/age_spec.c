// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/age_spec.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)

static const char *const pattern_names[] = {
	[AGE_EVERY_OTHER] = "every-other",
	[AGE_RANDOM] = "random",
	[AGE_KEEP] = "none",
};

static const char *const sizes_names[] = {
	[AGE_SMALL] = "small",
	[AGE_MIXED] = "mixed",
	[AGE_LARGE] = "large",
};

#define N_PATTERNS (sizeof(pattern_names) / sizeof(pattern_names[0]))
#define N_SIZES (sizeof(sizes_names) / sizeof(sizes_names[0]))

const char *age_pattern_name(enum age_pattern p)
{
	return (unsigned int)p < N_PATTERNS ? pattern_names[p] : "?";
}

const char *age_sizes_name(enum age_sizes s)
{
	return (unsigned int)s < N_SIZES ? sizes_names[s] : "?";
}

void age_sizes_range(enum age_sizes sizes, uint64_t *min, uint64_t *max)
{
	switch (sizes) {
	case AGE_SMALL:
		*min = 4 * KiB, *max = 64 * KiB;
		break;
	case AGE_LARGE:
		*min = 1 * MiB, *max = 32 * MiB;
		break;
	default:
		*min = 4 * KiB, *max = 4 * MiB;
		break;
	}
}

double age_spec_free_share(const struct age_spec *s)
{
	double filled = s->fill_pct / 100.0, deleted;

	switch (s->pattern) {
	case AGE_EVERY_OTHER:
		deleted = 0.5;
		break;
	case AGE_RANDOM:
		deleted = s->delete_pct / 100.0;
		break;
	default:
		deleted = 0;
		break;
	}
	return 1 - filled + filled * deleted;
}

/* a whole number from min to max; -EINVAL when text is not one */
static int whole(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long n;

	if (!*text || text[0] == '-' || text[0] == '+')
		return -EINVAL;
	errno = 0;
	n = strtoull(text, &end, 10);
	if (*end || errno || n < min || n > max)
		return -EINVAL;
	*out = n;
	return 0;
}

/* the index of name in names, or -1 */
static int name_index(const char *name, const char *const *names,
		      unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

struct age_parse {
	struct age_spec *s;
	char *why;
	size_t whylen;
	bool fill, delete;
};

static int age_fail(struct age_parse *p, const char *fmt, const char *a,
		    const char *b)
{
	snprintf(p->why, p->whylen, fmt, a, b);
	return -EINVAL;
}

static int age_set_fill(struct age_parse *p, const char *val)
{
	uint64_t n;

	if (whole(val, 1, 100, &n))
		return age_fail(
			p,
			"--age fill=%s: not a percentage: give a whole number from 1 to 95%s",
			val, "");
	if (n > AGE_FILL_MAX)
		return age_fail(
			p,
			"--age fill=%s: over 95%% full the workload would meet ENOSPC, not a hard-working allocator (ext4 keeps 5%% for root, xfs its own reserve): give fill=95 or less%s",
			val, "");
	p->s->fill_pct = (unsigned int)n;
	p->fill = true;
	return 0;
}

static int age_set(struct age_parse *p, const char *key, const char *val)
{
	uint64_t n;
	int i;

	if (!strcmp(key, "fill"))
		return age_set_fill(p, val);
	if (!strcmp(key, "pattern")) {
		i = name_index(val, pattern_names, N_PATTERNS);
		if (i < 0)
			return age_fail(
				p,
				"--age pattern=%s: unknown pattern: give every-other (delete every other file written), random (each with probability delete=PCT, seeded) or none (delete nothing)%s",
				val, "");
		p->s->pattern = (enum age_pattern)i;
	} else if (!strcmp(key, "sizes")) {
		i = name_index(val, sizes_names, N_SIZES);
		if (i < 0)
			return age_fail(
				p,
				"--age sizes=%s: unknown size mix: give small (4 KiB-64 KiB), mixed (4 KiB-4 MiB) or large (1 MiB-32 MiB)%s",
				val, "");
		p->s->sizes = (enum age_sizes)i;
	} else if (!strcmp(key, "delete")) {
		if (whole(val, 1, 99, &n))
			return age_fail(
				p,
				"--age delete=%s: the share of files deleted is a whole percentage from 1 to 99%s",
				val, "");
		p->s->delete_pct = (unsigned int)n;
		p->delete = true;
	} else if (!strcmp(key, "seed")) {
		if (whole(val, 0, UINT64_MAX, &n))
			return age_fail(
				p,
				"--age seed=%s: the seed is a whole number (0 to 2^64-1)%s",
				val, "");
		p->s->seed = n;
	} else {
		return age_fail(
			p,
			"--age: unknown key '%s'%s: give fill=PCT and optionally pattern=, delete=, sizes=, seed=",
			key, "");
	}
	return 0;
}

int age_spec_parse(const char *text, struct age_spec *out, char *why,
		   size_t whylen)
{
	struct age_parse p = { .s = out, .why = why, .whylen = whylen };
	char buf[256], *item, *save = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	out->pattern = AGE_EVERY_OTHER;
	out->sizes = AGE_MIXED;
	out->delete_pct = 50;
	out->seed = 1;
	if (strlen(text) >= sizeof(buf))
		return age_fail(&p, "--age: '%.40s...' is too long%s", text,
				"");
	strcpy(buf, text);
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq || eq == item)
			return age_fail(
				&p,
				"--age: '%s' is not key=value: give e.g. fill=90,pattern=every-other,sizes=small%s",
				item, "");
		*eq = '\0';
		err = age_set(&p, item, eq + 1);
		if (err)
			return err;
	}
	if (!p.fill)
		return age_fail(
			&p,
			"--age %s: fill=PCT is required (how full the filesystem is made before the deletes), e.g. --age fill=90%s",
			text, "");
	if (p.delete &&out->pattern != AGE_RANDOM)
		return age_fail(
			&p,
			"--age delete=: only pattern=random deletes a share; pattern=%s deletes %s",
			age_pattern_name(out->pattern),
			out->pattern == AGE_KEEP ? "nothing" :
						   "every other file");
	out->on = true;
	return 0;
}

void age_spec_format(const struct age_spec *s, char *buf, size_t len)
{
	char del[32] = "";

	if (s->pattern == AGE_RANDOM)
		snprintf(del, sizeof(del), ",delete=%u", s->delete_pct);
	snprintf(buf, len, "fill=%u,pattern=%s%s,sizes=%s,seed=%llu",
		 s->fill_pct, age_pattern_name(s->pattern), del,
		 age_sizes_name(s->sizes), (unsigned long long)s->seed);
}
