// SPDX-License-Identifier: GPL-2.0
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/spawn.h"
#include "vm/guest.h"

/* the results disk: a tar of the guest's /out, sparse on the host */
#define GUEST_RESULTS_BYTES (1ULL << 30)
/* what the error quotes of the guest's console */
#define CONSOLE_TAIL_LINES 15
#define CONSOLE_LINE_MAX 160
/* the guest: its memory, and CPUs (TCG runs one host thread per vCPU) */
#define GUEST_MEM "1024"
#define GUEST_CPUS "2"
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
	const char *argv[16 + 2 * 8];
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
		d2[FILE_PATH + 64], log[FILE_PATH], append[1024];
	pid_t pid;
	int fd;

	snprintf(kernel, sizeof(kernel), "%s/boot", spec->kernel->dir);
	snprintf(initrd, sizeof(initrd), "%s/initrd.cpio", dir);
	snprintf(d1, sizeof(d1),
		 "file=%s/scratch.img,if=virtio,format=raw,cache=unsafe", dir);
	snprintf(d2, sizeof(d2),
		 "file=%s/results.img,if=virtio,format=raw,cache=unsafe", dir);
	snprintf(log, sizeof(log), "%s/console.log", dir);
	snprintf(append, sizeof(append),
		 "console=ttyS0 quiet panic=-1 oops=panic rdinit=/init%s%s",
		 spec->cmdline ? " " : "", spec->cmdline ? spec->cmdline : "");
	pid = fork();
	if (pid)
		return pid;
	/* its own process group: a terminal's ^C reaches fsprof, which
	 * ends the guest itself */
	setpgid(0, 0);
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
	       strcmp(accel, "kvm") ? "tcg,thread=multi" : "kvm", "-cpu",
	       strcmp(accel, "kvm") ? "max" : "host", "-m", GUEST_MEM, "-smp",
	       GUEST_CPUS, "-nodefaults", "-no-reboot", "-display", "none",
	       "-serial", "stdio", "-kernel", kernel, "-initrd", initrd,
	       "-append", append, "-drive", d1, "-drive", d2, (char *)NULL);
	fprintf(stderr, "exec qemu-system-x86_64: %s\n", strerror(errno));
	_exit(127);
}

/* wait for QEMU: its status; 124 when killed at the limit, 128+N on stop */
static int qemu_wait(pid_t pid, const struct guest_spec *spec)
{
	uint64_t t0 = clock_mono_ns();
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	int status, killed = 0;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!killed && spec->stop && *spec->stop)
			killed = 128 + *spec->stop;
		else if (!killed && clock_mono_ns() - t0 > spec->timeout_ns)
			killed = 124;
		if (killed)
			kill(pid, SIGKILL);
		nanosleep(&tick, NULL);
	}
	if (killed)
		return killed;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* the file of the whole content at path; NULL when unreadable */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* the last lines of the console, indented, into buf */
