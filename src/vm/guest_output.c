// SPDX-License-Identifier: GPL-2.0
#include <archive.h>
#include <archive_entry.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/guest_output.h"

/* what the error quotes of the guest's console */
#define CONSOLE_TAIL_LINES 15
#define CONSOLE_LINE_MAX 160
/* a file in the guest's directory (a PATH_MAX path) */
#define FILE_PATH (PATH_MAX + 64)

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

/* the last lines of the console, indented, into buf */
void console_tail(const char *dir, char *buf, size_t len)
{
	char path[FILE_PATH], *text, *lines[CONSOLE_TAIL_LINES], *p;
	unsigned int n = 0, i, first;
	size_t used = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/console.log", dir);
	text = slurp(path);
	if (!text)
		return;
	for (p = strtok(text, "\r\n"); p; p = strtok(NULL, "\r\n")) {
		if (!*p || strspn(p, " \t") == strlen(p))
			continue;
		lines[n % CONSOLE_TAIL_LINES] = p;
		n++;
	}
	first = n > CONSOLE_TAIL_LINES ? n - CONSOLE_TAIL_LINES : 0;
	for (i = first; i < n && used + 1 < len; i++) {
		int w = snprintf(buf + used, len - used, "\n    %.*s",
				 CONSOLE_LINE_MAX,
				 lines[i % CONSOLE_TAIL_LINES]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
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
