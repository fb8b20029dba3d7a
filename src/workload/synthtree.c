// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/prng.h"
#include "workload/synthtree.h"

/* linux-source-6.1: 78,579 files, 5,096 dirs, 56 symlinks, 1,298,682,509 B */
#define K61_FILES 78579ULL
#define K61_DIRS 5096ULL
#define K61_SYMLINKS 56ULL
#define K61_MEAN_SIZE 16527ULL

#define SYNTH_MAX_DEPTH 10
/* files above the 95th percentile take the change when bytes are set */
#define SYNTH_TAIL_FROM 48093.0
#define SYNTH_MTIME_BASE 1670000000LL /* December 2022 */
#define SYNTH_POOL_MIN (1ULL << 20)
#define SYNTH_WORDS 256

/*
 * File size CDF (size, share of files at or below it): the measured
 * quantiles (p10 446 ... p99 124,858, max 23.9 MB) and shares by size band,
 * with one knot in the >1 MiB tail placed so that its 0.1% of the files hold
 * about a quarter of the bytes, as measured. Log-linear in between.
 */
static const struct {
	double size, cdf;
} size_knots[] = {
	{ 16, 0.0 },	      { 446, 0.10 },	    { 512, 0.115 },
	{ 1024, 0.21 },	      { 1280, 0.25 },	    { 2048, 0.35 },
	{ 3874, 0.50 },	      { 4096, 0.513 },	    { 8192, 0.677 },
	{ 11416, 0.75 },      { 16384, 0.817 },	    { 28759, 0.90 },
	{ 32768, 0.914 },     { 48093, 0.95 },	    { 65536, 0.968 },
	{ 124858, 0.99 },     { 131072, 0.9909 },   { 262144, 0.99693 },
	{ 1048576, 0.99893 }, { 3145728, 0.99975 }, { 25060000, 1.0 },
};

/* share of directories at each depth (the top directory is depth 1) */
static const double depth_share[SYNTH_MAX_DEPTH + 1] = {
	[2] = 0.005, [3] = 0.14,  [4] = 0.35,  [5] = 0.275,  [6] = 0.15,
	[7] = 0.055, [8] = 0.017, [9] = 0.005, [10] = 0.003,
};

/* lognormal files per directory: median 6, p90 ~32 */
#define FILES_PER_DIR_MU 1.7918 /* ln 6 */
#define FILES_PER_DIR_SIGMA 1.3

static const struct {
	const char *name, *top;
	uint64_t files, dirs, symlinks, bytes;
} presets[] = {
	{ "small", "linux-small", 3000, 0, 0, 0 },
	{ "linux-2.6.33", "linux-2.6.33", 31500, 2000, 20, 370000000 },
	{ "linux-6.1", "linux-6.1", K61_FILES, K61_DIRS, K61_SYMLINKS,
	  1298682509 },
};

static const char *const extensions[] = {
	".c", ".c",   ".c",   ".c",    ".h",	".h",	 ".h",
	".S", ".rst", ".txt", ".dts",  ".yaml", ".sh",	 ".py",
	"",   ".c",   ".h",   ".dtsi", "",	".json",
};

const char *synth_preset_names(void)
{
	return "small, linux-2.6.33, linux-6.1";
}

void synth_spec_scale(struct synth_spec *spec, uint64_t files)
{
	spec->files = files;
	spec->dirs = (files * K61_DIRS + K61_FILES / 2) / K61_FILES;
	if (!spec->dirs)
		spec->dirs = 1;
	spec->symlinks = (files * K61_SYMLINKS + K61_FILES / 2) / K61_FILES;
	spec->bytes = files * K61_MEAN_SIZE;
}

int synth_preset(const char *name, struct synth_spec *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].name, name))
			continue;
		memset(out, 0, sizeof(*out));
		snprintf(out->top, sizeof(out->top), "%s", presets[i].top);
		synth_spec_scale(out, presets[i].files);
		if (presets[i].dirs) {
			out->dirs = presets[i].dirs;
			out->symlinks = presets[i].symlinks;
			out->bytes = presets[i].bytes;
		}
		out->seed = 1;
		return 0;
	}
	return -EINVAL;
}

uint64_t synth_size_quantile(double q)
{
	unsigned int i, n = sizeof(size_knots) / sizeof(size_knots[0]);

	for (i = 1; i < n; i++) {
		double c0 = size_knots[i - 1].cdf, c1 = size_knots[i].cdf;
		double l0 = log(size_knots[i - 1].size);
		double l1 = log(size_knots[i].size);

		if (q <= c1)
			return (uint64_t)exp(l0 +
					     (q - c0) / (c1 - c0) * (l1 - l0));
	}
	return (uint64_t)size_knots[n - 1].size;
}

