// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "workload/tarsafe.h"

int tarsafe_normalize(const char *path, char *out, size_t len)
{
	const char *p = path;
	size_t n = 0;

	if (!len)
		return -ENAMETOOLONG;
	/* an absolute path keeps its '/': the checks refuse it */
	if (*p == '/') {
		if (len < 2)
			return -ENAMETOOLONG;
		out[n++] = '/';
		while (*p == '/')
			p++;
	}
	while (*p) {
		const char *end = strchrnul(p, '/');
		size_t clen = (size_t)(end - p);

		if (clen && !(clen == 1 && p[0] == '.')) {
			bool sep = n && out[n - 1] != '/';

			if (n + sep + clen + 1 > len)
				return -ENAMETOOLONG;
			if (sep)
				out[n++] = '/';
			memcpy(out + n, p, clen);
			n += clen;
		}
		p = *end ? end + 1 : end;
	}
	out[n] = '\0';
	return 0;
}

/* does the path have a ".." component? */
static bool has_dotdot(const char *path)
{
	const char *p = path;

	for (;;) {
		const char *end = strchrnul(p, '/');

		if (end - p == 2 && p[0] == '.' && p[1] == '.')
			return true;
		if (!*end)
			return false;
		p = end + 1;
	}
}

const char *tarsafe_path_problem(const char *path)
{
	if (path[0] == '/')
		return "absolute path";
	if (has_dotdot(path))
		return "'..' component";
	return NULL;
}

/* directory levels below the extraction directory the member sits in */
static long member_depth(const char *member)
{
	long depth = 0;
	const char *p;

	for (p = member; *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			depth++;
	return depth;
}

const char *tarsafe_symlink_problem(const char *member, const char *target)
{
	long depth = member_depth(member);
	const char *p = target;

	if (!*target)
		return "empty symlink target";
	if (target[0] == '/')
		return "symlink to an absolute path";
	/* walk the target's components from the member's directory */
	for (;;) {
		const char *end = strchrnul(p, '/');
		size_t clen = (size_t)(end - p);

		if (clen == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return "symlink points outside the extraction directory";
		} else if (clen && !(clen == 1 && p[0] == '.')) {
			depth++;
		}
		if (!*end)
			return NULL;
		p = end + 1;
	}
}

const char *tarsafe_hardlink_problem(const char *target)
{
	if (!*target)
		return "empty hard link target";
	if (target[0] == '/')
		return "hard link to an absolute path";
	if (has_dotdot(target))
		return "hard link target has a '..' component";
	return NULL;
}
