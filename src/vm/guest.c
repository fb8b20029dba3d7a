// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/spawn.h"
#include "vm/guest.h"
#include "vm/guest_output.h"

/* the results disk: a tar of the guest's /out, sparse on the host */
#define GUEST_RESULTS_BYTES (1ULL << 30)
/*
 * The guest: its memory, and CPUs. Under KVM two. Under TCG one: with two
 * (thread=multi, one host thread a vCPU) the guest kernel's live text
 * patching races the other vCPU. Every tracepoint attached or detached
 * (each case's BPF programs) flips a static key with text_poke_bp (an int3
 * on the site, IPIs, the new bytes), and a vCPU ended at an int3 the kernel
 * no longer knew: "Oops: int3" in try_to_wake_up or __schedule, RIP one
 * byte into the patched NOP. Reproduced (scripts/vm/tcg-patch-race.sh,
 * session 13): flips of sched_switch under load oopsed 7 boots of 7 with
 * two vCPUs (within 100 flips), none of 5 with one (1,000 flips each);
 * raid_dm_guest lost its guest in about 1 run of 8. One vCPU has no other
 * CPU to race. The cost: a guest kernel's SMP paths (per-CPU maps over
 * several CPUs, wakeups across CPUs) run only on the host's kernel;
 * thread=single with two vCPUs would keep them, one vCPU running at a
 * time, at cross_kernel 86 s against 68 s.
 */
#define GUEST_MEM "1024"
#define GUEST_CPUS_KVM "2"
#define GUEST_CPUS_TCG "1"
/* a file in the guest's directory (a PATH_MAX path) */
#define FILE_PATH (PATH_MAX + 64)

const char *guest_accel(void)
{
	char line[4096];
	bool virt = false;
	FILE *f = fopen("/proc/cpuinfo", "r");
	int fd;

	while (f && !virt && fgets(line, sizeof(line), f))
		virt = !strncmp(line, "flags", 5) &&
		       (strstr(line, " vmx") || strstr(line, " svm"));
	if (f)
		fclose(f);
	if (!virt)
		return "tcg";
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return "tcg";
	close(fd);
	return "kvm";
}

static int write_args(const char *path, const struct guest_spec *spec)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f)
		return -errno;
	for (i = 0; i < spec->n_args; i++)
		fprintf(f, "--%s%s%s\n", spec->args[i].name,
			spec->args[i].value ? "=" : "",
			spec->args[i].value ? spec->args[i].value : "");
	return fclose(f) ? -EIO : 0;
}

/* run argv; its output into err when it fails */
static int run_tool(char *const argv[], const char *what, char *err,
		    size_t errlen)
{
	struct spawn_result res;
	int ret = spawn_capture(argv, &res);

	if (!ret && res.exit_code)
		ret = -EIO;
	if (ret)
		snprintf(err, errlen, "%s failed: %s", what,
			 res.output ? res.output : strerror(-ret));
	free(res.output);
	return ret;
}

static int make_sparse(const char *path, uint64_t bytes)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)bytes))
		ret = -errno;
	close(fd);
	return ret;
}

/* the initramfs and the two disks in dir */
static int guest_prepare(const struct guest_spec *spec, const char *dir,
			 char *err, size_t errlen)
{
	char scripts[PATH_MAX], tool[PATH_MAX + 32], guest[PATH_MAX + 32];
	char initrd[FILE_PATH], args[FILE_PATH], argfile[FILE_PATH + 8];
	char img[FILE_PATH], exe[64];
	const char *argv[18 + 2 * 8];
	unsigned int i, n = 0;
	int ret;

	/* the very binary running, even when a build replaced its file */
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	if (vm_script_dir(scripts, sizeof(scripts)))
		return snprintf(err, errlen, "cannot find fsprof's VM scripts"),
		       -ENOENT;
	snprintf(tool, sizeof(tool), "%s/initramfs.sh", scripts);
	snprintf(guest, sizeof(guest), "%s/guest-fsprof-run.sh", scripts);
	snprintf(initrd, sizeof(initrd), "%s/initrd.cpio", dir);
	snprintf(args, sizeof(args), "%s/args", dir);
	snprintf(argfile, sizeof(argfile), "%s:/args", args);
	ret = write_args(args, spec);
	if (ret)
		return snprintf(err, errlen, "cannot write %s", args), ret;
	argv[n++] = tool;
	argv[n++] = spec->kernel->dir;
	argv[n++] = exe;
	argv[n++] = guest;
	argv[n++] = initrd;
	argv[n++] = "--kconfig";
	if (spec->modules) {
		argv[n++] = "--modules";
		argv[n++] = spec->modules;
	}
	argv[n++] = "--file";
	argv[n++] = argfile;
	for (i = 0; i < spec->n_programs && i < 8; i++) {
		argv[n++] = "--program";
		argv[n++] = spec->programs[i];
	}
	argv[n] = NULL;
	ret = run_tool((char *const *)argv, "building the guest's initramfs",
		       err, errlen);
	if (ret)
		return ret;
	snprintf(img, sizeof(img), "%s/scratch.img", dir);
	ret = make_sparse(img, spec->scratch_bytes);
	if (!ret) {
		char *mkfs[] = { "mkfs.ext4",	       "-q", "-F",   "-O",
				 "^has_journal",       "-N", "4096", "-E",
				 "lazy_itable_init=0", img,  NULL };

		ret = run_tool(mkfs, "mkfs.ext4 of the guest's scratch disk",
			       err, errlen);
	}
	snprintf(img, sizeof(img), "%s/results.img", dir);
	if (!ret)
		ret = make_sparse(img, GUEST_RESULTS_BYTES);
	if (ret && !err[0])
		snprintf(err, errlen, "cannot make the guest's disks in %s: %s",
			 dir, strerror(-ret));
	return ret;
}

