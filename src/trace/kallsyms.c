// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "trace/kallsyms.h"

static bool ksym_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

int kallsyms_resolve(const char *path, struct ksym_lookup *v, unsigned int n)
{
	char *line = NULL, name[KSYM_NAME_LEN], type;
	unsigned int i, named = 0;
	size_t cap = 0;
	uint64_t addr;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		v[i].found = false;
		v[i].name[0] = '\0';
		v[i].sym_addr = 0;
	}
	while (getline(&line, &cap, f) > 0) {
		/* "ffffffff81907750 t xfs_file_fsync\t[xfs]" */
		if (sscanf(line, "%" SCNx64 " %c %63s", &addr, &type, name) !=
		    3)
			continue;
		if (!addr || !ksym_is_text(type))
			continue;
		for (i = 0; i < n; i++) {
			if (addr > v[i].addr ||
			    (v[i].found && addr <= v[i].sym_addr))
				continue;
			v[i].sym_addr = addr;
			v[i].found = true;
			snprintf(v[i].name, sizeof(v[i].name), "%s", name);
		}
	}
	free(line);
	fclose(f);
	for (i = 0; i < n; i++)
		named += v[i].found;
	return (int)named;
}

struct ksym_addrs {
	uint64_t *v;
	size_t n, cap;
};

static int ksym_addrs_push(struct ksym_addrs *a, uint64_t addr)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 65536;
		uint64_t *bigger = realloc(a->v, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		a->v = bigger;
		a->cap = cap;
	}
	a->v[a->n++] = addr;
	return 0;
}

static int u64_compare(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the index of the last of v[0..n) not above x, or -1 (v sorted) */
static ssize_t ksym_floor(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ssize_t)lo - 1;
}

/*
 * "ffffffff81907750 t xfs_file_fsync\t[xfs]": a text symbol's address and
 * name (cut at KSYM_NAME_LEN - 1, as "%63s" does). Parsed by hand: sscanf
 * takes 120 ms for the 120,000 lines of a 6.18 kernel, this a fifth.
 */
static bool ksym_text_line(const char *line, uint64_t *addr, char *name)
{
	const char *p = line;
	uint64_t a = 0;
	size_t n = 0;
	int digit;

	for (;; p++) {
		if (*p >= '0' && *p <= '9')
			digit = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			digit = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			digit = *p - 'A' + 10;
		else
			break;
		a = a << 4 | (uint64_t)digit;
	}
	if (p == line || *p != ' ' || !ksym_is_text(p[1]) || p[2] != ' ')
		return false;
	for (p += 3; p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '\n' &&
		     n < KSYM_NAME_LEN - 1;
	     n++)
		name[n] = p[n];
	name[n] = '\0';
	*addr = a;
	return a && n;
}

/* pass 1: every text symbol's address, sorted */
static int ksym_read_addrs(FILE *f, struct ksym_addrs *a)
{
	char *line = NULL, name[KSYM_NAME_LEN];
	size_t cap = 0;
	uint64_t addr;
	int err = 0;

	while (!err && getline(&line, &cap, f) > 0)
		if (ksym_text_line(line, &addr, name))
			err = ksym_addrs_push(a, addr);
	free(line);
	if (!err)
		qsort(a->v, a->n, sizeof(*a->v), u64_compare);
	return err;
}

int kallsyms_scan_text(const char *path, const char *const *names,
		       unsigned int n, struct ksym_text_scan *out)
{
	uint64_t addr, min = UINT64_MAX, max = 0, next = UINT64_MAX;
	char *line = NULL, sym[KSYM_NAME_LEN];
	struct ksym_addrs all = { 0 };
	unsigned int i, which = n;
	uint64_t at = 0;
	size_t cap = 0, k;
	int err = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* the file is not sorted (modules): keep every address, then look */
	while (!err && getline(&line, &cap, f) > 0) {
		if (!ksym_text_line(line, &addr, sym))
			continue;
		if (addr < min)
			min = addr;
		if (addr > max)
			max = addr;
		for (i = 0; i < which; i++)
			if (!strcmp(sym, names[i])) {
				which = i;
				at = addr;
				break;
			}
		if (n)
			err = ksym_addrs_push(&all, addr);
	}
	free(line);
	fclose(f);
	for (k = 0; !err && at && k < all.n; k++)
		if (all.v[k] > at && all.v[k] < next)
			next = all.v[k];
	free(all.v);
	if (err)
		return err;
	if (!max)
		return -ENOENT;
	out->lo = min;
	out->hi = max;
	out->which = -1;
	if (at && next != UINT64_MAX) {
		out->which = (int)which;
		out->start = at;
		out->end = next;
	}
	return 0;
}

int kallsyms_text_span(const char *path, uint64_t *lo, uint64_t *hi)
{
	struct ksym_text_scan scan;
	int err = kallsyms_scan_text(path, NULL, 0, &scan);

	if (err)
		return err;
	*lo = scan.lo;
	*hi = scan.hi;
	return 0;
}

int kallsyms_function(const char *path, const char *name, uint64_t *start,
		      uint64_t *end)
{
	struct ksym_text_scan scan;
	int err = kallsyms_scan_text(path, &name, 1, &scan);

	if (err)
		return err;
	if (scan.which < 0)
		return -ENOENT;
	*start = scan.start;
	*end = scan.end;
	return 0;
}

/* pass 2: the first name of each symbol address wanted[] holds */
static void ksym_read_names(FILE *f, const uint64_t *wanted, size_t n,
			    char (*names)[KSYM_NAME_LEN])
{
	char *line = NULL, name[KSYM_NAME_LEN];
	size_t cap = 0;
	uint64_t addr;
	ssize_t i;

	while (getline(&line, &cap, f) > 0) {
		if (!ksym_text_line(line, &addr, name))
			continue;
		i = ksym_floor(wanted, n, addr);
		if (i >= 0 && wanted[i] == addr && !names[i][0])
			snprintf(names[i], KSYM_NAME_LEN, "%s", name);
	}
	free(line);
}

int kallsyms_resolve_many(const char *path, struct ksym_lookup *v,
			  unsigned int n)
{
	struct ksym_addrs syms = { 0 }, wanted = { 0 };
	char(*names)[KSYM_NAME_LEN] = NULL;
	unsigned int i, named = 0;
	int err = 0;
	ssize_t k;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = ksym_read_addrs(f, &syms);
	for (i = 0; !err && i < n; i++) {
		k = ksym_floor(syms.v, syms.n, v[i].addr);
		v[i].found = k >= 0;
		v[i].sym_addr = k >= 0 ? syms.v[k] : 0;
		v[i].name[0] = '\0';
		if (k >= 0)
			err = ksym_addrs_push(&wanted, syms.v[k]);
	}
	free(syms.v);
	if (!err && wanted.n) {
		qsort(wanted.v, wanted.n, sizeof(*wanted.v), u64_compare);
		names = calloc(wanted.n, sizeof(*names));
		err = names ? 0 : -ENOMEM;
	}
	if (!err && wanted.n) {
		rewind(f);
		ksym_read_names(f, wanted.v, wanted.n, names);
	}
	for (i = 0; !err && i < n; i++) {
		if (!v[i].found)
			continue;
		k = ksym_floor(wanted.v, wanted.n, v[i].sym_addr);
		snprintf(v[i].name, sizeof(v[i].name), "%s", names[k]);
		/* the file changed between the passes: not named after all */
		v[i].found = v[i].name[0] != '\0';
		named += v[i].found;
	}
	free(names);
	free(wanted.v);
	fclose(f);
	return err ? err : (int)named;
}
