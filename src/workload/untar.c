// SPDX-License-Identifier: GPL-2.0
/*
 * untar: extract a source tree, then sync; rm -rf it, then sync. Four
 * phases keep both timings and what the kernel did in each visible:
 * extract (the writes, no flush), ex-sync (syncfs), remove (rm -rf, no
 * flush), rm-sync (syncfs). extract + ex-sync is the classic "untar then
 * sync" figure. The archive is a tarball the user names (decoded into memory
 * by setup, so decompression is never timed) or the seeded synthetic tree.
 *
 * After ex-sync, untimed (the remove phase's prepare step), the extracted
 * tree is walked without touching atimes and compared with the archive's
 * manifest, and with verify_dir when given; any difference fails the run.
 */
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
#include "workload/extract.h"
#include "workload/memtar.h"
#include "workload/rmtree.h"
#include "workload/synthtree.h"
#include "workload/treesum.h"
#include "workload/workload.h"

#define UNTAR_DIR "untar"

static const struct param_def untar_params[] = {
	{ "tarball", PARAM_STRING, "", "",
	  ".tar, .tar.gz or .tar.xz to extract; empty: the synthetic tree" },
	{ "preset", PARAM_STRING, "linux-2.6.33", "linux-6.1",
	  "synthetic tree: small (3,000 files), linux-2.6.33, linux-6.1" },
	{ "files", PARAM_STRING, "preset", "preset",
	  "synthetic tree: regular files, the rest in the kernel's proportions" },
	{ "seed", PARAM_COUNT, "1", "1",
	  "synthetic tree: the generator's seed" },
	{ "verify", PARAM_BOOL, "yes", "yes",
	  "compare the extracted tree with the archive after ex-sync (untimed)" },
	{ "verify_dir", PARAM_STRING, "", "",
	  "also compare it with this directory (GNU tar's extraction, say)" },
};

struct untar_state {
	struct memtar archive;
	struct tree_list manifest_list;
	struct tree_sum manifest;
	struct tree_sum extracted; /* by the walk after ex-sync */
	bool walked;
};

static int untar_spec(const struct workload_params *params,
		      struct synth_spec *spec)
{
	const char *preset = param_str(params, "preset");
	const char *files = param_str(params, "files");
	unsigned long long n;
	char *end;

	if (synth_preset(preset, spec)) {
		log_error("untar: preset=%s is not one of %s", preset,
			  synth_preset_names());
		return -EINVAL;
	}
	if (strcmp(files, "preset")) {
		errno = 0;
		n = strtoull(files, &end, 10);
		if (!*files || *end || errno || files[0] == '-' || !n) {
			log_error(
				"untar: files=%s is neither 'preset' nor a positive whole number",
				files);
			return -EINVAL;
		}
		synth_spec_scale(spec, n);
	}
	spec->seed = param_num(params, "seed");
	return 0;
}

static int untar_load(const struct workload_env *env, struct untar_state *s)
{
	const char *tarball = param_str(env->params, "tarball");
	struct synth_spec spec;
	char err[PATH_MAX + 512];
	int rc;

	if (tarball[0]) {
		rc = memtar_load(tarball, &s->archive, err, sizeof(err));
		if (rc)
			log_error("untar: %s", err);
		return rc;
	}
	rc = untar_spec(env->params, &spec);
	if (rc)
		return rc;
	rc = synth_build(&spec, &s->archive);
	if (rc)
		log_error("untar: cannot build the synthetic tree (%s): %s",
			  spec.top, strerror_safe(-rc));
	return rc;
}

static void untar_cleanup(struct workload_env *env)
{
	struct untar_state *s = env->state;

	if (!s)
		return;
	memtar_free(&s->archive);
	tree_list_free(&s->manifest_list);
	free(s);
	env->state = NULL;
}

/* untimed: the archive into memory, and its manifest */
static int untar_setup(struct workload_env *env)
{
	struct untar_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->state = s;
	err = untar_load(env, s);
	if (!err)
		err = tree_list_from_memtar(&s->archive, &s->manifest_list);
	if (err) {
		untar_cleanup(env);
		return err;
	}
	tree_sum_compute(&s->manifest_list, &s->manifest);
	log_info(
		"untar: %llu files, %llu directories, %llu symlinks, %llu bytes in memory (checksum %012llx)",
		(unsigned long long)s->manifest.files,
		(unsigned long long)s->manifest.dirs,
		(unsigned long long)s->manifest.symlinks,
		(unsigned long long)s->manifest.bytes,
		(unsigned long long)s->manifest.checksum);
	return 0;
}

