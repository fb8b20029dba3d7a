// SPDX-License-Identifier: GPL-2.0
/*
 * afd, many processes copying small files (an AFD-style file distributor):
 * P producer processes write small files into input directories, C copier
 * processes pick them up (readdir), copy each into one of K output
 * directories (read + write a new file, optional fsync) and unlink the
 * source, and a sink process deletes what was delivered.
 *
 * Files appear atomically, as AFD's default "lock DOT" delivery does: they are
 * written under a dot name and renamed when complete, and readers skip dot
 * names. Producers pause while `backlog` files wait to be copied, copiers
 * while `backlog` wait for the sink, which bounds the space in use.
 *
 * Processes report through shared-memory counters; the phase body samples
 * them every interval ("files bytes => files/s MiB/s" lines and the phase's
 * intervals), waits for every process, then syncfs()s inside the timing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/parse.h"
#include "util/write_full.h"
#include "util/progress.h"
#include "workload/workers.h"
#include "workload/workload.h"

#define AFD_TOP "afd"
#define AFD_MAX_PRODUCERS 64
#define AFD_MAX_COPIERS 64
#define AFD_MAX_OUTDIRS 1024
#define AFD_MAX_FILESIZE (16ULL << 20)
#define AFD_IDLE_NS 500000ULL /* nap of a process with nothing to do */
#define AFD_MIN_INTERVAL_NS 10000000ULL

static const struct param_def afd_params[] = {
	{ "producers", PARAM_COUNT, "4", "4", "processes writing files" },
	{ "copiers", PARAM_COUNT, "4", "4", "processes copying them" },
	{ "outdirs", PARAM_COUNT, "8", "8", "output directories" },
	{ "files", PARAM_COUNT, "50000", "1000000",
	  "files to produce (an upper bound when duration is set)" },
	{ "duration", PARAM_STRING, "0", "0",
	  "stop producing after this long, e.g. 30s (0: files= only)" },
	{ "filesize", PARAM_SIZE, "4k", "4k", "bytes per file" },
	{ "fsync", PARAM_BOOL, "0", "0", "copiers fsync each copy" },
	{ "interval", PARAM_STRING, "1s", "1s", "reporting interval" },
	{ "backlog", PARAM_COUNT, "2000", "2000",
	  "files waiting to be copied (or deleted) before writers pause" },
};

/* the counters every process updates, in the shared mapping */
struct afd_counters {
	uint64_t tickets; /* file numbers handed out to producers */
	uint64_t produced, produced_bytes;
	uint64_t copied, copied_bytes;
	uint64_t delivered; /* deleted by the sink */
	uint32_t producers_done, copiers_done;
};

struct afd_config {
	unsigned int producers, copiers, outdirs, indirs;
	uint64_t files, filesize, backlog;
	uint64_t duration_ns, interval_ns;
	bool fsync;
};

struct afd_state {
	struct afd_config cfg;
	char top[PATH_MAX - 32]; /* room for "/out.NNNN" in a PATH_MAX */
};

/* what every worker process gets (a copy, through fork) */
struct afd_job {
	const struct workload_env *env;
	const struct afd_state *st;
	struct afd_counters *cnt;
	uint64_t deadline_ns; /* 0: none */
};

/* the phase body's view while it waits: the interval lines */
struct afd_monitor {
	struct phase_ctx *pc;
	struct afd_counters *cnt;
	uint64_t start_ns, last_t, last_files, last_bytes;
	bool print;
};

static uint64_t cnt_load(const uint64_t *v)
{
	return __atomic_load_n(v, __ATOMIC_ACQUIRE);
}

static void cnt_add(uint64_t *v, uint64_t n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELEASE);
}

static void nap(uint64_t ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ns };

	nanosleep(&ts, NULL);
}

