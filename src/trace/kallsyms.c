// SPDX-License-Identifier: GPL-2.0
/*
 * The text symbols of a kallsyms file, read once into a table sorted by
 * address and kept for the process: reading /proc/kallsyms (5.4 MB, 122,000
 * lines on 6.18) takes 0.1-0.2 s, and the sched domain names new stacks
 * at every phase's collect. The table is read again when the file may have
 * changed: for /proc/kallsyms when /proc/modules reads differently (a
 * module loaded or unloaded; a kernel without it has no modules), for
 * another file when its inode, size or
 * modification time differ.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "trace/kallsyms.h"

#define KSYM_MODULES "/proc/modules"

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset in the table's names */
	uint32_t seq; /* the line's place in the file: the first name wins */
};

struct ksym_table {
	char *path;
	struct stat st; /* of path, when it is a regular file */
	char *modules; /* /proc/modules as read with the table, for /proc */
	struct ksym *v; /* sorted by address, then by seq */
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

static struct ksym_table table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static bool ksym_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/*
 * "ffffffff81907750 t xfs_file_fsync\t[xfs]": a text symbol's address and
 * name (cut at KSYM_NAME_LEN - 1). Parsed by hand: sscanf takes 120 ms for
 * the 120,000 lines of a 6.18 kernel, this a fifth.
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

static void table_clear(struct ksym_table *t)
{
	free(t->path);
	free(t->modules);
	free(t->v);
	free(t->names);
	memset(t, 0, sizeof(*t));
}

static int table_push(struct ksym_table *t, uint64_t addr, const char *name)
{
	size_t len = strlen(name) + 1;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 65536;
		struct ksym *bigger = realloc(t->v, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		t->v = bigger;
		t->cap = cap;
	}
	if (t->names_len + len > t->names_cap) {
		size_t cap = t->names_cap ? t->names_cap * 2 : 1 << 21;
		char *bigger = realloc(t->names, cap);

		if (!bigger)
			return -ENOMEM;
		t->names = bigger;
		t->names_cap = cap;
	}
	memcpy(t->names + t->names_len, name, len);
	t->v[t->n] = (struct ksym){ .addr = addr,
				    .name = (uint32_t)t->names_len,
				    .seq = (uint32_t)t->n };
	t->names_len += len;
	t->n++;
	return 0;
}

static int ksym_compare(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the whole of a small file (/proc/modules), NUL-terminated, or NULL */
static char *slurp(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *bigger;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			bigger = realloc(buf, cap);
			if (!bigger) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = bigger;
		}
		got = read(fd, buf + len, cap - len - 1);
		if (got > 0)
			len += (size_t)got;
	} while (got > 0);
	close(fd);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* a file with contents on disk: its identity; a /proc file: none (0) */
static bool regular_file(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_size > 0;
}

/* is the table read from path still what path holds */
static bool table_current(const struct ksym_table *t, const char *path,
			  const struct stat *st)
{
	char *modules;
	bool same;

	if (!t->path || strcmp(t->path, path))
		return false;
	if (regular_file(st))
		return st->st_ino == t->st.st_ino &&
		       st->st_dev == t->st.st_dev &&
		       st->st_size == t->st.st_size &&
		       st->st_mtim.tv_sec == t->st.st_mtim.tv_sec &&
		       st->st_mtim.tv_nsec == t->st.st_mtim.tv_nsec;
	/* no /proc/modules: a kernel without modules, whose text is fixed */
	modules = slurp(KSYM_MODULES);
	same = modules && t->modules ? !strcmp(modules, t->modules) :
				       !modules && !t->modules;
	free(modules);
	return same;
}

static int table_read(struct ksym_table *t, const char *path, FILE *f,
		      const struct stat *st)
{
	char *line = NULL, name[KSYM_NAME_LEN];
	size_t cap = 0;
	uint64_t addr;
	int err = 0;

	table_clear(t);
	/* the module list before the symbols: a change between is seen */
	if (!regular_file(st))
		t->modules = slurp(KSYM_MODULES);
	while (!err && getline(&line, &cap, f) > 0)
		if (ksym_text_line(line, &addr, name))
			err = table_push(t, addr, name);
	free(line);
	if (!err && ferror(f))
		err = -EIO;
	t->path = strdup(path);
	if (!err && !t->path)
		err = -ENOMEM;
	if (err) {
		table_clear(t);
		return err;
	}
	qsort(t->v, t->n, sizeof(*t->v), ksym_compare);
	t->st = *st;
	return 0;
}

/*
 * The table of path, read again when it may have changed; with the lock
 * held. 0, or -errno when path cannot be read.
 */