static int untar_fail(const struct workload_env *env, const char *what)
{
	int err = errno;

	log_error("untar: %s %s/%s: %s", what, env->dir, UNTAR_DIR,
		  strerror_safe(err));
	return -err;
}

static void untar_record_manifest(struct phase_ctx *pc,
				  const struct tree_sum *m)
{
	struct metric_set *ms = &pc->result->metrics;

	metric_add(ms, "untar.manifest_files", m->files);
	metric_add(ms, "untar.manifest_dirs", m->dirs);
	metric_add(ms, "untar.manifest_symlinks", m->symlinks);
	metric_add(ms, "untar.manifest_bytes", m->bytes);
	metric_add(ms, "untar.manifest_checksum", m->checksum);
}

static int untar_extract_all(const struct workload_env *env,
			     struct phase_ctx *pc, int rootfd)
{
	const struct untar_state *s = env->state;
	char label[PATH_MAX];
	struct extractor *x;
	size_t i;
	int err = 0;

	snprintf(label, sizeof(label), "%s/%s", env->dir, UNTAR_DIR);
	x = extractor_new(rootfd, label, pc);
	if (!x)
		return -ENOMEM;
	for (i = 0; !err && i < s->archive.n; i++) {
		if (*env->stop) {
			err = -EINTR;
			break;
		}
		err = extractor_put(x, &s->archive, &s->archive.v[i]);
	}
	if (!err)
		err = extractor_finish(x, &s->archive);
	extractor_free(x);
	return err;
}

static int untar_extract(const struct workload_env *env, struct phase_ctx *pc)
{
	const struct untar_state *s = env->state;
	int topfd, rootfd = -1, err = 0;
	mode_t old_umask;
	uint64_t t0;

	untar_record_manifest(pc, &s->manifest);
	progress_total(pc->progress, s->manifest.bytes, PROGRESS_BYTES);
	topfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (topfd < 0)
		return untar_fail(env, "open");
	/* modes exactly as archived, as tar does when run as root */
	old_umask = umask(0);
	t0 = clock_mono_ns();
	if (mkdirat(topfd, UNTAR_DIR, 0755))
		err = untar_fail(env, "mkdir");
	op_record(pc, OP_MKDIR, t0);
	work_add(pc, 0, 1, 0);
	if (!err) {
		rootfd =
			openat(topfd, UNTAR_DIR,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (rootfd < 0)
			err = untar_fail(env, "open");
	}
	if (!err)
		err = untar_extract_all(env, pc, rootfd);
	umask(old_umask);
	if (rootfd >= 0)
		close(rootfd);
	close(topfd);
	return err;
}

static int untar_syncfs(const struct workload_env *env, struct phase_ctx *pc)
{
	uint64_t t0;
	int fd, err = 0;

	fd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return untar_fail(env, "open");
	t0 = clock_mono_ns();
	if (syncfs(fd))
		err = untar_fail(env, "syncfs");
	op_record(pc, OP_SYNC, t0);
	work_add(pc, 0, 1, 0);
	close(fd);
	return err;
}

/* the extracted tree against another list; the first difference fails */
static int untar_compare(const struct tree_list *got,
			 const struct tree_list *want, unsigned int flags,
			 const char *want_name)
{
	char why[PATH_MAX + 256];

	if (!tree_list_diff(got, want, flags, why, sizeof(why)))
		return 0;
	log_error(
		"untar: the extracted tree differs from %s: %s (here = extracted)",
		want_name, why);
	return -EIO;
}

static int untar_verify_dir(const struct tree_list *got, const char *dir)
{
	struct tree_list want;
	int fd, err;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		log_error("untar: verify_dir=%s: %s", dir, strerror_safe(-err));
		return err;
	}
	err = tree_list_walk(fd, dir, &want);
	close(fd);
	if (err)
		return err;
	err = untar_compare(got, &want, TREE_CMP_DIRS | TREE_CMP_MTIME, dir);
	tree_list_free(&want);
	return err;
}