/* "1s", "500ms", "2m", "1.5" (seconds: a bare number); 0 is off */
static int afd_parse_duration(const char *key, const char *text, uint64_t *ns)
{
	char with_unit[64], why[256];

	*ns = 0;
	if (!strcmp(text, "0"))
		return 0;
	snprintf(with_unit, sizeof(with_unit), "%s", text);
	if (text[0] && strspn(text, "0123456789.") == strlen(text) &&
	    strlen(text) + 2 <= sizeof(with_unit))
		strcat(with_unit, "s");
	if (parse_duration(with_unit, ns, why, sizeof(why))) {
		log_error("afd: %s=%s is not a duration (e.g. 1s, 500ms, 2m)",
			  key, text);
		return -EINVAL;
	}
	return 0;
}

static int afd_config_read(const struct workload_params *p,
			   struct afd_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->producers = (unsigned int)param_num(p, "producers");
	cfg->copiers = (unsigned int)param_num(p, "copiers");
	cfg->outdirs = (unsigned int)param_num(p, "outdirs");
	cfg->files = param_num(p, "files");
	cfg->filesize = param_num(p, "filesize");
	cfg->backlog = param_num(p, "backlog");
	cfg->fsync = param_num(p, "fsync") != 0;
	if (param_num(p, "producers") > AFD_MAX_PRODUCERS ||
	    param_num(p, "copiers") > AFD_MAX_COPIERS ||
	    param_num(p, "outdirs") > AFD_MAX_OUTDIRS) {
		log_error(
			"afd: at most %u producers, %u copiers and %u outdirs",
			AFD_MAX_PRODUCERS, AFD_MAX_COPIERS, AFD_MAX_OUTDIRS);
		return -EINVAL;
	}
	if (cfg->filesize > AFD_MAX_FILESIZE) {
		log_error("afd: filesize=%llu is larger than 16 MiB",
			  (unsigned long long)cfg->filesize);
		return -EINVAL;
	}
	/* one producer and one copier per input directory */
	cfg->indirs = cfg->producers > cfg->copiers ? cfg->producers :
						      cfg->copiers;
	if (afd_parse_duration("duration", param_str(p, "duration"),
			       &cfg->duration_ns) ||
	    afd_parse_duration("interval", param_str(p, "interval"),
			       &cfg->interval_ns))
		return -EINVAL;
	if (cfg->interval_ns < AFD_MIN_INTERVAL_NS) {
		log_error("afd: interval=%s is shorter than 10ms",
			  param_str(p, "interval"));
		return -EINVAL;
	}
	return 0;
}

static int afd_fail(const char *what, const char *dir, const char *name)
{
	int err = errno;

	log_error("afd: %s %s/%s: %s", what, dir, name, strerror_safe(err));
	return -err;
}

static void afd_dir_path(const struct afd_state *st, bool input, unsigned int i,
			 char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.%03u", st->top, input ? "in" : "out", i);
}

static int afd_open_dir(const struct afd_state *st, bool input, unsigned int i)
{
	char path[PATH_MAX];
	int fd;

	afd_dir_path(st, input, i, path, sizeof(path));
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return afd_fail("open", path, "");
	return fd;
}

/* write a complete file under ".name", then rename it to name */
static int afd_deliver(int dirfd, const char *dirname, const char *name,
		       const char *data, size_t len, bool do_fsync,
		       struct worker_slot *slot)
{
	char tmp[NAME_MAX + 1];
	uint64_t t0 = clock_mono_ns();
	int fd, err;

	snprintf(tmp, sizeof(tmp), ".%s", name);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return afd_fail("create", dirname, tmp);
	worker_op_record(slot, OP_CREATE, t0);
	t0 = clock_mono_ns();
	err = write_full(fd, data, len, NULL);
	if (err) {
		errno = -err;
		close(fd);
		return afd_fail("write", dirname, tmp);
	}
	worker_op_record(slot, OP_WRITE, t0);
	if (do_fsync) {
		t0 = clock_mono_ns();
		if (fsync(fd)) {
			err = afd_fail("fsync", dirname, tmp);
			close(fd);
			return err;
		}
		worker_op_record(slot, OP_FSYNC, t0);
	}
	t0 = clock_mono_ns();
	if (close(fd))
		return afd_fail("close", dirname, tmp);
	worker_op_record(slot, OP_CLOSE, t0);
	t0 = clock_mono_ns();
	if (renameat(dirfd, tmp, dirfd, name))
		return afd_fail("rename", dirname, tmp);
	worker_op_record(slot, OP_RENAME, t0);
	return 0;
}