static void console_tail(const char *dir, char *buf, size_t len)
{
	char path[FILE_PATH], *text, *lines[CONSOLE_TAIL_LINES], *p;
	unsigned int n = 0, i, first;
	size_t used = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/console.log", dir);
	text = slurp(path);
	if (!text)
		return;
	for (p = strtok(text, "\r\n"); p; p = strtok(NULL, "\r\n")) {
		if (!*p || strspn(p, " \t") == strlen(p))
			continue;
		lines[n % CONSOLE_TAIL_LINES] = p;
		n++;
	}
	first = n > CONSOLE_TAIL_LINES ? n - CONSOLE_TAIL_LINES : 0;
	for (i = first; i < n && used + 1 < len; i++) {
		int w = snprintf(buf + used, len - used, "\n    %.*s",
				 CONSOLE_LINE_MAX,
				 lines[i % CONSOLE_TAIL_LINES]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	free(text);
}

/* the guest's uptime when its /init started, from the console */
static double console_boot_s(const char *dir)
{
	char path[FILE_PATH], *text, *at;
	double s = -1;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	text = slurp(path);
	at = text ? strstr(text, "fsprof-vm: init started") : NULL;
	at = at ? strstr(at, "uptime=") : NULL;
	if (at)
		s = strtod(at + 7, NULL);
	free(text);
	return s;
}

/* one member of the tar into a new string */
static char *archive_member(struct archive *a, struct archive_entry *e)
{
	int64_t size = archive_entry_size(e);
	char *buf;

	if (size < 0 || size > (1LL << 30))
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	if (archive_read_data(a, buf, (size_t)size) != size) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

/* the tar the guest wrote on its results disk */
static void results_read(const char *dir, struct guest_result *res)
{
	char path[FILE_PATH];
	struct archive_entry *e;
	struct archive *a = archive_read_new();

	snprintf(path, sizeof(path), "%s/results.img", dir);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		archive_read_free(a);
		return;
	}
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		char *text;

		name += !strncmp(name, "./", 2) ? 2 : 0;
		if (strcmp(name, "run.json") && strcmp(name, "run.log") &&
		    strcmp(name, "kernel") && strcmp(name, "rc"))
			continue;
		text = archive_member(a, e);
		if (!text)
			continue;
		if (!strcmp(name, "run.json"))
			res->run_json = text;
		else if (!strcmp(name, "run.log"))
			res->run_log = text;
		else {
			if (!strcmp(name, "kernel"))
				snprintf(res->release, sizeof(res->release),
					 "%.*s", (int)strcspn(text, "\n"),
					 text);
			else
				res->fsprof_rc = atoi(text);
			free(text);
		}
	}
	archive_read_free(a);
}

static void dir_remove(const char *dir)
{
	static const char *const files[] = { "initrd.cpio", "scratch.img",
					     "results.img", "console.log",
					     "args" };
	char path[FILE_PATH];
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void guest_error(const struct guest_spec *spec, const char *dir,
			int qemu, struct guest_result *res, char *err,
			size_t errlen)
{
	const struct vm_kernel *k = spec->kernel;
	char tail[CONSOLE_TAIL_LINES * (CONSOLE_LINE_MAX + 8)], why[160];

	console_tail(dir, tail, sizeof(tail));
	if (qemu == 124)
		snprintf(
			why, sizeof(why),
			"did not finish within %llu s (--kernel-timeout) and was killed",
			(unsigned long long)(spec->timeout_ns / 1000000000ULL));
	else if (qemu > 128)
		snprintf(why, sizeof(why), "was stopped by %s",
			 strsignal(qemu - 128));
	else
		snprintf(
			why, sizeof(why),
			"ended (QEMU exit status %d) without results: a panic, or no init",
			qemu);
	snprintf(err, errlen,
		 "kernel %s (%s, %s): the guest %s; its console ended:%s",
		 k->spec, k->release, res->accel, why,
		 tail[0] ? tail : "\n    (nothing)");
}

int guest_run(const struct guest_spec *spec, struct guest_result *res,
	      char *err, size_t errlen)
{
	char dir[PATH_MAX];
	uint64_t t0;
	pid_t pid;
	int qemu, ret;

	memset(res, 0, sizeof(*res));
	res->fsprof_rc = -1;
	err[0] = '\0';
	snprintf(res->accel, sizeof(res->accel), "%s", guest_accel());
	snprintf(dir, sizeof(dir), "%s/fsprof-guest.XXXXXX", spec->scratch);
	mkdir(spec->scratch, 0755);
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a directory in %s: %s",
			 spec->scratch, strerror(errno));
		return -errno;
	}
	ret = guest_prepare(spec, dir, err, errlen);
	if (ret)
		goto out;
	t0 = clock_mono_ns();
	pid = qemu_start(spec, dir, res->accel);
	if (pid < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot start QEMU: %s", strerror(-ret));
		goto out;
	}
	qemu = qemu_wait(pid, spec);
	res->wall_s = (double)(clock_mono_ns() - t0) / 1e9;
	res->boot_s = console_boot_s(dir);
	if (qemu != 124 && qemu <= 128)
		results_read(dir, res);
	if (res->fsprof_rc < 0) {
		guest_error(spec, dir, qemu, res, err, errlen);
		ret = -EIO;
	}
out:
	dir_remove(dir);
	return ret;
}

void guest_result_free(struct guest_result *res)
{
	free(res->run_json);
	free(res->run_log);
	res->run_json = res->run_log = NULL;
}
