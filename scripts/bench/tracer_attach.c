// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark: how long the tracer takes to open, load and attach the kernel
 * domains for a filesystem type (with the BTF probing they need), and to
 * tear them down. FSTYPE "all" loads every domain.
 * usage: tracer_attach [ROUNDS] [FSTYPE]   (root; one line per measure)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "trace/tracer.h"
#include "util/clock.h"
#include "util/log.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20, i;
	uint64_t *up, *down;
	struct attach_list *programs = calloc(1, sizeof(*programs));
	const char *fstype = argc > 2 ? argv[2] : "all";
	const struct trace_config loop7 = {
		.kernel_dev = 7 << 20,
		.disk_dev = 7 << 20,
		.fstype = strcmp(fstype, "all") ? fstype : NULL,
	};
	struct rusage ru;

	up = calloc((size_t)rounds, sizeof(*up));
	down = calloc((size_t)rounds, sizeof(*down));
	if (!programs || !up || !down || rounds < 1)
		return 1;
	log_set_level(LOG_QUIET);
	for (i = 0; i < rounds; i++) {
		struct teardown td = { .n = 0 };
		struct tracer t;
		uint64_t t0, t1, t2;

		programs->n = 0;
		t0 = clock_mono_ns();
		if (tracer_start(&t, &loop7, programs, &td) || !t.n) {
			fprintf(stderr,
				"tracer_attach: tracer did not start\n");
			return 1;
		}
		t1 = clock_mono_ns();
		teardown_run(&td);
		t2 = clock_mono_ns();
		up[i] = t1 - t0;
		down[i] = t2 - t1;
	}
	qsort(up, (size_t)rounds, sizeof(*up), cmp_u64);
	qsort(down, (size_t)rounds, sizeof(*down), cmp_u64);
	getrusage(RUSAGE_SELF, &ru);
	printf("%s domains: open+load+attach median %.2f ms (min %.2f, max %.2f) over %d rounds\n",
	       fstype, up[rounds / 2] / 1e6, up[0] / 1e6, up[rounds - 1] / 1e6,
	       rounds);
	printf("detach+destroy   median %.2f ms\n", down[rounds / 2] / 1e6);
	printf("peak RSS of the benchmark process %ld KiB\n", ru.ru_maxrss);
	free(up);
	free(down);
	free(programs);
	return 0;
}