/* wait while *ahead - *behind >= limit; false when told to stop */
static bool afd_wait_backlog(const struct afd_job *job, const uint64_t *ahead,
			     const uint64_t *behind)
{
	while (cnt_load(ahead) - cnt_load(behind) >= job->st->cfg.backlog) {
		if (*job->env->stop)
			return false;
		nap(AFD_IDLE_NS);
	}
	return true;
}

struct afd_dirs {
	unsigned int n;
	int fd[AFD_MAX_OUTDIRS];
	unsigned int index[AFD_MAX_OUTDIRS];
};

/* input directories i with i % of == me, or every output directory */
static int afd_dirs_open(const struct afd_state *st, bool input,
			 unsigned int me, unsigned int of, struct afd_dirs *d)
{
	unsigned int total = input ? st->cfg.indirs : st->cfg.outdirs, i;
	int fd;

	d->n = 0;
	for (i = 0; i < total; i++) {
		if (input && i % of != me)
			continue;
		fd = afd_open_dir(st, input, i);
		if (fd < 0)
			return fd;
		d->index[d->n] = i;
		d->fd[d->n++] = fd;
	}
	return d->n ? 0 : -EINVAL;
}

static void afd_dirs_close(struct afd_dirs *d)
{
	while (d->n)
		close(d->fd[--d->n]);
}

static int afd_produce(const struct afd_job *job, struct worker_slot *slot,
		       const struct afd_dirs *dirs, const char *data)
{
	const struct afd_config *cfg = &job->st->cfg;
	struct afd_counters *cnt = job->cnt;
	char name[32], dirname[PATH_MAX];
	unsigned int turn = 0;
	uint64_t t;
	int err;

	for (;;) {
		if (!afd_wait_backlog(job, &cnt->produced, &cnt->copied))
			return -EINTR;
		if (job->deadline_ns && clock_mono_ns() >= job->deadline_ns)
			return 0;
		t = __atomic_fetch_add(&cnt->tickets, 1, __ATOMIC_RELAXED);
		if (t >= cfg->files)
			return 0;
		snprintf(name, sizeof(name), "f%010llu", (unsigned long long)t);
		afd_dir_path(job->st, true, dirs->index[turn], dirname,
			     sizeof(dirname));
		err = afd_deliver(dirs->fd[turn], dirname, name, data,
				  (size_t)cfg->filesize, false, slot);
		if (err)
			return err;
		cnt_add(&cnt->produced_bytes, cfg->filesize);
		cnt_add(&cnt->produced, 1);
		turn = (turn + 1) % dirs->n;
	}
}

/* a producer process: files into its input directories, round robin */
static int afd_producer_main(void *arg, unsigned int index,
			     struct worker_slot *slot)
{
	struct afd_job *job = arg;
	const struct afd_config *cfg = &job->st->cfg;
	unsigned int me = index - 1 - cfg->copiers; /* see afd_spawn_all */
	struct afd_dirs dirs = { 0 };
	char *data;
	int err;

	data = malloc(cfg->filesize ? cfg->filesize : 1);
	err = data ? afd_dirs_open(job->st, true, me, cfg->producers, &dirs) :
		     -ENOMEM;
	if (!err) {
		/* not zeros: nothing below us may treat the data as sparse */
		memset(data, 'a' + (int)(me % 26), cfg->filesize);
		err = afd_produce(job, slot, &dirs, data);
	}
	afd_dirs_close(&dirs);
	free(data);
	__atomic_fetch_add(&job->cnt->producers_done, 1, __ATOMIC_RELEASE);
	return err;
}

