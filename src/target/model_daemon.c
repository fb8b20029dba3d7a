// SPDX-License-Identifier: GPL-2.0
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/disk.h"
#include "target/model_daemon.h"
#include "util/log.h"
#include "util/runstate.h"

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif

/* the largest request FUSE passes the daemon: the loop's requests whole */
#define MODEL_MAX_IO (1U << 20)
/* how long the daemon may take to mount (a TCG guest is slow) */
#define MODEL_START_TIMEOUT_MS 30000
/* the probe: this many 4 KiB direct reads with the model off */
#define MODEL_PROBE_READS 256
#define MODEL_PROBE_BYTES 4096
#define MODEL_PROBE_WRITES 128
#define MODEL_PROBE_FLUSHES 64
/* how long a stopped daemon has to exit before SIGKILL */
#define MODEL_STOP_TIMEOUT_MS 2000

struct model_ctl {
	/* odd: the model is on; every change resets the disk to cold */
	_Atomic unsigned int generation;
	/* the engine's time outside the handler, and its whole round trip,
	 * by enum disk_op: reads, writes, cache flushes */
	_Atomic uint64_t compensate[3], round_trip[3];
	_Atomic uint64_t requests, reads, writes, flushes;
	_Atomic uint64_t bytes_read, bytes_written;
	_Atomic uint64_t charged, modelled_ns, engine_ns;
	_Atomic uint64_t short_requests, short_excess_ns;
};

/* the daemon's own state (the child's address space only) */
static struct {
	int fd;
	uint64_t size;
	struct disk_model disk;
	pthread_mutex_t lock;
	unsigned int seen;
	struct model_ctl *ctl;
} srv = { .fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER };

static const char disk_path[] = "/disk";

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/*
 * Sleep until t, as near as the scheduler allows: a thread wakes some
 * tens of microseconds late on a busy machine, which a 0.1 ms request
 * cannot absorb, so the daemon wakes that much early. How much: the
 * running mean (1/16 weights) of how late it woke against t.
 */
static _Atomic int64_t wake_late_ns;

static void sleep_late(uint64_t t)
{
	int64_t late = atomic_load(&wake_late_ns), err;
	uint64_t at = late > 0 && (uint64_t)late < t ? t - (uint64_t)late : t;

	if (at > mono_ns())
		sleep_until(at);
	err = (int64_t)mono_ns() - (int64_t)t;
	atomic_store(&wake_late_ns, late + err / 16);
}

/* the model's completion time of a request arriving at t0; 0: model off */
static uint64_t charge(enum disk_op op, uint64_t off, uint64_t len, uint64_t t0)
{
	unsigned int gen = atomic_load(&srv.ctl->generation);
	uint64_t done = 0;

	pthread_mutex_lock(&srv.lock);
	if (gen != srv.seen) {
		disk_model_reset(&srv.disk);
		srv.seen = gen;
	}
	if (gen & 1)
		done = disk_model_submit(&srv.disk, op, off, len, t0);
	/* a request the model does not limit is not charged */
	if (done && done < t0)
		done = t0;
	pthread_mutex_unlock(&srv.lock);
	return done;
}

/* count the request, and wait until the model says it is done */
static void settle(enum disk_op op, uint64_t len, uint64_t t0, uint64_t done)
{
	struct model_ctl *c = srv.ctl;
	uint64_t t1 = mono_ns();
	uint64_t rt = atomic_load(&c->round_trip[op]);
	uint64_t comp = atomic_load(&c->compensate[op]);

	atomic_fetch_add(&c->requests, 1);
	atomic_fetch_add(&c->engine_ns, t1 - t0);
	if (op == DISK_READ) {
		atomic_fetch_add(&c->reads, 1);
		atomic_fetch_add(&c->bytes_read, len);
	} else if (op == DISK_WRITE) {
		atomic_fetch_add(&c->writes, 1);
		atomic_fetch_add(&c->bytes_written, len);
	} else {
		atomic_fetch_add(&c->flushes, 1);
	}
	if (!done)
		return;
	atomic_fetch_add(&c->charged, 1);
	atomic_fetch_add(&c->modelled_ns, done - t0);
	if (rt && done - t0 < rt) {
		atomic_fetch_add(&c->short_requests, 1);
		atomic_fetch_add(&c->short_excess_ns, rt - (done - t0));
	}
	/* the engine's time outside this handler is the disk's time too */
	if (done > comp && done - comp > t1)
		sleep_late(done - comp);
}

