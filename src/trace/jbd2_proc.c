// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/jbd2_proc.h"

/* "<devname>-<digits>": the name jbd2 gives an internal journal */
static int journal_entry_matches(const char *entry, const char *devname)
{
	size_t n = strlen(devname);
	const char *p;

	if (strncmp(entry, devname, n) || entry[n] != '-' || !entry[n + 1])
		return 0;
	for (p = entry + n + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	return 1;
}

int jbd2_proc_find(const char *root, const char *devname, char *path,
		   size_t len)
{
	struct dirent *de;
	int err = -ENOENT;
	DIR *dir;

	dir = opendir(root);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (!journal_entry_matches(de->d_name, devname))
			continue;
		if ((size_t)snprintf(path, len, "%s/%s/info", root,
				     de->d_name) >= len)
			err = -ENAMETOOLONG;
		else
			err = 0;
		break;
	}
	closedir(dir);
	return err;
}

int jbd2_proc_dev_name(unsigned int major, unsigned int minor, char *name,
		       size_t len)
{
	char link[64], target[4096];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major, minor);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if ((size_t)snprintf(name, len, "%s", base) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int jbd2_proc_parse_transactions(const char *text, uint64_t *transactions)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || strncmp(end, " transactions", 13))
		return -EINVAL;
	*transactions = v;
	return 0;
}

int jbd2_proc_read_transactions(const char *path, uint64_t *transactions)
{
	char buf[128];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the count is on the first line; the rest need not be formatted */
	n = read(fd, buf, sizeof(buf) - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	return jbd2_proc_parse_transactions(buf, transactions);
}