/* copy in/name to out/name, then unlink the source */
static int afd_copy_one(const struct afd_job *job, int infd, const char *indir,
			const char *name, int outfd, const char *outdir,
			char *buf, size_t buflen, struct worker_slot *slot)
{
	uint64_t t0 = clock_mono_ns();
	size_t len = 0;
	ssize_t n;
	int fd, err;

	fd = openat(infd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return afd_fail("open", indir, name);
	worker_op_record(slot, OP_OPEN, t0);
	for (;;) {
		t0 = clock_mono_ns();
		n = read(fd, buf + len, buflen - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = afd_fail("read", indir, name);
			close(fd);
			return err;
		}
		worker_op_record(slot, OP_READ, t0);
		if (n == 0 || (len += (size_t)n) == buflen)
			break;
	}
	t0 = clock_mono_ns();
	close(fd);
	worker_op_record(slot, OP_CLOSE, t0);
	err = afd_deliver(outfd, outdir, name, buf, len, job->st->cfg.fsync,
			  slot);
	if (err)
		return err;
	t0 = clock_mono_ns();
	if (unlinkat(infd, name, 0))
		return afd_fail("unlink", indir, name);
	worker_op_record(slot, OP_UNLINK, t0);
	cnt_add(&job->cnt->copied_bytes, len);
	cnt_add(&job->cnt->copied, 1);
	return 0;
}

struct afd_copier {
	struct afd_dirs in, out;
	DIR *dir[AFD_MAX_COPIERS + AFD_MAX_PRODUCERS];
	char *buf;
	size_t buflen;
	unsigned int next_out;
};

/* one readdir pass over an input directory; returns files copied */
static int afd_copy_pass(const struct afd_job *job, struct afd_copier *cp,
			 unsigned int i, struct worker_slot *slot)
{
	char indir[PATH_MAX], outdir[PATH_MAX];
	struct dirent *de;
	int copied = 0, err;
	uint64_t t0;

	afd_dir_path(job->st, true, cp->in.index[i], indir, sizeof(indir));
	rewinddir(cp->dir[i]);
	for (;;) {
		unsigned int k = cp->next_out;

		if (*job->env->stop)
			return -EINTR;
		t0 = clock_mono_ns();
		errno = 0;
		de = readdir(cp->dir[i]);
		if (!de) {
			if (errno)
				return afd_fail("readdir", indir, "");
			break;
		}
		worker_op_record(slot, OP_READDIR, t0);
		if (de->d_name[0] == '.')
			continue;
		if (!afd_wait_backlog(job, &job->cnt->copied,
				      &job->cnt->delivered))
			return -EINTR;
		afd_dir_path(job->st, false, cp->out.index[k], outdir,
			     sizeof(outdir));
		err = afd_copy_one(job, cp->in.fd[i], indir, de->d_name,
				   cp->out.fd[k], outdir, cp->buf, cp->buflen,
				   slot);
		if (err)
			return err;
		cp->next_out = (k + 1) % cp->out.n;
		copied++;
	}
	return copied;
}

static int afd_copy_loop(const struct afd_job *job, struct afd_copier *cp,
			 struct worker_slot *slot)
{
	const struct afd_config *cfg = &job->st->cfg;

	for (;;) {
		/* read before the pass: an empty pass after it means done */
		bool producers_done = __atomic_load_n(&job->cnt->producers_done,
						      __ATOMIC_ACQUIRE) ==
				      cfg->producers;
		int found = 0, n;
		unsigned int i;

		for (i = 0; i < cp->in.n; i++) {
			n = afd_copy_pass(job, cp, i, slot);
			if (n < 0)
				return n;
			found += n;
		}
		if (!found && producers_done)
			return 0;
		if (!found)
			nap(AFD_IDLE_NS);
	}
}

/* a copier process: its input directories to every output directory */
static int afd_copier_main(void *arg, unsigned int index,
			   struct worker_slot *slot)
{
	struct afd_job *job = arg;
	const struct afd_config *cfg = &job->st->cfg;
	unsigned int me = index - 1; /* see afd_spawn_all */
	struct afd_copier cp = { .next_out = me % cfg->outdirs };
	unsigned int i;
	int err;

	cp.buflen = (size_t)cfg->filesize + 1; /* + 1: see a grown file */
	cp.buf = malloc(cp.buflen);
	err = cp.buf ? afd_dirs_open(job->st, true, me, cfg->copiers, &cp.in) :
		       -ENOMEM;
	if (!err)
		err = afd_dirs_open(job->st, false, 0, 1, &cp.out);
	for (i = 0; !err && i < cp.in.n; i++) {
		int fd = dup(cp.in.fd[i]);

		cp.dir[i] = fd >= 0 ? fdopendir(fd) : NULL;
		if (!cp.dir[i]) {
			err = afd_fail("opendir", job->st->top, "in");
			if (fd >= 0)
				close(fd);
		}
	}
	if (!err)
		err = afd_copy_loop(job, &cp, slot);
	for (i = 0; i < cp.in.n; i++)
		if (cp.dir[i])
			closedir(cp.dir[i]);
	afd_dirs_close(&cp.in);
	afd_dirs_close(&cp.out);
	free(cp.buf);
	__atomic_fetch_add(&job->cnt->copiers_done, 1, __ATOMIC_RELEASE);
	return err;
}

/* one pass of the sink over the output directories; files deleted */
static int afd_sink_pass(const struct afd_job *job, struct afd_dirs *out,
			 DIR **dir, struct worker_slot *slot)
{
	char outdir[PATH_MAX];
	struct dirent *de;
	unsigned int i;
	int deleted = 0;
	uint64_t t0;

	for (i = 0; i < out->n; i++) {
		afd_dir_path(job->st, false, out->index[i], outdir,
			     sizeof(outdir));
		rewinddir(dir[i]);
		for (;;) {
			if (*job->env->stop)
				return -EINTR;
			t0 = clock_mono_ns();
			errno = 0;
			de = readdir(dir[i]);
			if (!de) {
				if (errno)
					return afd_fail("readdir", outdir, "");
				break;
			}
			worker_op_record(slot, OP_READDIR, t0);
			if (de->d_name[0] == '.')
				continue;
			t0 = clock_mono_ns();
			if (unlinkat(out->fd[i], de->d_name, 0))
				return afd_fail("unlink", outdir, de->d_name);
			worker_op_record(slot, OP_UNLINK, t0);
			cnt_add(&job->cnt->delivered, 1);
			deleted++;
		}
	}
	return deleted;
}

/* the sink process: delete what the copiers delivered */
static int afd_sink_main(void *arg, unsigned int index,
			 struct worker_slot *slot)
{
	struct afd_job *job = arg;
	struct afd_dirs out = { 0 };
	unsigned int i;
	DIR **dir;
	int err, n;

	(void)index;
	dir = calloc(AFD_MAX_OUTDIRS, sizeof(*dir));
	err = dir ? afd_dirs_open(job->st, false, 0, 1, &out) : -ENOMEM;
	for (i = 0; !err && i < out.n; i++) {
		int fd = dup(out.fd[i]);

		dir[i] = fd >= 0 ? fdopendir(fd) : NULL;
		if (!dir[i]) {
			err = afd_fail("opendir", job->st->top, "out");
			if (fd >= 0)
				close(fd);
		}
	}
	while (!err) {
		bool copiers_done = __atomic_load_n(&job->cnt->copiers_done,
						    __ATOMIC_ACQUIRE) ==
				    job->st->cfg.copiers;

		n = afd_sink_pass(job, &out, dir, slot);
		if (n < 0)
			err = n;
		else if (!n && copiers_done)
			break;
		else if (!n)
			nap(AFD_IDLE_NS);
	}
	for (i = 0; dir && i < out.n; i++)
		if (dir[i])
			closedir(dir[i]);
	afd_dirs_close(&out);
	free(dir);
	return err;
}

static void afd_print_line(const char *label, uint64_t files, uint64_t bytes,
			   uint64_t ns)
{
	double s = (double)ns / 1e9;

	printf("%-6s%10llu %12llu => %10.2f files/s %8.2f MiB/s\n", label,
	       (unsigned long long)files, (unsigned long long)bytes,
	       s > 0 ? (double)files / s : 0,
	       s > 0 ? (double)bytes / 1048576.0 / s : 0);
	fflush(stdout);
}

/* one interval: what the copiers delivered since the last sample */
static void afd_sample(struct afd_monitor *mon, uint64_t now)
{
	uint64_t files = cnt_load(&mon->cnt->copied);
	uint64_t bytes = cnt_load(&mon->cnt->copied_bytes);
	uint64_t t = now - mon->start_ns;

	interval_add(mon->pc, t, files - mon->last_files,
		     bytes - mon->last_bytes);
	if (mon->print) {
		progress_clear(mon->pc->progress);
		afd_print_line("", files - mon->last_files,
			       bytes - mon->last_bytes, t - mon->last_t);
	}
	mon->last_t = t;
	mon->last_files = files;
	mon->last_bytes = bytes;
	progress_set(mon->pc->progress, files);
}

static void afd_tick(void *arg)
{
	afd_sample(arg, clock_mono_ns());
}

/* files left in any input or output directory (dot files included) */
static int afd_count_leftovers(const struct afd_state *st, uint64_t *left)
{
	unsigned int i, n;
	struct dirent *de;
	DIR *d;

	*left = 0;
	for (i = 0; i < st->cfg.indirs + st->cfg.outdirs; i++) {
		bool input = i < st->cfg.indirs;
		int fd;

		n = input ? i : i - st->cfg.indirs;
		fd = afd_open_dir(st, input, n);
		if (fd < 0)
			return fd;
		d = fdopendir(fd);
		if (!d) {
			close(fd);
			return afd_fail("opendir", st->top, "");
		}
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				(*left)++;
		closedir(d);
	}
	return 0;
}

/* worker 0 is the sink, 1..C the copiers, C+1..C+P the producers */
static int afd_spawn_all(struct workers *w, struct afd_job *job)
{
	const struct afd_config *cfg = &job->st->cfg;
	unsigned int i;
	int err = workers_spawn(w, afd_sink_main, job);

	for (i = 0; !err && i < cfg->copiers; i++)
		err = workers_spawn(w, afd_copier_main, job);
	for (i = 0; !err && i < cfg->producers; i++)
		err = workers_spawn(w, afd_producer_main, job);
	return err;
}

static int afd_record(struct phase_ctx *pc, const struct afd_counters *c,
		      uint64_t leftovers)
{
	struct metric_set *m = &pc->result->metrics;
	uint64_t ops = 0;
	unsigned int i;

	for (i = 0; i < m->n_hists; i++)
		if (!strncmp(m->hists[i].name, "op.", 3))
			ops += m->hists[i].h.count;
	work_add(pc, c->copied_bytes, ops, c->copied);
	if (metric_add(m, "afd.produced", c->produced) ||
	    metric_add(m, "afd.produced_bytes", c->produced_bytes) ||
	    metric_add(m, "afd.copied", c->copied) ||
	    metric_add(m, "afd.copied_bytes", c->copied_bytes) ||
	    metric_add(m, "afd.delivered", c->delivered) ||
	    metric_add(m, "afd.leftover_files", leftovers))
		return -ENOMEM;
	return 0;
}

/* every produced file was copied once and deleted by the sink */
static int afd_check(const struct afd_counters *c, uint64_t leftovers)
{
	if (c->copied != c->produced || c->delivered != c->copied ||
	    leftovers) {
		log_error(
			"afd: produced %llu files, copied %llu, the sink deleted %llu, %llu left in the directories",
			(unsigned long long)c->produced,
			(unsigned long long)c->copied,
			(unsigned long long)c->delivered,
			(unsigned long long)leftovers);
		return -EIO;
	}
	return 0;
}

static int afd_finish(const struct workload_env *env, struct phase_ctx *pc,
		      struct afd_monitor *mon)
{
	const struct afd_state *st = env->state;
	uint64_t t0 = clock_mono_ns(), left = 0;
	int fd, err = 0;

	/* the closing sync is part of the loop time, as fs_mark's */
	fd = open(st->top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd))
		err = afd_fail("syncfs", st->top, "");
	if (fd >= 0)
		close(fd);
	op_record(pc, OP_SYNC, t0);
	afd_sample(mon, clock_mono_ns());
	if (mon->print)
		afd_print_line("total", mon->last_files, mon->last_bytes,
			       clock_mono_ns() - mon->start_ns);
	if (!err)
		err = afd_count_leftovers(st, &left);
	if (!err)
		err = afd_record(pc, mon->cnt, left);
	if (!err)
		err = afd_check(mon->cnt, left);
	return err;
}