/* everything the generator works on */
struct synth {
	const struct synth_spec *spec;
	struct memtar *t;
	struct prng rng;
	uint64_t *parent; /* per directory */
	uint64_t *child_start, *child_list; /* subdirectories, by parent */
	uint64_t *nfiles, *nlinks; /* per directory */
	uint64_t *name_seq; /* per directory: names made so far */
	uint64_t *sizes; /* per file, in the order files are emitted */
	uint64_t next_file;
	uint64_t pool_size;
	char words[SYNTH_WORDS][12];
	char path[PATH_MAX];
};

static double normal(struct prng *rng)
{
	return sqrt(-2.0 * log(prng_unit(rng))) *
	       cos(2.0 * M_PI * prng_unit(rng));
}

/* directories per depth level, each level below a non-empty one */
static void synth_depth_counts(uint64_t dirs, uint64_t *cnt)
{
	uint64_t rest = dirs - 1, given = 0, d, e;
	double cum = 0;

	memset(cnt, 0, (SYNTH_MAX_DEPTH + 1) * sizeof(*cnt));
	cnt[1] = 1;
	for (d = 2; d <= SYNTH_MAX_DEPTH; d++) {
		cum += depth_share[d];
		cnt[d] = (uint64_t)llround(cum * (double)rest) - given;
		given += cnt[d];
	}
	cnt[SYNTH_MAX_DEPTH] += rest - given;
	for (d = 2; d <= SYNTH_MAX_DEPTH; d++) {
		if (cnt[d])
			continue;
		for (e = d + 1; e <= SYNTH_MAX_DEPTH; e++) {
			cnt[d] += cnt[e];
			cnt[e] = 0;
		}
	}
}

/*
 * Directories numbered level by level; a new directory joins the parent of
 * an earlier one at its level half the time, so some grow many subdirs.
 */
static void synth_dirs(struct synth *s)
{
	uint64_t cnt[SYNTH_MAX_DEPTH + 1], first[SYNTH_MAX_DEPTH + 2];
	uint64_t d, i, n = s->spec->dirs;

	synth_depth_counts(n, cnt);
	first[1] = 0;
	for (d = 1; d <= SYNTH_MAX_DEPTH; d++)
		first[d + 1] = first[d] + cnt[d];
	s->parent[0] = 0;
	for (d = 2; d <= SYNTH_MAX_DEPTH; d++) {
		for (i = first[d]; i < first[d + 1]; i++) {
			if (i > first[d] && prng_below(&s->rng, 2))
				s->parent[i] =
					s->parent[first[d] +
						  prng_below(&s->rng,
							     i - first[d])];
			else
				s->parent[i] = first[d - 1] +
					       prng_below(&s->rng, cnt[d - 1]);
		}
	}
	/* subdirectory lists by parent (counting sort) */
	for (i = 1; i < n; i++)
		s->child_start[s->parent[i] + 1]++;
	for (i = 0; i < n; i++)
		s->child_start[i + 1] += s->child_start[i];
	for (i = 1; i < n; i++)
		s->child_list[s->name_seq[s->parent[i]]++ +
			      s->child_start[s->parent[i]]] = i;
	memset(s->name_seq, 0, n * sizeof(*s->name_seq));
}

/* lognormal weights rounded so that the counts sum to exactly files */
static void synth_files_per_dir(struct synth *s)
{
	uint64_t n = s->spec->dirs, i, prev = 0;
	double *w = malloc(n * sizeof(*w)), total = 0, cum = 0;

	if (!w) { /* an even spread is still a tree */
		for (i = 0; i < n; i++)
			s->nfiles[i] = s->spec->files * (i + 1) / n -
				       s->spec->files * i / n;
		return;
	}
	for (i = 0; i < n; i++) {
		w[i] = exp(FILES_PER_DIR_MU +
			   FILES_PER_DIR_SIGMA * normal(&s->rng));
		total += w[i];
	}
	for (i = 0; i < n; i++) {
		uint64_t upto;

		cum += w[i];
		upto = i + 1 == n ? s->spec->files :
				    (uint64_t)llround(cum / total *
						      (double)s->spec->files);
		s->nfiles[i] = upto - prev;
		prev = upto;
	}
	free(w);
	for (i = 0; i < s->spec->symlinks; i++)
		s->nlinks[prng_below(&s->rng, n)]++;
}