static pid_t qemu_start(const struct guest_spec *spec, const char *dir,
			const char *accel)
{
	char kernel[FILE_PATH], initrd[FILE_PATH], d1[FILE_PATH + 64],
		d2[FILE_PATH + 64], log[FILE_PATH], gate[FILE_PATH + 8],
		append[1024];
	pid_t pid;
	int fd;

	snprintf(kernel, sizeof(kernel), "%s/boot", spec->kernel->dir);
	snprintf(initrd, sizeof(initrd), "%s/initrd.cpio", dir);
	snprintf(d1, sizeof(d1),
		 "file=%s/scratch.img,if=virtio,format=raw,cache=unsafe", dir);
	snprintf(d2, sizeof(d2),
		 "file=%s/results.img,if=virtio,format=raw,cache=unsafe", dir);
	snprintf(log, sizeof(log), "%s/console.log", dir);
	/* ttyS1: QEMU reads gate.in, writes gate.out */
	snprintf(gate, sizeof(gate), "pipe:%s/gate", dir);
	snprintf(
		append, sizeof(append),
		"console=ttyS0 quiet panic=-1 oops=panic rdinit=/init cgroup_no_v1=all%s%s",
		spec->cmdline ? " " : "", spec->cmdline ? spec->cmdline : "");
	pid = fork();
	if (pid)
		return pid;
	/* its own process group: a terminal's ^C reaches fsprof, which
	 * ends the guest itself; and it dies with fsprof, whatever killed
	 * it: a guest at its gate would wait for the host's go forever */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(127);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		_exit(127);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, 0);
	execlp("qemu-system-x86_64", "qemu-system-x86_64", "-accel",
	       strcmp(accel, "kvm") ? "tcg" : "kvm", "-cpu",
	       strcmp(accel, "kvm") ? "max" : "host", "-m", GUEST_MEM, "-smp",
	       strcmp(accel, "kvm") ? GUEST_CPUS_TCG : GUEST_CPUS_KVM,
	       "-nodefaults", "-no-reboot", "-display", "none", "-serial",
	       "stdio", "-serial", gate, "-kernel", kernel, "-initrd", initrd,
	       "-append", append, "-drive", d1, "-drive", d2, (char *)NULL);
	fprintf(stderr, "exec qemu-system-x86_64: %s\n", strerror(errno));
	_exit(127);
}

/* how QEMU ended, beyond its exit status */
#define QEMU_TIMEOUT 1000 /* killed at the limit */
#define QEMU_STOPPED 2000 /* killed when the run was to stop: + signal */
#define QEMU_SIGNALED 3000 /* killed by a signal not fsprof's: + signal */

/* the wait on a guest, counted against its limit: 0 on, else how it ends */
static int guest_check(struct guest *g, uint64_t since)
{
	const struct guest_spec *spec = g->spec;
	uint64_t waited = g->waited_ns + (clock_mono_ns() - since);

	if (spec->stop && *spec->stop)
		return QEMU_STOPPED + *spec->stop;
	if (waited > spec->timeout_ns)
		return QEMU_TIMEOUT;
	return 0;
}

