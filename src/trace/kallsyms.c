// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