/* stratified quantiles, the tail stretched to the byte total, shuffled */
static void synth_sizes(struct synth *s)
{
	uint64_t n = s->spec->files, i, total = 0, largest = 0;
	double excess = 0, f = 1;

	for (i = 0; i < n; i++) {
		s->sizes[i] =
			synth_size_quantile(((double)i + 0.5) / (double)n);
		total += s->sizes[i];
		if (s->sizes[i] > SYNTH_TAIL_FROM)
			excess += (double)s->sizes[i] - SYNTH_TAIL_FROM;
	}
	if (s->spec->bytes && excess > 0) {
		f = 1.0 - ((double)total - (double)s->spec->bytes) / excess;
		if (f < 0)
			f = 0;
		total = 0;
		for (i = 0; i < n; i++) {
			if (s->sizes[i] > SYNTH_TAIL_FROM)
				s->sizes[i] = (uint64_t)llround(
					SYNTH_TAIL_FROM + ((double)s->sizes[i] -
							   SYNTH_TAIL_FROM) *
								  f);
			total += s->sizes[i];
		}
		/* rounding: the largest file (the last one) takes the rest */
		if (n && total != s->spec->bytes &&
		    s->sizes[n - 1] + s->spec->bytes > total)
			s->sizes[n - 1] =
				s->sizes[n - 1] + s->spec->bytes - total;
	}
	for (i = 0; i < n; i++)
		if (s->sizes[i] > largest)
			largest = s->sizes[i];
	for (i = n; i > 1; i--) {
		uint64_t j = prng_below(&s->rng, i), tmp = s->sizes[i - 1];

		s->sizes[i - 1] = s->sizes[j];
		s->sizes[j] = tmp;
	}
	s->pool_size = largest > SYNTH_POOL_MIN ? largest : SYNTH_POOL_MIN;
}

/* text-like data: words from a small vocabulary, skewed towards a few */
static int synth_pool(struct synth *s)
{
	uint64_t i, k, len;
	unsigned char *p;

	if (memtar_data_reserve(s->t, s->pool_size))
		return -ENOMEM;
	for (i = 0; i < SYNTH_WORDS; i++) {
		len = 2 + prng_below(&s->rng, 9);
		for (k = 0; k < len; k++)
			s->words[i][k] = (char)('a' + prng_below(&s->rng, 26));
		s->words[i][len] = '\0';
	}
	p = s->t->data;
	for (i = 0; i < s->pool_size;) {
		uint64_t r = prng_next(&s->rng);
		const char *w = s->words[((r & 0xff) * ((r >> 8) & 0xff)) >> 8];
		static const char seps[] = "       \n\t;(";

		for (k = 0; w[k] && i < s->pool_size; k++)
			p[i++] = (unsigned char)w[k];
		if (i < s->pool_size)
			p[i++] = (unsigned char)
				seps[(r >> 16) % (sizeof(seps) - 1)];
	}
	s->t->data_len = s->pool_size;
	return 0;
}

