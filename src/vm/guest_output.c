// SPDX-License-Identifier: GPL-2.0
#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/guest_output.h"

/*
 * What the error quotes of the guest's console: its last lines; or, when
 * the guest kernel oopsed, the oops's head (what led to it, its title, CPU
 * and RIP lines), its call trace and the console's end (the panic), with
 * "..." where lines were left out. The head and the trace say where the
 * kernel died; a plain tail held only registers and the code bytes.
 */
#define CONSOLE_TAIL_LINES 15
/* "BUG: kernel NULL pointer dereference", "#PF: ..." x2, "PGD ...", the
 * die header, "CPU: ...", "Hardware name: ...", "RIP: ..." */
#define OOPS_HEAD_LINES 8
#define OOPS_PRELUDE_LINES 4 /* lines above the die header that belong */
#define CALL_TRACE_LINES 12 /* "Call Trace:" and its first frames */
#define OOPS_END_LINES 3 /* the console's last, without a panic line */
#define PANIC_LINES 4 /* "Kernel panic - not syncing ..." and what follows */
#define CONSOLE_LINE_MAX 160
/* a file in the guest's directory (a PATH_MAX path) */
#define FILE_PATH (PATH_MAX + 64)

/* the most the excerpt writes: its lines, indented, and three "..." */
_Static_assert(GUEST_CONSOLE_EXCERPT_BYTES >=
		       (OOPS_HEAD_LINES + 1 + CALL_TRACE_LINES + PANIC_LINES) *
				       (CONSOLE_LINE_MAX + 5) +
			       3 * 8 + 1,
	       "GUEST_CONSOLE_EXCERPT_BYTES holds an oops's excerpt");

/* what the kernel prints just above an oops's die header, its cause */
static const char *const oops_prelude[] = {
	"BUG:", "#PF:", "PGD ", "kernel BUG at", "------------[ cut here ]",
};

/* the file of the whole content at path; NULL when unreadable */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* a console line's message: after its "[ uptime] " stamp, if it has one */
static const char *console_message(const char *line)
{
	const char *end;

	line += strspn(line, " \t");
	if (*line != '[')
		return line;
	end = strchr(line, ']');
	return end ? end + 1 + strspn(end + 1, " ") : line;
}

/*
 * The die header an x86 oops starts with, "<trap>: <error code> [#<n>]":
 * "Oops: int3: 0000 [#1] PREEMPT SMP NOPTI" since 6.9, "int3: 0000 [#1]"
 * before, "Oops: 0000 [#1]" for a page fault, "general protection fault,
 * ...: 0000 [#1]". A BUG or a warning without one did not kill the kernel.
 */
static bool is_die_header(const char *line)
{
	const char *msg = console_message(line), *p = strstr(msg, " [#");
	int i;

	if (!p || p - msg < 6 || !isdigit((unsigned char)p[3]) ||
	    p[-5] != ' ' || p[-6] != ':')
		return false;
	for (i = 1; i <= 4; i++)
		if (!isxdigit((unsigned char)p[-i]))
			return false;
	return true;
}

static bool is_oops_prelude(const char *line)
{
	const char *msg = console_message(line);
	size_t i;

	for (i = 0; i < sizeof(oops_prelude) / sizeof(oops_prelude[0]); i++)
		if (!strncmp(msg, oops_prelude[i], strlen(oops_prelude[i])))
			return true;
	return false;
}

/* the index of the first line from `from` whose message starts with s,
 * n when none does */
static size_t line_starting(char **lines, size_t from, size_t n, const char *s)
{
	for (; from < n; from++)
		if (!strncmp(console_message(lines[from]), s, strlen(s)))
			return from;
	return n;
}

/* where the excerpt's end starts: the panic line, if it is among the last
 * PANIC_LINES, else the last OOPS_END_LINES */
static size_t console_end(char **lines, size_t n)
{
	size_t i;

	for (i = n; i > 0 && n - i < PANIC_LINES; i--)
		if (!strncmp(console_message(lines[i - 1]), "Kernel panic",
			     strlen("Kernel panic")))
			return i - 1;
	return n - OOPS_END_LINES;
}

struct excerpt {
	char *buf;
	size_t len, used;
	size_t next; /* the line after the last one quoted */
};