/* QEMU reaped (its status into g->qemu): true when it has ended */
static bool guest_reap(struct guest *g, int killed)
{
	int status;
	pid_t r;

	if (!g->pid)
		return true;
	if (killed)
		kill(g->pid, SIGKILL);
	do
		r = waitpid(g->pid, &status, killed ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r != g->pid && r >= 0)
		return false;
	g->pid = 0;
	g->res.wall_s = (double)(clock_mono_ns() - g->t0) / 1e9;
	if (killed)
		g->qemu = killed;
	else if (r < 0)
		g->qemu = QEMU_SIGNALED + SIGKILL;
	else
		g->qemu = WIFEXITED(status) ? WEXITSTATUS(status) :
					      QEMU_SIGNALED + WTERMSIG(status);
	return true;
}

/* "seqio ext4 1" of the gate's ready line, as the user reads it */
static void case_name(const char *ready, char *buf, size_t len)
{
	const char *last = strrchr(ready, ' '), *first = strchr(ready, ' ');

	if (!first || last == first)
		snprintf(buf, len, "%s", ready);
	else
		snprintf(buf, len, "%.*s on %.*s, repeat %s",
			 (int)(first - ready), ready, (int)(last - first - 1),
			 first + 1, last + 1);
}

/* a whole line from the gate: its state, or -1 for none yet */
static int gate_line(struct guest *g)
{
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(g->line, '\n', g->used);
		if (nl)
			break;
		if (g->used + 1 >= sizeof(g->line))
			g->used = 0; /* a line this long is noise */
		n = read(g->gate_from, g->line + g->used,
			 sizeof(g->line) - 1 - g->used);
		if (n <= 0)
			return -1;
		g->used += (size_t)n;
	}
	*nl = '\0';
	if (nl > g->line && nl[-1] == '\r')
		nl[-1] = '\0';
	if (!strncmp(g->line, "ready ", 6))
		case_name(g->line + 6, g->next, sizeof(g->next));
	n = !strncmp(g->line, "ready ", 6) ? GUEST_READY :
	    !strcmp(g->line, "finish")	   ? GUEST_FINISH :
					     -1;
	g->used -= (size_t)(nl + 1 - g->line);
	memmove(g->line, nl + 1, g->used);
	return (int)n;
}

static void guest_error(struct guest *g, char *err, size_t errlen)
{
	const struct vm_kernel *k = g->spec->kernel;
	char tail[GUEST_CONSOLE_EXCERPT_BYTES], why[200],
		during[GUEST_LINE_MAX + 16];

	console_excerpt(g->dir, tail, sizeof(tail));
	if (g->qemu == QEMU_TIMEOUT)
		snprintf(
			why, sizeof(why),
			"did not finish within %llu s (--kernel-timeout) and was killed",
			(unsigned long long)(g->spec->timeout_ns /
					     1000000000ULL));
	else if (g->qemu > QEMU_SIGNALED)
		snprintf(why, sizeof(why),
			 "ended: QEMU was killed by signal %d (%s)",
			 g->qemu - QEMU_SIGNALED,
			 strsignal(g->qemu - QEMU_SIGNALED));
	else if (g->qemu > QEMU_STOPPED)
		snprintf(why, sizeof(why), "was stopped by %s",
			 strsignal(g->qemu - QEMU_STOPPED));
	else
		snprintf(
			why, sizeof(why),
			"ended (QEMU exit status %d) without results: a panic, or no init",
			g->qemu);
	during[0] = '\0';
	if (g->running[0])
		snprintf(during, sizeof(during), " during %s", g->running);
	snprintf(err, errlen,
		 "kernel %s (%s, %s): the guest %s%s; its console ended:%s",
		 k->spec, k->release, g->res.accel, why, during,
		 tail[0] ? tail : "\n    (nothing)");
}

/* QEMU ended: its results, or the error */
static int guest_ended(struct guest *g, char *err, size_t errlen)
{
	g->res.boot_s = console_boot_s(g->dir);
	if (g->qemu < QEMU_TIMEOUT && !g->res.run_log && !g->res.run_json)
		results_read(g->dir, &g->res);
	if (g->res.fsprof_rc >= 0)
		return GUEST_ENDED;
	guest_error(g, err, errlen);
	return -EIO;
}

int guest_wait(struct guest *g, char *err, size_t errlen)
{
	uint64_t since = clock_mono_ns();
	struct pollfd p = { .fd = g->gate_from, .events = POLLIN };
	int state = -1, killed = 0;

	while (g->pid && state < 0 && !killed) {
		state = gate_line(g);
		if (state >= 0)
			break;
		killed = guest_check(g, since);
		if (!guest_reap(g, killed))
			poll(&p, 1, 100);
	}
	g->waited_ns += clock_mono_ns() - since;
	if (state >= 0) {
		g->running[0] = '\0';
		return state;
	}
	if (g->pid)
		guest_reap(g, killed ? killed : QEMU_SIGNALED + SIGKILL);
	return guest_ended(g, err, errlen);
}