static void base36(uint64_t v, char *buf)
{
	char tmp[16];
	int n = 0, i;

	do {
		tmp[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		v /= 36;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

/* a name unique in its directory: letters, a sequence number, an extension */
static void synth_name(struct synth *s, uint64_t dir, bool is_file, char *buf)
{
	uint64_t len = is_file ? 3 + prng_below(&s->rng, 12) :
				 2 + prng_below(&s->rng, 8);
	uint64_t k;

	for (k = 0; k < len; k++)
		buf[k] = (char)('a' + prng_below(&s->rng, 26));
	base36(s->name_seq[dir]++, buf + len);
	if (is_file)
		strcat(buf, extensions[prng_below(
				    &s->rng, sizeof(extensions) /
						     sizeof(extensions[0]))]);
}

/* a random file of one directory visit, for symlinks to point at */
struct synth_visit {
	char pick[40];
	uint64_t seen;
};

static int synth_add(struct synth *s, enum memtar_type type, const char *link,
		     struct memtar_entry **out)
{
	struct memtar_entry *e = memtar_add(s->t, type, s->path, link);

	if (!e)
		return -ENOMEM;
	e->mtime = SYNTH_MTIME_BASE + (int64_t)prng_below(&s->rng, 365 * 86400);
	*out = e;
	return 0;
}

static int synth_file(struct synth *s, struct synth_visit *v, const char *name)
{
	uint64_t size = s->sizes[s->next_file++];
	struct memtar_entry *e;
	int err = synth_add(s, MEMTAR_FILE, NULL, &e);

	if (err)
		return err;
	e->mode = prng_below(&s->rng, 50) ? 0644 : 0755;
	e->size = size;
	e->data_off = prng_below(&s->rng, s->pool_size - size + 1);
	if (!prng_below(&s->rng, ++v->seen))
		snprintf(v->pick, sizeof(v->pick), "%s", name);
	return 0;
}

static int synth_symlink(struct synth *s, const struct synth_visit *v,
			 const struct synth_visit *up)
{
	struct memtar_entry *e;
	char target[64];

	if (up && up->seen && prng_below(&s->rng, 2))
		snprintf(target, sizeof(target), "../%s", up->pick);
	else if (v->seen)
		snprintf(target, sizeof(target), "%s", v->pick);
	else
		snprintf(target, sizeof(target), ".");
	if (synth_add(s, MEMTAR_SYMLINK, target, &e))
		return -ENOMEM;
	e->mode = 0777;
	return 0;
}

enum { CHILD_FILE, CHILD_DIR, CHILD_LINK };

/* a directory, then its files and subdirectories in a shuffled order */
static int synth_visit_dir(struct synth *s, uint64_t dir,
			   const struct synth_visit *up)
{
	uint64_t nsub = s->child_start[dir + 1] - s->child_start[dir];
	uint64_t n = nsub + s->nfiles[dir], i, sub = 0;
	size_t base = strlen(s->path);
	struct synth_visit v = { .seen = 0 };
	struct memtar_entry *e;
	uint8_t *order;
	int err;

	err = synth_add(s, MEMTAR_DIR, NULL, &e);
	if (err)
		return err;
	e->mode = 0755;
	order = malloc(n ? n : 1);
	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		order[i] = i < nsub ? CHILD_DIR : CHILD_FILE;
	for (i = n; i > 1; i--) {
		uint64_t j = prng_below(&s->rng, i);
		uint8_t tmp = order[i - 1];

		order[i - 1] = order[j];
		order[j] = tmp;
	}
	for (i = 0; !err && i < n + s->nlinks[dir]; i++) {
		char name[64];
		uint8_t kind = i < n ? order[i] : CHILD_LINK;

		synth_name(s, dir, kind == CHILD_FILE, name);
		if (base + 1 + strlen(name) >= sizeof(s->path)) {
			err = -ENAMETOOLONG;
			break;
		}
		s->path[base] = '/';
		strcpy(s->path + base + 1, name);
		if (kind == CHILD_FILE)
			err = synth_file(s, &v, name);
		else if (kind == CHILD_LINK)
			err = synth_symlink(s, &v, up);
		else
			err = synth_visit_dir(
				s, s->child_list[s->child_start[dir] + sub++],
				&v);
		s->path[base] = '\0';
	}
	free(order);
	return err;
}

static void synth_free(struct synth *s)
{
	free(s->parent);
	free(s->child_start);
	free(s->child_list);
	free(s->nfiles);
	free(s->nlinks);
	free(s->name_seq);
	free(s->sizes);
}

int synth_build(const struct synth_spec *spec, struct memtar *t)
{
	struct synth *s = calloc(1, sizeof(*s));
	uint64_t n = spec->dirs;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	if (!s)
		return -ENOMEM;
	if (!n || !spec->top[0] || strchr(spec->top, '/')) {
		free(s);
		return -EINVAL;
	}
	s->spec = spec;
	s->t = t;
	prng_seed(&s->rng, spec->seed);
	s->parent = calloc(n, sizeof(uint64_t));
	s->child_start = calloc(n + 1, sizeof(uint64_t));
	s->child_list = calloc(n, sizeof(uint64_t));
	s->nfiles = calloc(n, sizeof(uint64_t));
	s->nlinks = calloc(n, sizeof(uint64_t));
	s->name_seq = calloc(n, sizeof(uint64_t));
	s->sizes = calloc(spec->files ? spec->files : 1, sizeof(uint64_t));
	if (s->parent && s->child_start && s->child_list && s->nfiles &&
	    s->nlinks && s->name_seq && s->sizes) {
		synth_dirs(s);
		synth_files_per_dir(s);
		synth_sizes(s);
		err = synth_pool(s);
	}
	if (!err) {
		snprintf(s->path, sizeof(s->path), "%s", spec->top);
		err = synth_visit_dir(s, 0, NULL);
	}
	synth_free(s);
	free(s);
	if (err)
		memtar_free(t);
	return err;
}
