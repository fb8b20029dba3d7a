// SPDX-License-Identifier: GPL-2.0
/*
 * BTF and the tracepoint families it describes. Every tracepoint has a
 * btf_trace_<name> typedef in the BTF of vmlinux or of its module, so counting
 * those typedefs tells which families a run can attach to without tracefs.
 */
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check/check_probe.h"
#include "util/log.h"

#define BTF_DIR "/sys/kernel/btf"
#define VMLINUX_BTF BTF_DIR "/vmlinux"
#define TP_TYPEDEF_PREFIX "btf_trace_"

struct tp_family_prefixes {
	const char *prefix[2]; /* tracepoint name prefixes, NULL-terminated */
};

static const struct tp_family_prefixes family_prefixes[CHECK_TP_NR] = {
	[CHECK_TP_EXT4] = { { "ext4_" } },
	[CHECK_TP_JBD2] = { { "jbd2_" } },
	[CHECK_TP_XFS] = { { "xfs_", "xlog_" } },
	[CHECK_TP_BLOCK] = { { "block_" } },
	[CHECK_TP_WRITEBACK] = { { "writeback_" } },
};

struct btf_scan {
	int tp_count[CHECK_TP_NR];
	int modules_parsed;
	int modules_failed;
	char first_failure[96]; /* "xfs: Permission denied" */
};

static int tp_family_of(const char *tp_name)
{
	int family, i;

	for (family = 0; family < CHECK_TP_NR; family++) {
		for (i = 0; i < 2 && family_prefixes[family].prefix[i]; i++) {
			const char *prefix = family_prefixes[family].prefix[i];

			if (!strncmp(tp_name, prefix, strlen(prefix)))
				return family;
		}
	}
	return -1;
}

/* Count btf_trace_* typedefs of ids [first, type_cnt) per family. */
static void count_tp_typedefs(const struct btf *btf, __u32 first,
			      struct btf_scan *scan)
{
	__u32 id, type_cnt = btf__type_cnt(btf);
	size_t prefix_len = strlen(TP_TYPEDEF_PREFIX);

	for (id = first; id < type_cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;
		int family;

		if (!t || !btf_is_typedef(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || strncmp(name, TP_TYPEDEF_PREFIX, prefix_len))
			continue;
		family = tp_family_of(name + prefix_len);
		if (family >= 0)
			scan->tp_count[family]++;
	}
}

static void note_module_failure(struct btf_scan *scan, const char *module,
				int err)
{
	if (!scan->modules_failed++)
		snprintf(scan->first_failure, sizeof(scan->first_failure),
			 "%.32s: %.60s", module, strerror_safe(err));
}

/* Module BTFs are split BTF on top of vmlinux's. */
static void scan_module_btfs(struct btf *vmlinux, struct btf_scan *scan)
{
	__u32 base_cnt = btf__type_cnt(vmlinux);
	struct dirent *entry;
	DIR *dir = opendir(BTF_DIR);

	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		char path[PATH_MAX];
		struct btf *module;

		if (entry->d_name[0] == '.' ||
		    !strcmp(entry->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", BTF_DIR, entry->d_name);
		/* checked first so libbpf does not print a warning for it */
		if (access(path, R_OK)) {
			note_module_failure(scan, entry->d_name, errno);
			continue;
		}
		module = btf__parse_split(path, vmlinux);
		if (!module) {
			note_module_failure(scan, entry->d_name, errno);
			continue;
		}
		scan->modules_parsed++;
		count_tp_typedefs(module, base_cnt, scan);
		btf__free(module);
	}
	closedir(dir);
}

static void report_btf(struct check_item *item, const struct btf_scan *scan)
{
	char failed[160] = "";

	if (scan->modules_failed)
		snprintf(failed, sizeof(failed), "; %d unreadable, first %s",
			 scan->modules_failed, scan->first_failure);
	if (!scan->modules_parsed && !scan->modules_failed)
		check_item_set(item, CHECK_OK, "%s (no module BTF)",
			       VMLINUX_BTF);
	else
		check_item_set(item, CHECK_OK, "%s + %d module BTF%s%s",
			       VMLINUX_BTF, scan->modules_parsed,
			       scan->modules_parsed == 1 ? "" : "s", failed);
}

static void report_tp_family(struct check_report *rep,
			     enum check_tp_family family)
{
	static const char *const item_names[CHECK_TP_NR] = {
		[CHECK_TP_EXT4] = "tracepoints:ext4",
		[CHECK_TP_JBD2] = "tracepoints:jbd2",
		[CHECK_TP_XFS] = "tracepoints:xfs",
		[CHECK_TP_BLOCK] = "tracepoints:block",
		[CHECK_TP_WRITEBACK] = "tracepoints:writeback",
	};
	bool required = family == CHECK_TP_BLOCK;
	const char *name = check_tp_family_name(family);
	enum check_status absent = required ? CHECK_MISSING : CHECK_WARN;
	struct check_item *item;
	int count = rep->tp_count[family];

	item = check_add_item(rep, item_names[family], required);
	if (!item)
		return;
	if (count > 0)
		check_item_set(item, CHECK_OK, "%d tracepoints%s", count,
			       family == CHECK_TP_XFS ? " (xfs_*, xlog_*)" :
							"");
	else if (count < 0)
		check_item_set(item, absent,
			       "%s: unknown, BTF could not be read", name);
	else if (required)
		check_item_set(item, absent, "%s: not in this kernel's BTF",
			       name);
	else
		check_item_set(
			item, absent,
			"%s: not in this kernel's BTF (module not loaded?)",
			name);
}

void check_probe_btf(struct check_report *rep)
{
	struct check_item *item = check_add_item(rep, "btf", true);
	struct btf_scan scan = {};
	struct btf *vmlinux;
	int family;

	for (family = 0; family < CHECK_TP_NR; family++)
		rep->tp_count[family] = -1;
	if (!item)
		return;

	if (access(VMLINUX_BTF, R_OK)) {
		int err = errno;

		check_item_set(
			item, CHECK_MISSING, "%s: %s%s", VMLINUX_BTF,
			strerror_safe(err),
			err == ENOENT ?
				" (kernel built without CONFIG_DEBUG_INFO_BTF)" :
				"");
		return;
	}
	vmlinux = btf__parse(VMLINUX_BTF, NULL);
	if (!vmlinux) {
		check_item_set(item, CHECK_MISSING, "%s: cannot parse: %s",
			       VMLINUX_BTF, strerror_safe(errno));
		return;
	}

	count_tp_typedefs(vmlinux, 1, &scan);
	scan_module_btfs(vmlinux, &scan);
	memcpy(rep->tp_count, scan.tp_count, sizeof(rep->tp_count));
	report_btf(item, &scan);
	btf__free(vmlinux);
}

void check_probe_tracepoints(struct check_report *rep)
{
	int family;

	for (family = 0; family < CHECK_TP_NR; family++)
		report_tp_family(rep, family);
}
