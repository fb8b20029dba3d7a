// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check/privileges.h"
#include "util/log.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

#define CAP_LAST_CAP_PATH "/proc/sys/kernel/cap_last_cap"

struct needed_cap {
	int cap;
	const char *name;
};

static const struct needed_cap needed_caps[] = {
	{ CAP_BPF, "CAP_BPF" },
	{ CAP_PERFMON, "CAP_PERFMON" },
	{ CAP_SYS_ADMIN, "CAP_SYS_ADMIN" },
};

/* Highest capability the running kernel knows; assume a current one. */
static int kernel_last_cap(void)
{
	FILE *f = fopen(CAP_LAST_CAP_PATH, "re");
	int last = CAP_BPF;

	if (!f)
		return last;
	if (fscanf(f, "%d", &last) != 1)
		last = CAP_BPF;
	fclose(f);
	return last;
}

static bool cap_is_set(const struct __user_cap_data_struct data[2], int cap)
{
	return data[cap / 32].effective & (1U << (cap % 32));
}

int privileges_ok(char *why, size_t len)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
	char missing[64] = "";
	int last_cap = kernel_last_cap();
	size_t i;

	if (syscall(SYS_capget, &header, data)) {
		snprintf(why, len, "cannot read capabilities: capget: %s",
			 strerror_safe(errno));
		return 0;
	}

	for (i = 0; i < sizeof(needed_caps) / sizeof(needed_caps[0]); i++) {
		const struct needed_cap *need = &needed_caps[i];

		/* before 5.8, CAP_SYS_ADMIN covered what CAP_BPF/PERFMON do */
		if (need->cap > last_cap)
			continue;
		if (cap_is_set(data, need->cap))
			continue;
		snprintf(missing + strlen(missing),
			 sizeof(missing) - strlen(missing), "%s%s",
			 missing[0] ? ", " : "", need->name);
	}

	if (!missing[0]) {
		if (geteuid() == 0)
			snprintf(why, len, "root (euid 0)");
		else if (last_cap < CAP_BPF)
			snprintf(why, len, "CAP_SYS_ADMIN");
		else
			snprintf(why, len,
				 "CAP_BPF + CAP_PERFMON + CAP_SYS_ADMIN");
		return 1;
	}
	snprintf(
		why, len,
		"needs root, or CAP_BPF + CAP_PERFMON + CAP_SYS_ADMIN (missing: %s%s)",
		missing,
		geteuid() == 0 ?
			"; euid is 0, but the effective capability set lacks them: dropped by a container, capsh or setpriv?" :
			"");
	return 0;
}
