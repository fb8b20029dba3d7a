// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark tool for scripts/bench/empty-programs.sh: load a BPF object of
 * empty tp_btf programs, attach those whose names hold any of argv[2..]
 * (all without), print "ready N" and hold them until killed. What a
 * tracer costs a workload before its programs do anything: the kernel's
 * way into and out of a program on each tracepoint.
 * usage: empty_programs OBJECT.o [NAME...]
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static bool wanted(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 3)
		return true;
	for (i = 2; i < argc; i++)
		if (strstr(name, argv[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	int n = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s OBJECT.o [NAME...]\n", argv[0]);
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "%s: cannot open\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(
			prog, wanted(bpf_program__name(prog), argc, argv));
	if (bpf_object__load(obj)) {
		fprintf(stderr, "%s: cannot load\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		if (bpf_program__attach(prog))
			n++;
		else
			fprintf(stderr, "%s: not attached\n",
				bpf_program__name(prog));
	}
	printf("ready %d\n", n);
	fflush(stdout);
	pause();
	return 0;
}
