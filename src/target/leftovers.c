// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/dmdev.h"
#include "target/leftovers.h"
#include "target/loopdev.h"
#include "target/mdarray.h"
#include "target/mount.h"
#include "target/mountinfo.h"
#include "target/remove_tree.h"
#include "target/model_daemon.h"
#include "util/cpu_cgroup.h"
#include "util/log.h"
#include "util/runstate.h"
#include "util/sysfile.h"

#define LOOP_MAJOR_NR 7

struct leftover_record {
	int id;
	char kind[16];
	char arg[PATH_MAX];
	bool removed;
};

/* one state file, read back */
struct leftover_run {
	char path[PATH_MAX];
	int pid;
	unsigned long long start;
	char boot[64];
	char scratch[PATH_MAX];
	char real_scratch[PATH_MAX]; /* the directory cleaned, resolved */
	char cwd[PATH_MAX];
	bool same_boot;
	unsigned int n, cap;
	struct leftover_record *rec;
};

static int run_add_record(struct leftover_run *run, const char *line)
{
	struct leftover_record *r;
	int id, used = 0;

	if (line[0] == '-') {
		unsigned int i;

		if (sscanf(line, "- %d", &id) != 1)
			return -EINVAL;
		for (i = 0; i < run->n; i++)
			if (run->rec[i].id == id)
				run->rec[i].removed = true;
		return 0;
	}
	if (run->n == run->cap) {
		unsigned int cap = run->cap ? run->cap * 2 : 16;
		void *p = realloc(run->rec, cap * sizeof(*run->rec));

		if (!p)
			return -ENOMEM;
		run->rec = p;
		run->cap = cap;
	}
	r = &run->rec[run->n];
	memset(r, 0, sizeof(*r));
	if (sscanf(line, "+ %d %15s %n", &r->id, r->kind, &used) != 2 ||
	    !used || !line[used])
		return -EINVAL;
	snprintf(r->arg, sizeof(r->arg), "%s", line + used);
	run->n++;
	return 0;
}

/* a path recorded relative to the run's working directory */
static void path_make_absolute(const char *cwd, char *path, size_t len)
{
	char abs[2 * PATH_MAX];

	if (path[0] == '/' || !cwd[0])
		return;
	snprintf(abs, sizeof(abs), "%s/%s", cwd, path);
	snprintf(path, len, "%.*s", (int)len - 1, abs);
}

/* records whose argument is a name, not a path: MAJ:MIN, md200, fsprof-X */
static bool record_names_no_path(const struct leftover_record *r)
{
	static const char *const kinds[] = { "md", "dm" };
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(r->kind, kinds[i]))
			return true;
	return false;
}

static void run_make_absolute(struct leftover_run *run)
{
	unsigned int i;

	path_make_absolute(run->cwd, run->scratch, sizeof(run->scratch));
	for (i = 0; i < run->n; i++)
		if (!record_names_no_path(&run->rec[i]))
			path_make_absolute(run->cwd, run->rec[i].arg,
					   sizeof(run->rec[i].arg));
}

static int run_read(const char *path, struct leftover_run *run)
{
	char *line = NULL, boot[64];
	int version = 0, err = 0;
	size_t cap = 0;
	struct stat st;
	ssize_t len;
	FILE *f;

	memset(run, 0, sizeof(*run));
	snprintf(run->path, sizeof(run->path), "%s", path);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* another user's file could name anything: only our own is read */
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fclose(f);
		return -EPERM;
	}
	while (!err && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* a line cut short: never written whole */
		line[len - 1] = '\0';
		if (line[0] == '+' || line[0] == '-')
			err = run_add_record(run, line);
		else if (!strncmp(line, "fsprof-state ", 13))
			version = atoi(line + 13);
		else if (!strncmp(line, "pid ", 4))
			run->pid = atoi(line + 4);
		else if (!strncmp(line, "start ", 6))
			run->start = strtoull(line + 6, NULL, 10);
		else if (!strncmp(line, "boot ", 5))
			snprintf(run->boot, sizeof(run->boot), "%s", line + 5);
		else if (!strncmp(line, "cwd ", 4))
			snprintf(run->cwd, sizeof(run->cwd), "%s", line + 4);
		else if (!strncmp(line, "scratch ", 8))
			snprintf(run->scratch, sizeof(run->scratch), "%s",
				 line + 8);
	}
	free(line);
	fclose(f);
	if (!err &&
	    (version != RUNSTATE_VERSION || run->pid <= 0 || !run->scratch[0]))
		err = -EINVAL;
	if (!err)
		run_make_absolute(run);
	runstate_boot_id(boot, sizeof(boot));
	run->same_boot = boot[0] && !strcmp(boot, run->boot);
	return err;
}