/* the one phase: producers, copiers and the sink until all is delivered */
static int afd_distribute(const struct workload_env *env, struct phase_ctx *pc)
{
	const struct afd_state *st = env->state;
	struct afd_job job = { .env = env, .st = st };
	struct afd_monitor mon = { .pc = pc };
	struct workers w;
	int err;

	err = workers_map(&w, 1 + st->cfg.copiers + st->cfg.producers,
			  sizeof(struct afd_counters));
	if (err)
		return err;
	job.cnt = w.shared;
	mon.cnt = w.shared;
	mon.start_ns = pc->result->start_mono_ns;
	mon.print = log_get_level() >= LOG_NORMAL;
	if (st->cfg.duration_ns)
		job.deadline_ns = mon.start_ns + st->cfg.duration_ns;
	progress_total(pc->progress, st->cfg.files, PROGRESS_FILES);
	fflush(NULL); /* nothing buffered for the children to inherit */

	err = afd_spawn_all(&w, &job);
	if (err) {
		/* the others would wait forever for the missing ones */
		workers_release(&w);
		return err;
	}
	err = workers_wait(&w, env->stop, st->cfg.interval_ns, afd_tick, &mon);
	if (!err)
		err = workers_merge_ops(&w, pc);
	if (!err)
		err = afd_finish(env, pc, &mon);
	workers_release(&w);
	return err;
}