static int op_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0700;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, disk_path))
		return -ENOENT;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = (off_t)srv.size;
	st->st_blksize = 4096;
	st->st_blocks = (blkcnt_t)(srv.size / 512);
	return 0;
}

static int op_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOTDIR;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, disk_path + 1, NULL, 0, 0);
	return 0;
}

static int op_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, disk_path))
		return -ENOENT;
	/* no page cache here: the loop above asks for every byte */
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int op_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	uint64_t t0 = mono_ns(), done;
	ssize_t n;

	(void)path;
	(void)fi;
	done = charge(DISK_READ, (uint64_t)off, size, t0);
	n = pread(srv.fd, buf, size, off);
	if (n < 0)
		return -errno;
	settle(DISK_READ, size, t0, done);
	return (int)n;
}

static int op_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	uint64_t t0 = mono_ns(), done;
	ssize_t n;

	(void)path;
	(void)fi;
	if ((uint64_t)off + size > srv.size)
		return -ENOSPC;
	done = charge(DISK_WRITE, (uint64_t)off, size, t0);
	n = pwrite(srv.fd, buf, size, off);
	if (n < 0)
		return -errno;
	settle(DISK_WRITE, size, t0, done);
	return (int)n;
}

/* the lower loop's cache flush: the model's flush, not the host's fsync */
static int op_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	uint64_t t0 = mono_ns(), done;

	(void)path;
	(void)datasync;
	(void)fi;
	done = charge(DISK_FLUSH, 0, 0, t0);
	settle(DISK_FLUSH, 0, t0, done);
	return 0;
}

static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	conn->max_write = MODEL_MAX_IO;
	conn->max_read = MODEL_MAX_IO;
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->attr_timeout = 86400;
	cfg->entry_timeout = 86400;
	return NULL;
}

static const struct fuse_operations model_ops = {
	.getattr = op_getattr,
	.readdir = op_readdir,
	.open = op_open,
	.read = op_read,
	.write = op_write,
	.fsync = op_fsync,
	.init = op_init,
};

/* the daemon: serve until the mount goes; never returns */
static void daemon_main(const char *mnt, const char *image, uint64_t size,
			const struct device_model *m, int ready)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *cfg;
	struct fuse *f;
	pid_t self = getpid();
	char dir[PATH_MAX], *slash;
	int err;

	/* not in fsprof's process group: a Ctrl-C is fsprof's to handle,
	 * and the filesystem above must keep its disk until teardown */
	setsid();
	prctl(PR_SET_NAME, MODEL_DAEMON_COMM);
	/* in the block IO path: no reclaim that would wait on it */
	prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0);
	/* sleeps end when the model says, not 50 us later */
	prctl(PR_SET_TIMERSLACK, 1);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * SIGTERM ends it (the teardown's and fsprof cleanup's stop): forked
	 * after fsprof's handlers went in, it had fsprof's, which only sets a
	 * flag no one here reads - a SIGTERM did nothing but wait for the
	 * SIGKILL 2 s later
	 */
	signal(SIGTERM, SIG_DFL);
	/* in the image's (run) directory: the tests know it by its cwd */
	snprintf(dir, sizeof(dir), "%s", image);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (chdir(dir))
			log_warn("device model: chdir %s: %s", dir,
				 strerror_safe(errno));
	}
	srv.size = size;
	srv.fd = open(image, O_RDWR | O_CLOEXEC);
	if (srv.fd < 0) {
		log_error("device model: open %s: %s", image,
			  strerror_safe(errno));
		_exit(1);
	}
	err = disk_model_init(&srv.disk, m, size);
	if (err) {
		log_error("device model %s: its parameters make no disk",
			  m->name);
		_exit(1);
	}
	if (fuse_opt_add_arg(&args, MODEL_DAEMON_COMM) ||
	    fuse_opt_add_arg(&args, "-o") ||
	    fuse_opt_add_arg(
		    &args,
		    "max_read=1048576,fsname=fsprof-model,subtype=fsprof-model"))
		_exit(1);
	f = fuse_new(&args, &model_ops, sizeof(model_ops), NULL);
	if (!f || fuse_mount(f, mnt)) {
		log_error(
			"device model: cannot serve %s over FUSE at %s (is /dev/fuse there? modprobe fuse)",
			image, mnt);
		_exit(1);
	}
	if (write(ready, &self, sizeof(self)) != sizeof(self))
		_exit(1);
	close(ready);
	cfg = fuse_loop_cfg_create();
	if (cfg) {
		fuse_loop_cfg_set_clone_fd(cfg, 0);
		fuse_loop_cfg_set_max_threads(cfg, 16);
	}
	fuse_loop_mt(f, cfg);
	fuse_unmount(f);
	fuse_destroy(f);
	_exit(0);
}

