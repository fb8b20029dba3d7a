// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark shim (LD_PRELOAD): the time a process spends in each bpf(2)
 * command, for scripts/bench/startup.sh. libbpf makes its bpf() calls
 * through libc's syscall(); this one times those (and passes every other
 * call through) and, at exit, appends one line to $BPF_SYSCALL_TIME_OUT:
 *   pid=N prog_load_ms=.. prog_load_n=.. btf_load_ms=.. map_create_ms=..
 *   link_create_ms=.. other_ms=..
 * BPF_PROG_LOAD's time is the verifier's (plus JIT); the rest of a
 * domain's load is libbpf's user-space work (relocations against the
 * kernel's BTF). With BPF_SYSCALL_TIME_PROGS set, each program's load
 * time goes to stderr too, by name.
 */
#include <dlfcn.h>
#include <linux/bpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { K_PROG, K_BTF, K_MAP, K_LINK, K_OTHER, K_N };

static unsigned long long spent_ns[K_N], calls[K_N];
static pid_t owner; /* the process that made the calls, not a fork of it */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL +
	       (unsigned long long)ts.tv_nsec;
}

static int kind_of(long cmd)
{
	switch (cmd) {
	case BPF_PROG_LOAD:
		return K_PROG;
	case BPF_BTF_LOAD:
		return K_BTF;
	case BPF_MAP_CREATE:
		return K_MAP;
	case BPF_LINK_CREATE:
	case BPF_RAW_TRACEPOINT_OPEN:
		return K_LINK;
	default:
		return K_OTHER;
	}
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6], ret;
	unsigned long long t0;
	va_list ap;
	int i;

	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr != __NR_bpf)
		return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	t0 = now_ns();
	ret = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	i = kind_of(a[0]);
	owner = getpid();
	if (i == K_PROG && getenv("BPF_SYSCALL_TIME_PROGS")) {
		const union bpf_attr *attr = (const union bpf_attr *)a[1];

		fprintf(stderr, "bpf_syscall_time: PROG_LOAD %s %.2f ms\n",
			attr->prog_name, (now_ns() - t0) / 1e6);
	}
	spent_ns[i] += now_ns() - t0;
	calls[i]++;
	return ret;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("BPF_SYSCALL_TIME_OUT");
	FILE *f;

	if (!path || !calls[K_PROG] || owner != getpid())
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f,
		"pid=%d prog_load_ms=%.2f prog_load_n=%llu btf_load_ms=%.2f map_create_ms=%.2f map_create_n=%llu link_create_ms=%.2f other_ms=%.2f\n",
		getpid(), spent_ns[K_PROG] / 1e6, calls[K_PROG],
		spent_ns[K_BTF] / 1e6, spent_ns[K_MAP] / 1e6, calls[K_MAP],
		spent_ns[K_LINK] / 1e6, spent_ns[K_OTHER] / 1e6);
	fclose(f);
}