static int afd_make_dirs(const struct afd_state *st)
{
	char path[PATH_MAX];
	unsigned int i;

	if (mkdir(st->top, 0755) && errno != EEXIST)
		return afd_fail("mkdir", st->top, "");
	for (i = 0; i < st->cfg.indirs + st->cfg.outdirs; i++) {
		bool input = i < st->cfg.indirs;

		afd_dir_path(st, input, input ? i : i - st->cfg.indirs, path,
			     sizeof(path));
		if (mkdir(path, 0755) && errno != EEXIST)
			return afd_fail("mkdir", path, "");
	}
	return 0;
}

/* untimed: the directories, and every parameter checked */
static int afd_setup(struct workload_env *env)
{
	struct afd_state *st = calloc(1, sizeof(*st));
	int n, err;

	if (!st)
		return -ENOMEM;
	err = afd_config_read(env->params, &st->cfg);
	n = snprintf(st->top, sizeof(st->top), "%s/%s", env->dir, AFD_TOP);
	if (!err && (n < 0 || (size_t)n >= sizeof(st->top)))
		err = -ENAMETOOLONG;
	if (!err)
		err = afd_make_dirs(st);
	if (err) {
		free(st);
		return err;
	}
	env->state = st;
	return 0;
}

static void afd_cleanup(struct workload_env *env)
{
	free(env->state);
	env->state = NULL;
}