/* the same process, started at the same time, in this boot */
static bool run_alive(const struct leftover_run *run)
{
	unsigned long long start;

	return run->same_boot && !runstate_proc_start(run->pid, &start) &&
	       start == run->start;
}

/* under dir, or dir itself */
static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/*
 * Below the run's scratch directory, with no way back up: as recorded, and
 * with its directory resolved (a symlink put in place of a run directory
 * would lead elsewhere).
 */
static bool below_scratch(const struct leftover_run *run, const char *path)
{
	char parent[PATH_MAX], real[PATH_MAX], *slash;
	size_t n = strlen(run->scratch);

	if (strncmp(path, run->scratch, n) || path[n] != '/' ||
	    strstr(path, "/../") || strstr(path, "/./"))
		return false;
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	return realpath(parent, real) && path_within(real, run->real_scratch);
}

/* the last component of path is name, or starts with it (prefix) */
static bool base_is(const char *path, const char *name, bool prefix)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return prefix ? !strncmp(base, name, strlen(name)) :
			!strcmp(base, name);
}

static bool run_has(const struct leftover_run *run, const char *kind,
		    const char *arg)
{
	unsigned int i;

	for (i = 0; i < run->n; i++)
		if (!strcmp(run->rec[i].kind, kind) &&
		    !strcmp(run->rec[i].arg, arg))
			return true;
	return false;
}

/*
 * a loop's backing file the run made: its image, or the file its device
 * model's engine serves (<mount>/disk, the mount recorded as "model")
 */
static bool file_is_runs(const struct leftover_run *run, const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (run_has(run, "image", path))
		return true;
	if (!slash || strcmp(slash, "/disk") ||
	    (size_t)(slash - path) >= sizeof(dir))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return run_has(run, "model", dir);
}

/*
 * A loop device is the run's when its backing file is the run's image, or
 * a loop device that is itself backed by the run's image.
 */
static bool loop_backing_is_ours(const struct leftover_run *run,
				 const char *backing)
{
	char below[PATH_MAX];
	struct stat st;

	if (file_is_runs(run, backing))
		return true;
	if (strncmp(backing, "/dev/loop", 9) || stat(backing, &st) ||
	    !S_ISBLK(st.st_mode) ||
	    loopdev_backing(st.st_rdev, below, sizeof(below)))
		return false;
	return file_is_runs(run, below);
}

static bool is_kind(const struct leftover_record *r, const char *kind)
{
	return !strcmp(r->kind, kind);
}

/* an image's name: "image", or a stack member's "image.m<N>" */
static bool image_named(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!strcmp(base, "image"))
		return true;
	if (strncmp(base, "image.m", 7) || !base[7])
		return false;
	return strspn(base + 7, "0123456789") == strlen(base + 7);
}

/* slave of an md array: one of the run's --device members, by number */
static bool member_is_ours(const struct leftover_run *run, const char *md,
			   const char *slave)
{
	unsigned int maj, min, i;
	char path[160], line[32];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/block/%.32s/slaves/%.64s/dev", md,
		 slave);
	if (sysfile_read_line(path, line, sizeof(line)) < 0 ||
	    sscanf(line, "%u:%u", &maj, &min) != 2)
		return false;
	for (i = 0; i < run->n; i++)
		if (is_kind(&run->rec[i], "mdmember") &&
		    !stat(run->rec[i].arg, &st) && S_ISBLK(st.st_mode) &&
		    st.st_rdev == makedev(maj, min))
			return true;
	return false;
}

/* an md array whose members are all loops on the run's images, or the
 * run's --device members */
