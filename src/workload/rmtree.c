// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/progress.h"
#include "workload/rmtree.h"

#define RMTREE_MAX_DEPTH 1024

struct rmtree_walk {
	const struct workload_env *env;
	struct phase_ctx *pc;
	const char *label;
	struct rmtree_result *out;
	char path[PATH_MAX]; /* of the directory being emptied, for errors */
	size_t path_len;
};

/* one directory's entries: "<d_type><name>\0" packed */
struct name_list {
	char *buf;
	size_t len, cap;
};

static int rmtree_fail(struct rmtree_walk *w, const char *what,
		       const char *name)
{
	int err = errno;

	log_error("%s: %s %s/%s: %s", w->label, what, w->path, name,
		  strerror_safe(err));
	return -err;
}

static int name_list_add(struct name_list *l, unsigned char type,
			 const char *name)
{
	size_t need = strlen(name) + 2;

	if (l->len + need > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		char *bigger;

		while (cap < l->len + need)
			cap *= 2;
		bigger = realloc(l->buf, cap);
		if (!bigger)
			return -ENOMEM;
		l->buf = bigger;
		l->cap = cap;
	}
	l->buf[l->len] = (char)type;
	memcpy(l->buf + l->len + 1, name, need - 1);
	l->len += need;
	return 0;
}

static bool dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* read every entry of d, as rm does before it unlinks anything */
static int rmtree_list(struct rmtree_walk *w, DIR *d, struct name_list *l)
{
	uint64_t t0 = clock_mono_ns();
	struct dirent *de;

	errno = 0;
	while ((de = readdir(d))) {
		if (dot_or_dotdot(de->d_name))
			continue;
		if (name_list_add(l, de->d_type, de->d_name))
			return -ENOMEM;
	}
	if (errno)
		return rmtree_fail(w, "read directory", "");
	op_record(w->pc, OP_READDIR, t0);
	work_add(w->pc, 0, 1, 0);
	return 0;
}

static uint64_t rmtree_count_left(DIR *d)
{
	struct dirent *de;
	uint64_t n = 0;

	rewinddir(d);
	while ((de = readdir(d)))
		if (!dot_or_dotdot(de->d_name))
			n++;
	return n;
}

static int rmtree_dir(struct rmtree_walk *w, int parentfd, const char *name,
		      unsigned int depth);

static int rmtree_entry(struct rmtree_walk *w, int dirfd, unsigned char type,
			const char *name, unsigned int depth)
{
	uint64_t t0;

	if (type == DT_UNKNOWN) {
		struct stat st;

		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return rmtree_fail(w, "stat", name);
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type == DT_DIR)
		return rmtree_dir(w, dirfd, name, depth + 1);
	t0 = clock_mono_ns();
	if (unlinkat(dirfd, name, 0))
		return rmtree_fail(w, "unlink", name);
	op_record(w->pc, OP_UNLINK, t0);
	work_add(w->pc, 0, 1, 1);
	w->out->files++;
	progress_set(w->pc->progress, w->out->files);
	return 0;
}

static int rmtree_contents(struct rmtree_walk *w, DIR *d, unsigned int depth)
{
	struct name_list names = { 0 };
	size_t off;
	int err;

	err = rmtree_list(w, d, &names);
	for (off = 0; !err && off < names.len;) {
		unsigned char type = (unsigned char)names.buf[off];
		const char *name = names.buf + off + 1;

		if (*w->env->stop) {
			err = -EINTR;
			break;
		}
		err = rmtree_entry(w, dirfd(d), type, name, depth);
		off += strlen(name) + 2;
	}
	free(names.buf);
	if (!err && depth == 0)
		w->out->left = rmtree_count_left(d);
	return err;
}

static int rmtree_dir(struct rmtree_walk *w, int parentfd, const char *name,
		      unsigned int depth)
{
	size_t saved = w->path_len;
	uint64_t t0;
	DIR *d;
	int fd, n, err;

	if (depth > RMTREE_MAX_DEPTH) {
		log_error("%s: %s/%s: more than %d directory levels", w->label,
			  w->path, name, RMTREE_MAX_DEPTH);
		return -ELOOP;
	}
	t0 = clock_mono_ns();
	fd = openat(parentfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |
			    O_CLOEXEC);
	if (fd < 0)
		return rmtree_fail(w, "open directory", name);
	op_record(w->pc, OP_OPEN, t0);
	work_add(w->pc, 0, 1, 0);
	d = fdopendir(fd);
	if (!d) {
		err = rmtree_fail(w, "fdopendir", name);
		close(fd);
		return err;
	}
	n = snprintf(w->path + saved, sizeof(w->path) - saved, "/%s", name);
	if (n < 0 || (size_t)n >= sizeof(w->path) - saved) {
		closedir(d);
		log_error("%s: path below %s is too long", w->label, w->path);
		return -ENAMETOOLONG;
	}
	w->path_len += (size_t)n;
	err = rmtree_contents(w, d, depth);
	closedir(d);
	w->path_len = saved;
	w->path[saved] = '\0';
	if (err)
		return err;
	if (depth == 0 && w->out->left) {
		log_error(
			"%s: %s/%s still holds %llu entries after removing its contents",
			w->label, w->path, name,
			(unsigned long long)w->out->left);
		return -ENOTEMPTY;
	}
	t0 = clock_mono_ns();
	if (unlinkat(parentfd, name, AT_REMOVEDIR))
		return rmtree_fail(w, "rmdir", name);
	op_record(w->pc, OP_RMDIR, t0);
	work_add(w->pc, 0, 1, 0);
	w->out->dirs++;
	return 0;
}

int rmtree_at(const struct workload_env *env, struct phase_ctx *pc, int dirfd,
	      const char *name, const char *label, struct rmtree_result *out)
{
	struct rmtree_walk *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	w->env = env;
	w->pc = pc;
	w->label = label;
	w->out = out;
	w->path_len =
		(size_t)snprintf(w->path, sizeof(w->path), "%s", env->dir);
	if (w->path_len >= sizeof(w->path))
		w->path_len = sizeof(w->path) - 1;
	err = rmtree_dir(w, dirfd, name, 0);
	free(w);
	return err;
}

int rmtree_phase(const struct workload_env *env, struct phase_ctx *pc,
		 const char *subdir, const char *label)
{
	struct rmtree_result rm = { 0 };
	char name[METRIC_NAME_LEN];
	uint64_t t0;
	int dirfd, err;

	dirfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		err = -errno;
		log_error("%s: open %s: %s", label, env->dir,
			  strerror_safe(-err));
		return err;
	}
	progress_total(pc->progress, param_num(env->params, "files"),
		       PROGRESS_FILES);
	err = rmtree_at(env, pc, dirfd, subdir, label, &rm);
	snprintf(name, sizeof(name), "%s.files_removed", label);
	metric_add(&pc->result->metrics, name, rm.files);
	snprintf(name, sizeof(name), "%s.files_left", label);
	metric_add(&pc->result->metrics, name, rm.left);
	if (!err) {
		t0 = clock_mono_ns();
		if (syncfs(dirfd)) {
			err = -errno;
			log_error("%s: syncfs %s: %s", label, env->dir,
				  strerror_safe(-err));
		}
		op_record(pc, OP_SYNC, t0);
		work_add(pc, 0, 1, 0);
	}
	close(dirfd);
	return err;
}