/* lines [from, to) into the excerpt, "..." first when lines were skipped */
static void excerpt_lines(struct excerpt *x, char **lines, size_t from,
			  size_t to)
{
	if (from < x->next)
		from = x->next;
	if (from >= to)
		return;
	if (x->next && from > x->next && x->used + 1 < x->len)
		x->used += (size_t)snprintf(x->buf + x->used, x->len - x->used,
					    "\n    ...");
	for (; from < to && x->used + 1 < x->len; from++) {
		int w = snprintf(x->buf + x->used, x->len - x->used,
				 "\n    %.*s", CONSOLE_LINE_MAX, lines[from]);

		if (w < 0)
			break;
		x->used += (size_t)w;
	}
	if (x->used >= x->len)
		x->used = x->len - 1;
	x->next = to;
}

/* the console's lines that are not blank, in order; *n their count */
static char **console_lines(char *text, size_t *n)
{
	char **lines = NULL, **grown, *p;
	size_t cap = 0;

	*n = 0;
	for (p = strtok(text, "\r\n"); p; p = strtok(NULL, "\r\n")) {
		if (strspn(p, " \t") == strlen(p))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			grown = realloc(lines, cap * sizeof(*lines));
			if (!grown) {
				/* quote nothing rather than lines of the middle */
				free(lines);
				*n = 0;
				return NULL;
			}
			lines = grown;
		}
		lines[(*n)++] = p;
	}
	return lines;
}

void console_excerpt(const char *dir, char *buf, size_t len)
{
	struct excerpt x = { .buf = buf, .len = len };
	char path[FILE_PATH], *text, **lines;
	size_t n, oops, trace;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/console.log", dir);
	text = slurp(path);
	if (!text)
		return;
	lines = console_lines(text, &n);
	for (oops = 0; oops < n && !is_die_header(lines[oops]); oops++)
		;
	if (oops < n && n - oops > CONSOLE_TAIL_LINES) {
		size_t start = oops,
		       rip = line_starting(lines, oops, n, "RIP:");
		size_t head;

		while (start > 0 && oops - start < OOPS_PRELUDE_LINES &&
		       is_oops_prelude(lines[start - 1]))
			start--;
		head = start + OOPS_HEAD_LINES;
		if (rip < head)
			head = rip + 1;
		excerpt_lines(&x, lines, start, head);
		if (rip < n)
			excerpt_lines(&x, lines, rip, rip + 1);
		trace = line_starting(lines, oops, n, "Call Trace:");
		if (trace < n)
			excerpt_lines(&x, lines, trace,
				      trace + CALL_TRACE_LINES < n ?
					      trace + CALL_TRACE_LINES :
					      n);
		excerpt_lines(&x, lines, console_end(lines, n), n);
	} else {
		excerpt_lines(
			&x, lines,
			n > CONSOLE_TAIL_LINES ? n - CONSOLE_TAIL_LINES : 0, n);
	}
	free(lines);
	free(text);
}

/* the guest's uptime when its /init started, from the console */
double console_boot_s(const char *dir)
{
	char path[FILE_PATH], *text, *at;
	double s = -1;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	text = slurp(path);
	at = text ? strstr(text, "fsprof-vm: init started") : NULL;
	at = at ? strstr(at, "uptime=") : NULL;
	if (at)
		s = strtod(at + 7, NULL);
	free(text);
	return s;
}

/* one member of the tar into a new string */
static char *archive_member(struct archive *a, struct archive_entry *e)
{
	int64_t size = archive_entry_size(e);
	char *buf;

	if (size < 0 || size > (1LL << 30))
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	if (archive_read_data(a, buf, (size_t)size) != size) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

/* the tar the guest wrote on its results disk */
void results_read(const char *dir, struct guest_result *res)
{
	char path[FILE_PATH];
	struct archive_entry *e;
	struct archive *a = archive_read_new();

	snprintf(path, sizeof(path), "%s/results.img", dir);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		archive_read_free(a);
		return;
	}
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		char *text;

		name += !strncmp(name, "./", 2) ? 2 : 0;
		if (strcmp(name, "run.json") && strcmp(name, "run.log") &&
		    strcmp(name, "kernel") && strcmp(name, "rc"))
			continue;
		text = archive_member(a, e);
		if (!text)
			continue;
		if (!strcmp(name, "run.json"))
			res->run_json = text;
		else if (!strcmp(name, "run.log"))
			res->run_log = text;
		else {
			if (!strcmp(name, "kernel"))
				snprintf(res->release, sizeof(res->release),
					 "%.*s", (int)strcspn(text, "\n"),
					 text);
			else
				res->fsprof_rc = atoi(text);
			free(text);
		}
	}
	archive_read_free(a);
}