static bool md_is_ours(const struct leftover_run *run, const char *name)
{
	char dir[128], backing[PATH_MAX];
	unsigned int n = 0, mi;
	struct dirent *e;
	bool ours = true;
	DIR *d;

	if (strncmp(name, "md", 2) || strchr(name, '/'))
		return false;
	snprintf(dir, sizeof(dir), "/sys/block/%.32s/slaves", name);
	d = opendir(dir);
	if (!d)
		return false;
	while (ours && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		ours = member_is_ours(run, name, e->d_name) ||
		       (sscanf(e->d_name, "loop%u", &mi) == 1 &&
			!loopdev_backing(makedev(LOOP_MAJOR_NR, mi), backing,
					 sizeof(backing)) &&
			loop_backing_is_ours(run, backing));
	}
	closedir(d);
	return ours && n;
}

/* a dm device named for one of the run's run directories */
static bool dm_is_ours(const struct leftover_run *run, const char *name)
{
	const char *suffix = name + strlen(DMDEV_PREFIX);
	char kname[32], rundir[PATH_MAX];
	unsigned int i;

	if (strncmp(name, DMDEV_PREFIX, strlen(DMDEV_PREFIX)) ||
	    dmdev_find(name, kname, sizeof(kname)))
		return false;
	for (i = 0; i < run->n; i++) {
		const char *base = strrchr(run->rec[i].arg, '/');

		snprintf(rundir, sizeof(rundir), "fsprof.%s", suffix);
		if (!strcmp(run->rec[i].kind, "rundir") && base &&
		    !strcmp(base + 1, rundir))
			return true;
	}
	return false;
}

/* a block device that nothing holds (its array is stopped) */
static bool member_free(const char *path)
{
	char dir[64];
	struct dirent *e;
	struct stat st;
	bool held = false;
	DIR *d;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
		 major(st.st_rdev), minor(st.st_rdev));
	d = opendir(dir);
	if (!d)
		return false;
	while (!held && (e = readdir(d)))
		held = e->d_name[0] != '.';
	closedir(d);
	return !held;
}

static bool lstat_is(const char *path, mode_t type)
{
	struct stat st;

	return !lstat(path, &st) && (st.st_mode & S_IFMT) == type;
}

/* the resource of r still exists, and is provably the run's */
static bool record_present(const struct leftover_run *run,
			   const struct leftover_record *r, char *dev,
			   size_t devlen)
{
	char real[PATH_MAX];

	/*
	 * its daemon's pidfile: undone by stopping the daemon, when the file
	 * names a live one (named so, started when it says), and removing
	 * the file (the daemon may have ended with its mount)
	 */
	if (is_kind(r, "model-daemon"))
		return below_scratch(run, r->arg) && lstat_is(r->arg, S_IFREG);
	/* the filesystem's mount, and the device model's FUSE mount */
	if (is_kind(r, "mount") || is_kind(r, "model")) {
		struct mountinfo_entry *e = malloc(sizeof(*e));
		bool found = e && run->same_boot &&
			     below_scratch(run, r->arg) &&
			     !mountinfo_find_by_dir(r->arg, e);

		free(e);
		return found;
	}
	if (is_kind(r, "loop"))
		return run->same_boot && loop_backing_is_ours(run, r->arg) &&
		       !loopdev_find_by_backing(r->arg, dev, devlen);
	/* by the names fsprof gives them: <scratch>/fsprof.XXXXXX/{image,mnt} */
	/* a stack's: dm on md on the run's loops */
	if (is_kind(r, "md"))
		return run->same_boot && md_is_ours(run, r->arg);
	if (is_kind(r, "dm"))
		return run->same_boot && dm_is_ours(run, r->arg);
	/* --device's array member, recorded by the run: in no array now */
	if (is_kind(r, "mdmember"))
		return run->same_boot && member_free(r->arg);
	if (is_kind(r, "image"))
		return image_named(r->arg) && below_scratch(run, r->arg) &&
		       lstat_is(r->arg, S_IFREG);
	if (is_kind(r, "mountpoint"))
		return base_is(r->arg, "mnt", false) &&
		       below_scratch(run, r->arg) && lstat_is(r->arg, S_IFDIR);
	if (is_kind(r, "rundir"))
		return base_is(r->arg, "fsprof.", true) &&
		       below_scratch(run, r->arg) && lstat_is(r->arg, S_IFDIR);
	/* fsprof trace's cgroup for the command's CPU time */
	if (is_kind(r, "cgroup"))
		return run->same_boot && cpu_cgroup_is_ours(r->arg) &&
		       lstat_is(r->arg, S_IFDIR);
	/* --dir's fsprof.XXXXXX, reached through no symlink */
	if (is_kind(r, "workdir"))
		return base_is(r->arg, "fsprof.", true) &&
		       realpath(r->arg, real) && !strcmp(real, r->arg) &&
		       lstat_is(r->arg, S_IFDIR);
	return false;
}

