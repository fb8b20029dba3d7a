// SPDX-License-Identifier: GPL-2.0
/*
 * mdcreate, fs_mark -S0 -s0 style: create empty files in several directories
 * (no data, no per-file sync) and syncfs at the end inside the timing:
 * files/s is files / loop time as fs_mark defines it, but the loop includes
 * the closing syncfs, which fs_mark -S0 never does (the benchmark subtracts
 * it to compare). Then rm -rf them and syncfs. The purest metadata/log-IO
 * test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/progress.h"
#include "workload/prng.h"
#include "workload/rmtree.h"
#include "workload/workload.h"

#define MDCREATE_DIR "mdcreate"
#define MDCREATE_MAX_DIRS 100000ULL
/* fs_mark names: a hex stamp then random characters, 24 in all */
#define MDCREATE_NAME_RANDOM 16

static const struct param_def mdcreate_params[] = {
	{ "files", PARAM_COUNT, "200000", "500000", "empty files to create" },
	{ "dirs", PARAM_COUNT, "4", "16",
	  "directories; each holds files/dirs of them, filled in turn" },
	{ "seed", PARAM_COUNT, "1", "1", "seed for the file names" },
};

static int mdcreate_fail(const struct workload_env *env, const char *what,
			 const char *name)
{
	int err = errno;

	log_error("mdcreate: %s %s/%s/%s: %s", what, env->dir, MDCREATE_DIR,
		  name, strerror_safe(err));
	return -err;
}

static void mdcreate_name(struct prng *rng, uint64_t i, char *buf)
{
	static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	unsigned int k, n;

	n = (unsigned int)snprintf(buf, 9, "%08llx",
				   (unsigned long long)(i & 0xffffffffULL));
	for (k = 0; k < MDCREATE_NAME_RANDOM; k++)
		buf[n + k] = chars[prng_below(rng, sizeof(chars) - 1)];
	buf[n + k] = '\0';
}

static int mdcreate_make_dirs(const struct workload_env *env,
			      struct phase_ctx *pc, int topfd, int *fds,
			      uint64_t dirs)
{
	uint64_t d, t0;
	char name[32];

	for (d = 0; d < dirs; d++) {
		snprintf(name, sizeof(name), "d%03llu", (unsigned long long)d);
		t0 = clock_mono_ns();
		if (mkdirat(topfd, name, 0755))
			return mdcreate_fail(env, "mkdir", name);
		op_record(pc, OP_MKDIR, t0);
		work_add(pc, 0, 1, 0);
		fds[d] =
			openat(topfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fds[d] < 0)
			return mdcreate_fail(env, "open", name);
	}
	return 0;
}

static int mdcreate_files(const struct workload_env *env, struct phase_ctx *pc,
			  const int *fds, uint64_t files, uint64_t dirs)
{
	uint64_t per_dir = (files + dirs - 1) / dirs, i, t0;
	struct prng rng;
	char name[40];
	int fd;

	prng_seed(&rng, param_num(env->params, "seed"));
	for (i = 0; i < files; i++) {
		if (*env->stop)
			return -EINTR;
		mdcreate_name(&rng, i, name);
		t0 = clock_mono_ns();
		fd = openat(fds[i / per_dir], name,
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return mdcreate_fail(env, "create", name);
		op_record(pc, OP_CREATE, t0);
		t0 = clock_mono_ns();
		close(fd);
		op_record(pc, OP_CLOSE, t0);
		work_add(pc, 0, 2, 1);
		progress_set(pc->progress, i + 1);
	}
	return 0;
}

static int mdcreate_create(const struct workload_env *env, struct phase_ctx *pc)
{
	uint64_t files = param_num(env->params, "files");
	uint64_t dirs = param_num(env->params, "dirs"), d, t0;
	int topfd = -1, *fds, err = 0;

	if (dirs > MDCREATE_MAX_DIRS || dirs > files) {
		log_error(
			"mdcreate: dirs=%llu must be at most files=%llu and 100000",
			(unsigned long long)dirs, (unsigned long long)files);
		return -EINVAL;
	}
	fds = malloc(dirs * sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	for (d = 0; d < dirs; d++)
		fds[d] = -1;
	progress_total(pc->progress, files, PROGRESS_FILES);
	topfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (topfd < 0)
		err = mdcreate_fail(env, "open", "");
	t0 = clock_mono_ns();
	if (!err && mkdirat(topfd, MDCREATE_DIR, 0755))
		err = mdcreate_fail(env, "mkdir", "");
	op_record(pc, OP_MKDIR, t0);
	work_add(pc, 0, 1, 0);
	if (!err) {
		int subfd = openat(topfd, MDCREATE_DIR,
				   O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (subfd < 0) {
			err = mdcreate_fail(env, "open", "");
		} else {
			err = mdcreate_make_dirs(env, pc, subfd, fds, dirs);
			close(subfd);
		}
	}
	if (!err)
		err = mdcreate_files(env, pc, fds, files, dirs);
	if (!err) {
		t0 = clock_mono_ns();
		if (syncfs(topfd))
			err = mdcreate_fail(env, "syncfs", "");
		op_record(pc, OP_SYNC, t0);
		work_add(pc, 0, 1, 0);
	}
	for (d = 0; d < dirs; d++)
		if (fds[d] >= 0)
			close(fds[d]);
	free(fds);
	if (topfd >= 0)
		close(topfd);
	return err;
}

static int mdcreate_remove(const struct workload_env *env, struct phase_ctx *pc)
{
	return rmtree_phase(env, pc, MDCREATE_DIR, "mdcreate");
}

static uint64_t mdcreate_space_needed(const struct workload_params *params)
{
	uint64_t files = param_num(params, "files");
	uint64_t dirs = param_num(params, "dirs");

	/* directory blocks: a 24-character name takes 32 bytes of entry */
	return files * 64 + dirs * 4096;
}

static uint64_t mdcreate_files_needed(const struct workload_params *params)
{
	return param_num(params, "files") + param_num(params, "dirs") + 1;
}

static const struct phase_def mdcreate_phases[] = {
	{ "create", "warm", "syncfs", NULL, mdcreate_create },
	{ "remove", "warm", "syncfs", NULL, mdcreate_remove },
};

const struct workload_def mdcreate_workload = {
	.name = "mdcreate",
	.description =
		"fs_mark -S0 -s0: empty files in several directories + syncfs, then rm -rf + syncfs",
	.params = mdcreate_params,
	.n_params = sizeof(mdcreate_params) / sizeof(mdcreate_params[0]),
	.phases = mdcreate_phases,
	.n_phases = sizeof(mdcreate_phases) / sizeof(mdcreate_phases[0]),
	.space_needed = mdcreate_space_needed,
	.files_needed = mdcreate_files_needed,
};