static int gate_say(struct guest *g, const char *line)
{
	size_t len = strlen(line);

	return write(g->gate_to, line, len) == (ssize_t)len ? 0 : -EIO;
}

int guest_go(struct guest *g, unsigned int order)
{
	char line[32];

	snprintf(g->running, sizeof(g->running), "%s", g->next);
	snprintf(line, sizeof(line), "go %u\n", order);
	return gate_say(g, line);
}

void guest_release(struct guest *g)
{
	gate_say(g, "end\n");
}

int guest_end(struct guest *g, char *err, size_t errlen)
{
	int state = guest_wait(g, err, errlen);

	/* a gate line now would be a guest running on past its end */
	while (state == GUEST_READY || state == GUEST_FINISH) {
		gate_say(g, "stop\n");
		state = guest_wait(g, err, errlen);
	}
	return state < 0 ? state : 0;
}

static void dir_remove(const char *dir)
{
	static const char *const files[] = { "initrd.cpio", "scratch.img",
					     "results.img", "console.log",
					     "args",	    "gate.in",
					     "gate.out" };
	char path[FILE_PATH];
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* the gate's FIFOs, open both ways so that neither open blocks */
static int gate_open(struct guest *g, char *err, size_t errlen)
{
	char in[FILE_PATH], out[FILE_PATH];

	snprintf(in, sizeof(in), "%s/gate.in", g->dir);
	snprintf(out, sizeof(out), "%s/gate.out", g->dir);
	if (mkfifo(in, 0600) || mkfifo(out, 0600)) {
		snprintf(err, errlen, "mkfifo in %s: %s", g->dir,
			 strerror(errno));
		return -errno;
	}
	g->gate_to = open(in, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	g->gate_from = open(out, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (g->gate_to < 0 || g->gate_from < 0) {
		snprintf(err, errlen, "open %s: %s", in, strerror(errno));
		return -errno;
	}
	return 0;
}

/* its directory in the run's state file, as it resolves (cleanup asks) */
static void guest_record(struct guest *g)
{
	char real[PATH_MAX];
	int id;

	if (!g->spec->state || !realpath(g->dir, real))
		return;
	id = runstate_add(g->spec->state, "workdir", real);
	g->record = id > 0 ? id : 0;
}

int guest_start(struct guest *g, const struct guest_spec *spec, char *err,
		size_t errlen)
{
	int ret;

	memset(g, 0, sizeof(*g));
	g->spec = spec;
	g->gate_to = g->gate_from = -1;
	g->qemu = -1;
	g->res.fsprof_rc = -1;
	err[0] = '\0';
	snprintf(g->res.accel, sizeof(g->res.accel), "%s", guest_accel());
	/* fsprof.*: what fsprof cleanup removes as a workdir, once recorded */
	snprintf(g->dir, sizeof(g->dir), "%s/fsprof.guest-XXXXXX",
		 spec->scratch);
	mkdir(spec->scratch, 0755);
	if (!mkdtemp(g->dir)) {
		ret = -errno;
		snprintf(err, errlen, "cannot make a directory in %s: %s",
			 spec->scratch, strerror(errno));
		g->dir[0] = '\0';
		return ret;
	}
	guest_record(g);
	ret = guest_prepare(spec, g->dir, err, errlen);
	if (!ret)
		ret = gate_open(g, err, errlen);
	if (ret)
		return ret;
	g->t0 = clock_mono_ns();
	g->pid = qemu_start(spec, g->dir, g->res.accel);
	if (g->pid < 0) {
		ret = -errno;
		g->pid = 0;
		snprintf(err, errlen, "cannot start QEMU: %s", strerror(-ret));
	}
	return ret;
}

void guest_destroy(struct guest *g)
{
	if (g->pid)
		guest_reap(g, QEMU_SIGNALED + SIGKILL);
	if (g->gate_to >= 0)
		close(g->gate_to);
	if (g->gate_from >= 0)
		close(g->gate_from);
	g->gate_to = g->gate_from = -1;
	if (g->dir[0])
		dir_remove(g->dir);
	if (g->record && access(g->dir, F_OK)) {
		runstate_remove(g->spec->state, g->record);
		g->record = 0;
	}
	g->dir[0] = '\0';
	free(g->res.run_json);
	free(g->res.run_log);
	g->res.run_json = g->res.run_log = NULL;
}