int model_daemon_available(char *err, size_t errlen)
{
	int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		snprintf(
			err, errlen,
			"the device model's engine needs FUSE: /dev/fuse: %s (load it: modprobe fuse; a container needs --device /dev/fuse)",
			strerror_safe(errno));
		return -ENOTSUP;
	}
	close(fd);
	return 0;
}

static int pidfd_of(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/*
 * The daemon's pid from the ready pipe, up to the start timeout. A stop
 * signal (EINTR) does not end the wait: a daemon still starting would be
 * left to mount and serve after fsprof's teardown, unknown to it. 0 when
 * it said nothing: it exited, or the timeout (*timed_out).
 */
static pid_t ready_wait(int fd, bool *timed_out)
{
	const uint64_t end = mono_ns() + MODEL_START_TIMEOUT_MS * 1000000ULL;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	pid_t pid = 0;
	uint64_t now;
	int n;

	do {
		now = mono_ns();
		n = now < end ? poll(&pfd, 1, (int)((end - now) / 1000000)) : 0;
	} while (n < 0 && errno == EINTR);
	*timed_out = n == 0;
	if (n == 1 && read(fd, &pid, sizeof(pid)) != sizeof(pid))
		pid = 0;
	return pid;
}

/*
 * Double fork: the daemon is no child of fsprof's (no waitpid(-1) of the
 * workloads reaps it), and keeps serving if fsprof is killed until
 * fsprof cleanup has unmounted what sits on it.
 */
static int daemon_spawn(struct model_daemon *md, const struct device_model *m,
			const char *image, uint64_t size)
{
	bool timed_out;
	int p[2], st;
	pid_t mid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	mid = fork();
	if (mid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (!mid) {
		close(p[0]);
		if (fork() == 0) {
			/* nothing of fsprof's open: no BPF link, no lock */
			close_range(3, (unsigned int)p[1] - 1, 0);
			close_range((unsigned int)p[1] + 1, ~0U, 0);
			srv.ctl = md->ctl;
			daemon_main(md->mnt, image, size, m, p[1]);
		}
		_exit(0);
	}
	close(p[1]);
	while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	md->pid = ready_wait(p[0], &timed_out);
	close(p[0]);
	if (!md->pid) {
		log_error(
			"device model: the daemon serving %s did not start (%s)",
			image, timed_out ? "no answer in 30 s" : "it exited");
		return -EIO;
	}
	md->pidfd = pidfd_of(md->pid);
	return 0;
}

static int pidfile_write(const struct model_daemon *md)
{
	unsigned long long start = 0;
	FILE *f;

	if (runstate_proc_start(md->pid, &start))
		return -ESRCH;
	f = fopen(md->pidfile, "we");
	if (!f)
		return -errno;
	fprintf(f, "%d %llu\n", (int)md->pid, start);
	return fclose(f) ? -EIO : 0;
}

static bool daemon_gone(const struct model_daemon *md, int timeout_ms)
{
	struct pollfd pfd = { .fd = md->pidfd, .events = POLLIN };

	if (md->pidfd < 0)
		return kill(md->pid, 0) && errno == ESRCH;
	return poll(&pfd, 1, timeout_ms) == 1;
}

static int daemon_stop(void *arg)
{
	struct model_daemon *md = arg;

	if (md->pid > 0 && !daemon_gone(md, 0)) {
		kill(md->pid, SIGTERM);
		if (!daemon_gone(md, MODEL_STOP_TIMEOUT_MS))
			kill(md->pid, SIGKILL);
	}
	if (md->pidfd >= 0)
		close(md->pidfd);
	md->pidfd = -1;
	md->stopped = true;
	unlink(md->pidfile);
	if (md->ctl)
		munmap(md->ctl, sizeof(*md->ctl));
	md->ctl = NULL;
	return 0;
}

int model_mount_remove(const char *mnt)
{
	/* lazily: a loop (or udev's probe of it) may hold the file a while */
	if (umount2(mnt, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
		return -errno;
	if (rmdir(mnt) && errno != ENOENT)
		return -errno;
	return 0;
}

static int mount_stop(void *arg)
{
	struct model_daemon *md = arg;

	return model_mount_remove(md->mnt);
}

int model_daemon_start(struct model_daemon *md, const struct device_model *m,
		       const char *image, uint64_t size, const char *dir,
		       struct teardown *td)
{
	int rec_pid, rec_mnt, err;

	memset(md, 0, sizeof(*md));
	md->pidfd = -1;
	if (snprintf(md->mnt, sizeof(md->mnt), "%s", dir) >=
		    (int)sizeof(md->mnt) ||
	    snprintf(md->file, sizeof(md->file), "%s%s", dir, disk_path) >=
		    (int)sizeof(md->file) ||
	    snprintf(md->pidfile, sizeof(md->pidfile), "%s.pid", dir) >=
		    (int)sizeof(md->pidfile)) {
		log_error("device model: %s is too long a path", dir);
		return -ENAMETOOLONG;
	}
	md->ctl = mmap(NULL, sizeof(*md->ctl), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (md->ctl == MAP_FAILED) {
		md->ctl = NULL;
		return -ENOMEM;
	}
	/* the daemon's record first: fsprof cleanup undoes in reverse, so
	 * the mount goes before the daemon that serves it */
	rec_pid = teardown_record(td, "model-daemon", md->pidfile);
	if (rec_pid < 0)
		return rec_pid;
	err = teardown_push_recorded(td, rec_pid, daemon_stop, md,
				     "stop the device model's daemon");
	if (err)
		return err;
	rec_mnt = teardown_record(td, "model", md->mnt);
	if (rec_mnt < 0)
		return rec_mnt;
	if (mkdir(md->mnt, 0700)) {
		err = -errno;
		log_error("device model: mkdir %s: %s", md->mnt,
			  strerror_safe(-err));
		return err;
	}
	err = teardown_push_recorded(td, rec_mnt, mount_stop, md,
				     "unmount the device model at %s", md->mnt);
	if (err)
		return err;
	err = daemon_spawn(md, m, image, size);
	if (!err)
		err = pidfile_write(md);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the median: a busy machine's late wakeups do not move it */
static uint64_t median_u64(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* one request of the probe: 0, or -errno */
static int probe_one(int fd, enum disk_op op, void *buf, off_t off)
{
	ssize_t n;

	if (op == DISK_FLUSH)
		return fdatasync(fd) ? -errno : 0;
	n = op == DISK_READ ? pread(fd, buf, MODEL_PROBE_BYTES, off) :
			      pwrite(fd, buf, MODEL_PROBE_BYTES, off);
	return n == MODEL_PROBE_BYTES ? 0 : n < 0 ? -errno : -EIO;
}

/*
 * n requests of op with the model off: the median round trip, and the
 * time outside the daemon's handler taken off every request's wait from
 * now on (the handler's own time is the model's to cover)
 */
static int probe_run(struct model_daemon *md, int fd, enum disk_op op,
		     unsigned int n, void *buf, uint64_t blocks,
		     uint64_t *rt_ns, uint64_t *engine_ns)
{
	static uint64_t rt[MODEL_PROBE_READS];
	static const char *const what[] = { "read", "write", "flush" };
	struct model_ctl *c = md->ctl;
	uint64_t e0 = atomic_load(&c->engine_ns),
		 r0 = atomic_load(&c->requests);
	uint64_t t0;
	unsigned int i, seed = 1;
	int err;

	for (i = 0; i < n; i++) {
		/* writes at the disk's end, where mkfs has not been yet */
		off_t off = (off_t)((op == DISK_WRITE ?
					     blocks - 1 - i % (blocks / 2 + 1) :
					     (uint64_t)rand_r(&seed) % blocks) *
				    MODEL_PROBE_BYTES);

		t0 = mono_ns();
		err = probe_one(fd, op, buf, off);
		if (err) {
			log_error(
				"device model: the engine's probe %s failed: %s",
				what[op], strerror_safe(-err));
			return err;
		}
		rt[i] = mono_ns() - t0;
	}
	if (atomic_load(&c->requests) - r0 < n) {
		log_error(
			"device model: the probe's %ss did not reach the engine",
			what[op]);
		return -EIO;
	}
	*engine_ns = (atomic_load(&c->engine_ns) - e0) / n;
	*rt_ns = median_u64(rt, n);
	return 0;
}

/*
 * The engine's round trip for op with the model off (what no model can
 * go under), and the time outside the daemon's handler: taken off every
 * request's wait from now on
 */
static int probe_op(struct model_daemon *md, int fd, enum disk_op op,
		    unsigned int n, void *buf, uint64_t blocks)
{
	struct model_ctl *c = md->ctl;
	uint64_t rt, engine;
	int err;

	err = probe_run(md, fd, op, n, buf, blocks, &rt, &engine);
	if (err)
		return err;
	md->round_trip[op] = rt;
	atomic_store(&c->round_trip[op], rt);
	atomic_store(&c->compensate[op], rt > engine ? rt - engine : 0);
	return 0;
}

int model_daemon_probe(struct model_daemon *md, const char *dev)
{
	uint64_t blocks;
	void *buf = NULL;
	int fd, err;

	fd = open(dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&buf, 4096, MODEL_PROBE_BYTES)) {
		err = -errno;
		log_error(
			"device model: cannot probe the engine through %s: %s",
			dev, strerror_safe(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	memset(buf, 0, MODEL_PROBE_BYTES);
	blocks = (uint64_t)lseek(fd, 0, SEEK_END) / MODEL_PROBE_BYTES;
	if (!blocks)
		blocks = 1;
	/* a cache flush takes another path: both loops' flush, FUSE fsync */
	err = probe_op(md, fd, DISK_READ, MODEL_PROBE_READS, buf, blocks);
	if (!err)
		err = probe_op(md, fd, DISK_WRITE, MODEL_PROBE_WRITES, buf,
			       blocks);
	if (!err)
		err = probe_op(md, fd, DISK_FLUSH, MODEL_PROBE_FLUSHES, buf,
			       blocks);
	free(buf);
	close(fd);
	return err;
}

static int disengage_undo(void *arg)
{
	model_daemon_disengage(arg);
	return 0;
}

int model_daemon_engage(struct model_daemon *md, struct teardown *td)
{
	unsigned int g = atomic_load(&md->ctl->generation);

	if (!(g & 1))
		atomic_store(&md->ctl->generation, g + 1);
	return teardown_push(td, disengage_undo, md,
			     "turn the device model off");
}

void model_daemon_disengage(struct model_daemon *md)
{
	unsigned int g;

	if (!md->ctl)
		return;
	g = atomic_load(&md->ctl->generation);
	if (g & 1)
		atomic_store(&md->ctl->generation, g + 1);
}

void model_daemon_stats(const struct model_daemon *md, struct model_stats *s)
{
	const struct model_ctl *c = md->ctl;

	memset(s, 0, sizeof(*s));
	if (!c)
		return;
	s->requests = atomic_load(&c->requests);
	s->reads = atomic_load(&c->reads);
	s->writes = atomic_load(&c->writes);
	s->flushes = atomic_load(&c->flushes);
	s->bytes_read = atomic_load(&c->bytes_read);
	s->bytes_written = atomic_load(&c->bytes_written);
	s->charged = atomic_load(&c->charged);
	s->modelled_ns = atomic_load(&c->modelled_ns);
	s->engine_ns = atomic_load(&c->engine_ns);
	s->short_requests = atomic_load(&c->short_requests);
	s->short_excess_ns = atomic_load(&c->short_excess_ns);
}

int model_daemon_check(struct model_daemon *md)
{
	if (md->dead)
		return -EPIPE;
	if (md->stopped || !md->pid || !daemon_gone(md, 0))
		return 0;
	md->dead = true;
	log_error(
		"the device model's daemon (pid %d, serving %s) exited during the run: the filesystem above it got IO errors from then on, so this case's figures are not valid. Its own message, if any, is above; rerun the case",
		(int)md->pid, md->file);
	return -EPIPE;
}

bool model_daemon_pidfile_live(const char *pidfile, pid_t *pid)
{
	unsigned long long start = 0, now = 0;
	char path[64], comm[32] = "";
	int p = 0, ok;
	FILE *f = fopen(pidfile, "re");

	if (!f)
		return false;
	ok = fscanf(f, "%d %llu", &p, &start) == 2;
	fclose(f);
	if (!ok || p <= 0 || runstate_proc_start(p, &now) || now != start)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", p);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(comm, sizeof(comm), f) != NULL;
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	if (!ok || strcmp(comm, MODEL_DAEMON_COMM))
		return false;
	*pid = p;
	return true;
}

int model_daemon_kill_pidfile(const char *pidfile)
{
	pid_t pid;
	int i;

	if (model_daemon_pidfile_live(pidfile, &pid)) {
		kill(pid, SIGTERM);
		for (i = 0; i < MODEL_STOP_TIMEOUT_MS / 10 && !kill(pid, 0);
		     i++)
			usleep(10000);
		if (!kill(pid, 0))
			kill(pid, SIGKILL);
	}
	if (unlink(pidfile) && errno != ENOENT)
		return -errno;
	return 0;
}
