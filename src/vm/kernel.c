// SPDX-License-Identifier: GPL-2.0
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/spawn.h"
#include "vm/kernel.h"

/* what a guest needs of its kernel: a module, or the type that is in the
 * vmlinux BTF when the same code is built in; the config line that gives it */
struct kernel_part {
	const char *fstype; /* NULL: every guest needs it */
	const char *module;
	const char *btf_type;
	const char *config;
};

/* the filesystems first: the error names what the user asked for */
static const struct kernel_part parts[] = {
	{ "ext2", "ext4", "ext4_sb_info", "CONFIG_EXT4_FS" },
	{ "ext3", "ext4", "ext4_sb_info", "CONFIG_EXT4_FS" },
	/* every guest: its scratch disk is ext4, whatever the run's fstypes */
	{ NULL, "ext4", "ext4_sb_info", "CONFIG_EXT4_FS" },
	{ "xfs", "xfs", "xfs_mount", "CONFIG_XFS_FS" },
	{ "btrfs", "btrfs", "btrfs_fs_info", "CONFIG_BTRFS_FS" },
	{ NULL, "virtio_pci", "virtio_pci_device", "CONFIG_VIRTIO_PCI" },
	{ NULL, "virtio_blk", "virtio_blk", "CONFIG_VIRTIO_BLK" },
	{ NULL, "loop", "loop_device", "CONFIG_BLK_DEV_LOOP" },
	/* the device model's engine serves its disk over FUSE */
	{ NULL, "fuse", "fuse_conn", "CONFIG_FUSE_FS" },
	/* the stacks of --raid and --dm, named as needs, not fstypes */
	{ "md-raid0", "md_mod", "mddev", "CONFIG_BLK_DEV_MD" },
	{ "md-raid0", "raid0", "r0conf", "CONFIG_MD_RAID0" },
	{ "md-raid1", "md_mod", "mddev", "CONFIG_BLK_DEV_MD" },
	{ "md-raid1", "raid1", "r1conf", "CONFIG_MD_RAID1" },
	{ "dm-linear", "dm_mod", "mapped_device", "CONFIG_BLK_DEV_DM" },
};

#define N_PARTS (sizeof(parts) / sizeof(parts[0]))

static bool part_needed(const struct kernel_part *p, const char *const *fstypes,
			unsigned int n)
{
	unsigned int i;

	if (!p->fstype)
		return true;
	for (i = 0; i < n; i++)
		if (!strcmp(fstypes[i], p->fstype))
			return true;
	return false;
}

void vm_kernel_guest_modules(const char *const *fstypes, unsigned int n,
			     char *buf, size_t len)
{
	size_t used;
	unsigned int i, j;

	/* first: ext4 and jbd2 only soft-depend on it */
	used = (size_t)snprintf(buf, len, "crc32c_generic");
	for (i = 0; i < N_PARTS && used < len; i++) {
		if (!part_needed(&parts[i], fstypes, n))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(parts[j].module, parts[i].module) &&
			    part_needed(&parts[j], fstypes, n))
				break;
		if (j == i)
			used += (size_t)snprintf(buf + used, len - used, " %s",
						 parts[i].module);
	}
}

int vm_kernels_parse(const char *list, struct vm_kernel *k, unsigned int max,
		     char *err, size_t errlen)
{
	const char *p = list, *end;
	unsigned int n = 0;

	for (; *p; p = *end ? end + 1 : end) {
		size_t len;

		end = strchrnul(p, ',');
		len = (size_t)(end - p);
		if (!len || len >= sizeof(k[0].spec)) {
			snprintf(
				err, errlen,
				"'%s': an empty or overlong kernel name (give running, a Debian version such as 6.1, a package, or a path)",
				list);
			return -EINVAL;
		}
		if (n == max) {
			snprintf(err, errlen, "more than %u kernels", max);
			return -EINVAL;
		}
		memset(&k[n], 0, sizeof(k[n]));
		memcpy(k[n].spec, p, len);
		n++;
	}
	if (!n) {
		snprintf(err, errlen, "no kernel named");
		return -EINVAL;
	}
	return (int)n;
}

int vm_script_dir(char *buf, size_t len)
{
	static const char *const rel[] = { "/../scripts/vm",
					   "/../lib/fsprof/vm" };
	const char *env = getenv("FSPROF_VM_SCRIPTS");
	char exe[PATH_MAX], try[PATH_MAX + 64], *slash;
	ssize_t n;
	unsigned int i;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; i < 2; i++) {
		snprintf(try, sizeof(try), "%s%s/kernel-stage.sh", exe, rel[i]);
		if (!access(try, X_OK)) {
			snprintf(buf, len, "%s%s", exe, rel[i]);
			return 0;
		}
	}
	return -ENOENT;
}