static int table_get(const char *path)
{
	struct stat st;
	FILE *f;
	int err;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fstat(fileno(f), &st)) {
		err = -errno;
		fclose(f);
		return err;
	}
	err = table_current(&table, path, &st) ? 0 :
						 table_read(&table, path, f, &st);
	fclose(f);
	return err;
}

/* the index of the last symbol at or below x, the first of its address */
static ssize_t table_floor(const struct ksym_table *t, uint64_t x)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	while (lo > 0 && t->v[lo - 1].addr == t->v[lo].addr)
		lo--;
	return (ssize_t)lo;
}

int kallsyms_resolve(const char *path, struct ksym_lookup *v, unsigned int n)
{
	unsigned int i, named = 0;
	ssize_t k;
	int err;

	for (i = 0; i < n; i++) {
		v[i].found = false;
		v[i].name[0] = '\0';
		v[i].sym_addr = 0;
	}
	pthread_mutex_lock(&table_lock);
	err = table_get(path);
	for (i = 0; !err && i < n; i++) {
		k = table_floor(&table, v[i].addr);
		if (k < 0)
			continue;
		v[i].found = true;
		v[i].sym_addr = table.v[k].addr;
		snprintf(v[i].name, sizeof(v[i].name), "%s",
			 table.names + table.v[k].name);
		named++;
	}
	pthread_mutex_unlock(&table_lock);
	return err ? err : (int)named;
}

/* the first symbol named name, or -1 */
static ssize_t table_named(const struct ksym_table *t, const char *name)
{
	size_t k;

	for (k = 0; k < t->n; k++)
		if (!strcmp(t->names + t->v[k].name, name))
			return (ssize_t)k;
	return -1;
}

/*
 * The table's text in ranges, by the kernel's own markers: its text
 * [first, _etext], its init text [_sinittext, _einittext], and every text
 * above that (modules, BPF programs, trampolines). The kernel's read-only
 * data and data lie between the first two, its bss after the second: a
 * word there (a static variable's address) is no code address. Hashed
 * into a stack's fingerprint it made a new one of one wait in three here
 * (fsync cycles). Without the markers (or out of order): one range.
 */
static void table_text_ranges(const struct ksym_table *t,
			      struct ksym_text_scan *out)
{
	ssize_t etext = table_named(t, "_etext"),
		sinit = table_named(t, "_sinittext"),
		einit = table_named(t, "_einittext");
	size_t k;

	out->n_ranges = 1;
	out->range_lo[0] = t->v[0].addr;
	out->range_hi[0] = t->v[t->n - 1].addr;
	if (etext < 0 || sinit < 0 || einit < 0 ||
	    t->v[etext].addr >= t->v[sinit].addr ||
	    t->v[sinit].addr > t->v[einit].addr)
		return;
	out->range_hi[0] = t->v[etext].addr;
	out->range_lo[1] = t->v[sinit].addr;
	out->range_hi[1] = t->v[einit].addr;
	out->n_ranges = 2;
	for (k = (size_t)einit; k < t->n; k++)
		if (t->v[k].addr > t->v[einit].addr) {
			out->range_lo[2] = t->v[k].addr;
			out->range_hi[2] = t->v[t->n - 1].addr;
			out->n_ranges = 3;
			break;
		}
}

int kallsyms_scan_text(const char *path, const char *const *names,
		       unsigned int n, struct ksym_text_scan *out)
{
	unsigned int i, which = n, best_seq = UINT32_MAX;
	size_t k, at = 0;
	int err;

	pthread_mutex_lock(&table_lock);
	err = table_get(path);
	if (!err && !table.n)
		err = -ENOENT;
	/* the first of names that is there; of its symbols the first line */
	for (k = 0; !err && k < table.n; k++)
		for (i = 0; i < n && i <= which; i++) {
			if (strcmp(table.names + table.v[k].name, names[i]))
				continue;
			if (i < which || table.v[k].seq < best_seq) {
				which = i;
				best_seq = table.v[k].seq;
				at = k;
			}
			break;
		}
	if (!err) {
		out->lo = table.v[0].addr;
		out->hi = table.v[table.n - 1].addr;
		table_text_ranges(&table, out);
		out->which = -1;
		/* it ends where the next text symbol at a higher address is */
		for (k = at; which < n && k < table.n; k++)
			if (table.v[k].addr > table.v[at].addr) {
				out->which = (int)which;
				out->start = table.v[at].addr;
				out->end = table.v[k].addr;
				break;
			}
	}
	pthread_mutex_unlock(&table_lock);
	return err;
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