static void record_describe(const struct leftover_record *r, const char *dev,
			    char *buf, size_t len)
{
	if (is_kind(r, "model"))
		snprintf(buf, len, "device model's FUSE mount on %s", r->arg);
	else if (is_kind(r, "model-daemon"))
		snprintf(buf, len, "device model's daemon (pidfile %s)",
			 r->arg);
	else if (is_kind(r, "mount"))
		snprintf(buf, len, "mount on %s", r->arg);
	else if (is_kind(r, "loop"))
		snprintf(buf, len, "loop device %s on %s", dev, r->arg);
	else if (is_kind(r, "image"))
		snprintf(buf, len, "image %s", r->arg);
	else if (is_kind(r, "md"))
		snprintf(buf, len, "md array /dev/%s", r->arg);
	else if (is_kind(r, "dm"))
		snprintf(buf, len, "dm device %s", r->arg);
	else if (is_kind(r, "mdmember"))
		snprintf(buf, len, "md superblock on %s", r->arg);
	else if (is_kind(r, "cgroup"))
		snprintf(buf, len, "cgroup %s", r->arg);
	else
		snprintf(buf, len, "directory %s", r->arg);
}

static int record_undo(const struct leftover_record *r, const char *dev)
{
	if (is_kind(r, "model"))
		return model_mount_remove(r->arg);
	if (is_kind(r, "model-daemon"))
		return model_daemon_kill_pidfile(r->arg);
	if (is_kind(r, "mount"))
		return mount_remove(r->arg);
	if (is_kind(r, "loop"))
		return loopdev_detach_path(dev);
	if (is_kind(r, "image"))
		return unlink(r->arg) ? -errno : 0;
	if (is_kind(r, "md"))
		return mdarray_stop_name(r->arg);
	if (is_kind(r, "dm"))
		return dmdev_remove_name(r->arg);
	if (is_kind(r, "mdmember"))
		return mdarray_zero_member(r->arg);
	if (is_kind(r, "workdir"))
		return remove_tree(r->arg);
	if (is_kind(r, "cgroup"))
		return cpu_cgroup_remove_dir(r->arg);
	return rmdir(r->arg) ? -errno : 0;
}

typedef int (*leftover_fn)(struct leftover_run *run, void *arg);

/* every readable state file in scratch whose run is dead */
static int for_each_dead_run(const char *scratch, leftover_fn fn, void *arg)
{
	struct leftover_run *run = malloc(sizeof(*run));
	char path[PATH_MAX], real[PATH_MAX], rec_real[PATH_MAX];
	struct dirent *e;
	int total = 0, err;
	DIR *d;

	d = opendir(scratch);
	if (!d || !run || !realpath(scratch, real)) {
		err = !run ? -ENOMEM : -errno;
		free(run);
		if (d)
			closedir(d);
		return err;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name), s = strlen(RUNSTATE_SUFFIX);

		if (strncmp(e->d_name, RUNSTATE_PREFIX,
			    strlen(RUNSTATE_PREFIX)) ||
		    n <= s || strcmp(e->d_name + n - s, RUNSTATE_SUFFIX))
			continue;
		snprintf(path, sizeof(path), "%s/%s", scratch, e->d_name);
		err = run_read(path, run);
		if (err == -EPERM)
			log_warn(
				"%s is not this user's own file, or others can write it: left alone",
				path);
		else if (err)
			log_warn(
				"%s is not a state file fsprof can read: left alone",
				path);
		/* its records must be below the directory it is in */
		else if (!realpath(run->scratch, rec_real) ||
			 strcmp(rec_real, real))
			log_warn(
				"%s records the scratch directory %s, not %s: left alone",
				path, run->scratch, scratch);
		else if (run_alive(run))
			log_debug("%s: run %d is alive", path, run->pid);
		else {
			snprintf(run->real_scratch, sizeof(run->real_scratch),
				 "%s", real);
			total += fn(run, arg);
		}
		free(run->rec);
	}
	closedir(d);
	free(run);
	return total;
}

