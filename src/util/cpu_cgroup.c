// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "util/cpu_cgroup.h"
#include "util/log.h"
#include "util/sysfile.h"
#include "util/quiet_thread.h"

#define CGROUP_PREFIX "fsprof-trace-"

/* where cgroup2 is mounted, or cgroup v1 with cpuacct; false: neither */
static bool cgroup_mount(char *dir, size_t len, bool *v2)
{
	struct mntent *m;
	bool found = false;
	FILE *f;

	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		return false;
	/* cgroup2 first: where it is mounted it counts every task */
	while ((m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2")) {
			snprintf(dir, len, "%s", m->mnt_dir);
			*v2 = found = true;
			break;
		}
	rewind(f);
	while (!found && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "cpuacct")) {
			snprintf(dir, len, "%s", m->mnt_dir);
			*v2 = false;
			found = true;
		}
	endmntent(f);
	return found;
}

static int write_pid(const char *dir, pid_t pid)
{
	char path[600], num[24];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(num, sizeof(num), "%d\n", (int)pid);
	return sysfile_write(path, num);
}

/* one unsigned number from a file, or "key value" from a keyed one */
static int read_value(const char *path, const char *key, uint64_t *v)
{
	char line[128], name[64];
	unsigned long long x;
	int err = -ENOENT;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		if (!key && sscanf(line, "%llu", &x) == 1)
			err = 0;
		else if (key && sscanf(line, "%63s %llu", name, &x) == 2 &&
			 !strcmp(name, key))
			err = 0;
	}
	fclose(f);
	if (!err)
		*v = x;
	return err;
}

uint64_t cpu_cgroup_id(const struct cpu_cgroup *cg)
{
	struct stat st;

	if (!cg->dir[0] || !cg->v2 || stat(cg->dir, &st))
		return 0;
	return st.st_ino;
}

int cpu_cgroup_read(const struct cpu_cgroup *cg, uint64_t *user_ns,
		    uint64_t *sys_ns)
{
	char path[600];
	uint64_t u, s;
	int err;

	if (!cg->dir[0])
		return -ENOENT;
	if (cg->v2) {
		snprintf(path, sizeof(path), "%s/cpu.stat", cg->dir);
		err = read_value(path, "user_usec", &u);
		if (!err)
			err = read_value(path, "system_usec", &s);
		if (err)
			return err;
		*user_ns = u * 1000;
		*sys_ns = s * 1000;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/cpuacct.usage_user", cg->dir);
	err = read_value(path, NULL, &u);
	snprintf(path, sizeof(path), "%s/cpuacct.usage_sys", cg->dir);
	if (!err)
		err = read_value(path, NULL, &s);
	if (err)
		return err;
	*user_ns = u;
	*sys_ns = s;
	return 0;
}

bool cpu_cgroup_is_ours(const char *dir)
{
	const char *base = strrchr(dir, '/');
	struct statfs fs;
	char *end;

	if (!base || strncmp(base + 1, CGROUP_PREFIX, strlen(CGROUP_PREFIX)))
		return false;
	strtol(base + 1 + strlen(CGROUP_PREFIX), &end, 10);
	if (end == base + 1 + strlen(CGROUP_PREFIX) || *end)
		return false;
	return !statfs(dir, &fs) && (fs.f_type == CGROUP2_SUPER_MAGIC ||
				     fs.f_type == CGROUP_SUPER_MAGIC);
}

int cpu_cgroup_remove_dir(const char *dir)
{
	const struct timespec step = { 0, 10000000L };
	char path[600], parent[512], line[32];
	int tries, err = 0;
	FILE *f;

	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = '\0';
	/* a process the command left behind goes back where fsprof runs */
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			write_pid(parent, (pid_t)atoi(line));
		fclose(f);
	}
	/* a task that just exited leaves the cgroup a moment later */
	for (tries = 0; tries < 100; tries++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		err = -errno;
		if (err != -EBUSY)
			break;
		nanosleep(&step, NULL);
	}
	return err;
}

static void cgroup_join(struct cpu_cgroup *cg)
{
	if (!cg->moving)
		return;
	pthread_join(cg->mover, NULL);
	cg->moving = false;
}

static int cgroup_undo(void *arg)
{
	struct cpu_cgroup *cg = arg;
	int err;

	cgroup_join(cg); /* not removed under a move */
	err = cpu_cgroup_remove_dir(cg->dir);

	if (err)
		log_warn("remove the cgroup %s: %s", cg->dir,
			 strerror_safe(-err));
	cg->dir[0] = '\0';
	return err;
}

static void *cgroup_move(void *arg)
{
	struct cpu_cgroup *cg = arg;
	uint64_t u, s;

	cg->moved = write_pid(cg->dir, cg->pid);
	if (!cg->moved)
		cg->moved = cpu_cgroup_read(cg, &u, &s);
	return NULL;
}

static void cgroup_move_start(struct cpu_cgroup *cg)
{
	cg->moving = !quiet_thread_start(&cg->mover, cgroup_move, cg,
					 "fsprof-cgroup");
	if (!cg->moving)
		cgroup_move(cg); /* no thread: the move on this one */
}

int cpu_cgroup_up(struct cpu_cgroup *cg, pid_t pid, struct teardown *td,
		  char *why, size_t why_len)
{
	char mnt[400];
	int err, rec;

	cg->dir[0] = '\0';
	cg->moving = false;
	if (!cgroup_mount(mnt, sizeof(mnt), &cg->v2)) {
		snprintf(why, why_len,
			 "neither cgroup2 nor cgroup v1's cpuacct is mounted");
		return -ENOENT;
	}
	snprintf(cg->dir, sizeof(cg->dir), "%s/" CGROUP_PREFIX "%d", mnt,
		 (int)getpid());
	rec = teardown_record(td, "cgroup", cg->dir);
	if (rec < 0) {
		snprintf(why, why_len, "record the cgroup %s: %s", cg->dir,
			 strerror_safe(-rec));
		cg->dir[0] = '\0';
		return rec;
	}
	if (mkdir(cg->dir, 0755)) {
		err = -errno;
		snprintf(why, why_len, "mkdir %s: %s", cg->dir,
			 strerror_safe(-err));
		cg->dir[0] = '\0';
		return err;
	}
	err = teardown_push_recorded(td, rec, cgroup_undo, cg,
				     "remove the cgroup %s", cg->dir);
	if (err) {
		rmdir(cg->dir);
		cg->dir[0] = '\0';
		snprintf(why, why_len, "the teardown registry is full");
		return err;
	}
	cg->pid = pid;
	cgroup_move_start(cg);
	return 0;
}

int cpu_cgroup_moved(struct cpu_cgroup *cg, char *why, size_t why_len)
{
	cgroup_join(cg);
	if (cg->moved)
		snprintf(why, why_len, "move the command into %s: %s", cg->dir,
			 strerror_safe(-cg->moved));
	return cg->moved; /* the cgroup is removed by the teardown */
}