/* the first line of KDIR/name into buf; "" when absent */
static void kdir_line(const struct vm_kernel *k, const char *name, char *buf,
		      size_t len)
{
	char path[4200];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", k->dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* the output's last line (the script prints the directory last) */
static void last_line(char *out, char *buf, size_t len)
{
	char *end = out + strlen(out), *start;

	while (end > out && end[-1] == '\n')
		*--end = '\0';
	start = strrchr(out, '\n');
	snprintf(buf, len, "%s", start ? start + 1 : out);
}

bool vm_kernel_is_path(const struct vm_kernel *k)
{
	return strchr(k->spec, '/') || !access(k->spec, F_OK);
}

/* what every staging asks for (scripts/vm-test.sh's GUEST_MODULES) */
static const char *const always[] = { "crc32c_generic", "ext4",	 "xfs",
				      "md_mod",		"raid0", "raid1",
				      "dm_mod",		"fuse" };

static bool staged_always(const char *module)
{
	unsigned int i;

	for (i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		if (!strcmp(always[i], module))
			return true;
	return false;
}

static bool module_listed(const char *const *argv, unsigned int n,
			  const char *module)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(argv[i], module))
			return true;
	return false;
}

int vm_kernel_stage(struct vm_kernel *k, const char *modules_dir,
		    const char *cache, const char *const *fstypes,
		    unsigned int n_fstypes, char *err, size_t errlen)
{
	char dir[PATH_MAX], script[PATH_MAX + 32], path[4200];
	const char *argv[12 + N_PARTS + 8];
	struct spawn_result res;
	unsigned int i, n = 0;
	int ret;

	if (vm_script_dir(dir, sizeof(dir))) {
		snprintf(
			err, errlen,
			"kernel %s: fsprof's VM scripts (kernel-stage.sh) are neither beside its build nor installed (FSPROF_VM_SCRIPTS names their directory)",
			k->spec);
		return -ENOENT;
	}
	snprintf(script, sizeof(script), "%s/kernel-stage.sh", dir);
	argv[n++] = script;
	if (modules_dir) {
		argv[n++] = "--modules";
		argv[n++] = modules_dir;
	}
	if (cache) {
		argv[n++] = "--cache";
		argv[n++] = cache;
	}
	argv[n++] = k->spec;
	/* ext4, xfs and the stacks' drivers always, as scripts/vm-test.sh
	 * stages them: one staged directory serves both (kernel-stage.sh's
	 * stamp names the set); a guest loads only what it needs */
	for (i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		argv[n++] = always[i];
	for (i = 0; i < N_PARTS; i++)
		if (part_needed(&parts[i], fstypes, n_fstypes) &&
		    !staged_always(parts[i].module) &&
		    !module_listed(argv, n, parts[i].module))
			argv[n++] = parts[i].module;
	argv[n] = NULL;
	ret = spawn_capture((char *const *)argv, &res);
	if (ret) {
		snprintf(err, errlen, "kernel %s: cannot run %s: %s", k->spec,
			 script, strerror(-ret));
		return ret;
	}
	if (res.exit_code) {
		last_line(res.output, err, errlen);
		free(res.output);
		return -ENOENT;
	}
	last_line(res.output, k->dir, sizeof(k->dir));
	free(res.output);
	kdir_line(k, "release", k->release, sizeof(k->release));
	kdir_line(k, "source", k->source, sizeof(k->source));
	snprintf(path, sizeof(path), "%s/config", k->dir);
	k->has_config = !access(path, R_OK);
	return 0;
}

/* is name one line of KDIR/modules.order (staged for the guest)? */
static bool module_staged(const struct vm_kernel *k, const char *name)
{
	char path[4200], line[128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules.order", k->dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, name);
	}
	fclose(f);
	return found;
}

static void btf_hash(const struct btf *btf, char *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const unsigned char *p;
	__u32 size, i;

	p = btf__raw_data(btf, &size);
	for (i = 0; p && i < size; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	snprintf(buf, len, "%016llx", (unsigned long long)h);
}

int vm_kernel_check(struct vm_kernel *k, const char *const *fstypes,
		    unsigned int n_fstypes, char *err, size_t errlen)
{
	libbpf_print_fn_t old_print;
	char path[4200];
	struct btf *btf;
	unsigned int i;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/vmlinux", k->dir);
	/* a missing .BTF is said below, with the fix; not libbpf's words */
	old_print = libbpf_set_print(NULL);
	btf = btf__parse_elf(path, NULL);
	libbpf_set_print(old_print);
	if (!btf) {
		snprintf(
			err, errlen,
			"kernel %s (%s): no BTF in its vmlinux (no .BTF section): fsprof's CO-RE programs cannot load there. Build it with CONFIG_DEBUG_INFO_BTF=y, which needs CONFIG_DEBUG_INFO=y, CONFIG_DEBUG_INFO_REDUCED off and pahole",
			k->spec,
			k->release[0] ? k->release : "release unknown");
		return -ENOENT;
	}
	btf_hash(btf, k->btf_hash, sizeof(k->btf_hash));
	for (i = 0; i < N_PARTS && !ret; i++) {
		const struct kernel_part *p = &parts[i];

		if (!part_needed(p, fstypes, n_fstypes) ||
		    module_staged(k, p->module) ||
		    btf__find_by_name_kind(btf, p->btf_type, BTF_KIND_STRUCT) >=
			    0)
			continue;
		snprintf(
			err, errlen,
			"kernel %s (%s): %s is neither built in nor a module it ships%s: build it with %s=y, or =m and give its modules with --kernel-modules DIR",
			k->spec, k->release[0] ? k->release : "release unknown",
			p->fstype ? p->fstype : p->module,
			p->fstype ? "" : " (a guest needs it for its disks)",
			p->config);
		ret = -ENOENT;
	}
	btf__free(btf);
	return ret;
}