/* the backlog of input files and of delivered files, plus those in flight */
/* at most: the backlog in the input and the output directories, in flight */
static uint64_t afd_files_needed(const struct workload_params *params)
{
	return 2 * param_num(params, "backlog") +
	       param_num(params, "producers") +
	       2 * param_num(params, "copiers") + param_num(params, "outdirs") +
	       param_num(params, "producers");
}

static uint64_t afd_space_needed(const struct workload_params *params)
{
	uint64_t per_file =
		(param_num(params, "filesize") + 4095) / 4096 * 4096;

	return afd_files_needed(params) * per_file;
}

static const struct phase_def afd_phases[] = {
	{ "distribute", "warm", "syncfs; fsync per copy if set", NULL,
	  afd_distribute },
};

static int afd_params_check(const struct workload_params *params)
{
	struct afd_config cfg;

	return afd_config_read(params, &cfg);
}

const struct workload_def afd_workload = {
	.name = "afd",
	.description =
		"many processes copying small files: producers -> input dirs -> copiers -> output dirs -> sink",
	.params = afd_params,
	.n_params = sizeof(afd_params) / sizeof(afd_params[0]),
	.phases = afd_phases,
	.n_phases = sizeof(afd_phases) / sizeof(afd_phases[0]),
	.check = afd_params_check,
	.setup = afd_setup,
	.cleanup = afd_cleanup,
	.space_needed = afd_space_needed,
	.files_needed = afd_files_needed,
};
