// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "target/sysctl.h"
#include "util/sysfile.h"

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

		snprintf(path, sizeof(path), "/proc/sys/%s", dirty_sysctls[i]);
		for (c = path + strlen("/proc/sys/"); *c; c++)
			if (*c == '.')
				*c = '/';
		if (sysfile_read_line(path, v->value, sizeof(v->value)) < 0)
			continue;
		snprintf(v->name, sizeof(v->name), "%s", dirty_sysctls[i]);
		rec->n++;
	}
}