/* untimed, after ex-sync: what is on disk is what the archive holds */
static int untar_verify(const struct workload_env *env)
{
	struct untar_state *s = env->state;
	const char *verify_dir = param_str(env->params, "verify_dir");
	char label[PATH_MAX];
	struct tree_list got;
	int fd, err;

	if (!param_num(env->params, "verify") && !verify_dir[0])
		return 0;
	snprintf(label, sizeof(label), "%s/%s", env->dir, UNTAR_DIR);
	/* O_NOATIME: reading the tree must not dirty it */
	fd = open(label,
		  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC);
	if (fd < 0)
		return untar_fail(env, "open");
	err = tree_list_walk(fd, label, &got);
	close(fd);
	if (err)
		return err;
	tree_sum_compute(&got, &s->extracted);
	s->walked = true;
	if (param_num(env->params, "verify") &&
	    (s->extracted.checksum != s->manifest.checksum ||
	     s->extracted.dirs < s->manifest.dirs)) {
		err = untar_compare(&got, &s->manifest_list, 0, "the archive");
		if (!err) {
			log_error(
				"untar: the extracted tree's checksum %012llx (%llu directories) differs from the archive's %012llx (%llu)",
				(unsigned long long)s->extracted.checksum,
				(unsigned long long)s->extracted.dirs,
				(unsigned long long)s->manifest.checksum,
				(unsigned long long)s->manifest.dirs);
			err = -EIO;
		}
	}
	if (!err && verify_dir[0])
		err = untar_verify_dir(&got, verify_dir);
	tree_list_free(&got);
	return err;
}

static int untar_remove(const struct workload_env *env, struct phase_ctx *pc)
{
	const struct untar_state *s = env->state;
	struct metric_set *ms = &pc->result->metrics;
	struct rmtree_result rm;
	int dirfd, err;

	if (s->walked) {
		metric_add(ms, "untar.extracted_files", s->extracted.files);
		metric_add(ms, "untar.extracted_dirs", s->extracted.dirs);
		metric_add(ms, "untar.extracted_symlinks",
			   s->extracted.symlinks);
		metric_add(ms, "untar.extracted_bytes", s->extracted.bytes);
		metric_add(ms, "untar.extracted_checksum",
			   s->extracted.checksum);
	}
	dirfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return untar_fail(env, "open");
	progress_total(pc->progress, s->manifest.files + s->manifest.symlinks,
		       PROGRESS_FILES);
	err = rmtree_at(env, pc, dirfd, UNTAR_DIR, "untar", &rm);
	metric_add(ms, "untar.files_removed", rm.files);
	metric_add(ms, "untar.dirs_removed", rm.dirs);
	metric_add(ms, "untar.files_left", rm.left);
	close(dirfd);
	return err;
}

/* what the tree holds: from the tarball (a decode pass) or the preset */
static int untar_extent(const struct workload_params *params,
			struct memtar_extent *ext)
{
	const char *tarball = param_str(params, "tarball");
	char err[PATH_MAX + 512];
	struct synth_spec spec;

	memset(ext, 0, sizeof(*ext));
	if (tarball[0])
		/* without keeping the data; setup reports an error */
		return memtar_measure(tarball, ext, err, sizeof(err));
	if (untar_spec(params, &spec))
		return -EINVAL;
	ext->files = spec.files;
	ext->dirs = spec.dirs;
	ext->symlinks = spec.symlinks;
	ext->bytes = spec.bytes;
	return 0;
}

static uint64_t untar_space_needed(const struct workload_params *params)
{
	struct memtar_extent ext;

	if (untar_extent(params, &ext))
		return 0;
	/* data, and a partial block per file and a block per directory */
	return ext.bytes + (ext.files + ext.dirs) * 4096;
}

static uint64_t untar_files_needed(const struct workload_params *params)
{
	struct memtar_extent ext;

	if (untar_extent(params, &ext))
		return 0;
	return ext.files + ext.dirs + ext.symlinks;
}

/* a tarball that cannot be read, or holds an unsafe member, is refused now */
static int untar_check(const struct workload_params *params)
{
	const char *tarball = param_str(params, "tarball");
	struct memtar_extent ext;
	char err[PATH_MAX + 512];
	struct synth_spec spec;

	if (!tarball[0])
		return untar_spec(params, &spec);
	if (memtar_measure(tarball, &ext, err, sizeof(err))) {
		log_error("-w untar: tarball=%s", err);
		return -EINVAL;
	}
	return 0;
}

static const struct phase_def untar_phases[] = {
	{ "extract", "warm", "none", NULL, untar_extract },
	{ "ex-sync", "warm", "syncfs", NULL, untar_syncfs },
	{ "remove", "warm", "none", untar_verify, untar_remove },
	{ "rm-sync", "warm", "syncfs", NULL, untar_syncfs },
};

const struct workload_def untar_workload = {
	.name = "untar",
	.description =
		"kernel tree untar: extract, syncfs, rm -rf, syncfs (a tarball decoded in memory, or a seeded synthetic tree)",
	.params = untar_params,
	.n_params = sizeof(untar_params) / sizeof(untar_params[0]),
	.phases = untar_phases,
	.n_phases = sizeof(untar_phases) / sizeof(untar_phases[0]),
	.check = untar_check,
	.setup = untar_setup,
	.cleanup = untar_cleanup,
	.space_needed = untar_space_needed,
	.files_needed = untar_files_needed,
};
