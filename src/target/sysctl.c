// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "target/sysctl.h"

static const char *const dirty_sysctls[] = {
	"vm.dirty_ratio",
	"vm.dirty_background_ratio",
	"vm.dirty_bytes",
	"vm.dirty_background_bytes",
	"vm.dirty_expire_centisecs",
	"vm.dirty_writeback_centisecs",
};

void sysctl_record_dirty(struct sysctl_record *rec)
{
	size_t i;

	memset(rec, 0, sizeof(*rec));
	for (i = 0; i < sizeof(dirty_sysctls) / sizeof(dirty_sysctls[0]); i++) {
		struct sysctl_value *v = &rec->v[rec->n];
		char path[128], *c;
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/proc/sys/%s", dirty_sysctls[i]);
		for (c = path + strlen("/proc/sys/"); *c; c++)
			if (*c == '.')
				*c = '/';
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, v->value, sizeof(v->value) - 1);
		close(fd);
		if (n <= 0)
			continue;
		v->value[n] = '\0';
		v->value[strcspn(v->value, "\n")] = '\0';
		snprintf(v->name, sizeof(v->name), "%s", dirty_sysctls[i]);
		rec->n++;
	}
}