/* the list of what is left, for the warning */
static int warn_run(struct leftover_run *run, void *arg)
{
	char what[1024] = "", one[PATH_MAX + 64], dev[32];
	const char *scratch = arg;
	unsigned int i, n = 0;

	for (i = run->n; i-- > 0;) {
		const struct leftover_record *r = &run->rec[i];

		if (r->removed || !record_present(run, r, dev, sizeof(dev)))
			continue;
		record_describe(r, dev, one, sizeof(one));
		if (n < 3)
			snprintf(what + strlen(what),
				 sizeof(what) - strlen(what), "%s%.300s",
				 n ? ", " : "", one);
		n++;
	}
	if (!n)
		return 0;
	log_warn(
		"a dead fsprof run (pid %d) left %u thing(s) behind: %s%s; remove them with 'fsprof cleanup --scratch %s'",
		run->pid, n, what, n > 3 ? ", ..." : "", scratch);
	return 1;
}

int leftovers_warn(const char *scratch)
{
	int n = for_each_dead_run(scratch, warn_run, (void *)scratch);

	return n < 0 ? 0 : n;
}

struct cleanup_ctx {
	bool dry_run;
	unsigned int removed;
};

/* undo newest first; keep the state file while anything is left */
static int cleanup_run(struct leftover_run *run, void *arg)
{
	struct cleanup_ctx *ctx = arg;
	char one[PATH_MAX + 64], dev[32];
	struct runstate rs = { .fd = -1 };
	unsigned int i;
	int failed = 0, err;

	if (!ctx->dry_run)
		rs.fd = open(run->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	snprintf(rs.path, sizeof(rs.path), "%s", run->path);
	for (i = run->n; i-- > 0;) {
		const struct leftover_record *r = &run->rec[i];

		if (r->removed || !record_present(run, r, dev, sizeof(dev)))
			continue;
		record_describe(r, dev, one, sizeof(one));
		if (ctx->dry_run) {
			printf("would remove %s (run %d)\n", one, run->pid);
			continue;
		}
		err = record_undo(r, dev);
		if (err && err != -ENOENT) {
			log_error("remove %s (run %d): %s", one, run->pid,
				  strerror_safe(-err));
			failed++;
			continue;
		}
		printf("removed %s (run %d)\n", one, run->pid);
		ctx->removed++;
		if (rs.fd >= 0)
			runstate_remove(&rs, r->id);
	}
	if (rs.fd >= 0)
		close(rs.fd);
	if (!failed && !ctx->dry_run && unlink(run->path))
		failed++;
	return failed;
}

int leftovers_cleanup(const char *scratch, bool dry_run)
{
	struct cleanup_ctx ctx = { .dry_run = dry_run };
	int failed = for_each_dead_run(scratch, cleanup_run, &ctx);

	if (failed < 0) {
		log_error("scratch directory %s: %s", scratch,
			  strerror_safe(-failed));
		return failed;
	}
	if (!dry_run && !failed)
		printf("%u thing(s) removed from dead runs in %s\n",
		       ctx.removed, scratch);
	return failed;
}

int leftovers_begin(struct runstate *rs, struct teardown *td,
		    const char *scratch)
{
	int err;

	leftovers_warn(scratch);
	err = runstate_create(rs, scratch);
	if (!err)
		td->state = rs;
	return err;
}

void leftovers_end(struct runstate *rs, struct teardown *td,
		   const char *scratch)
{
	if (td->state != rs)
		return; /* never begun */
	td->state = NULL;
	if (td->failed)
		log_error(
			"what the failed teardown left is recorded in %s: 'fsprof cleanup --scratch %s' removes it",
			rs->path, scratch);
	runstate_close(rs, !td->failed);
}
