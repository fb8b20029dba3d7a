/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU time of a traced command and of every process it starts, living
 * or not: a cgroup of its own (fsprof-trace-<pid>, on the cgroup2 mount,
 * or else on cgroup v1's cpuacct), which the command joins before it
 * execs and its children inherit. /proc/<pid>/stat counts a child only
 * once it has been waited for, in 10 ms ticks: a phase that ends while
 * children run would not see their CPU at all, and a later phase would
 * get it.
 */
#ifndef FSPROF_CPU_CGROUP_H
#define FSPROF_CPU_CGROUP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/teardown.h"

struct cpu_cgroup {
	char dir[512]; /* the cgroup's directory; "" when there is none */
	bool v2; /* cgroup2's cpu.stat, else v1's cpuacct.usage_* */
	pid_t pid; /* the process moved in */
	pthread_t mover; /* the move, while moving */
	bool moving;
	int moved; /* the move's outcome: 0 or -errno */
};

/*
 * Make the cgroup, the removal registered in td (it moves any process
 * still in it to its parent first), and start moving pid into it: a
 * thread does the move, which waits for an RCU grace period in the kernel
 * (10-14 ms here: cgroup.procs takes the threadgroup lock for writing)
 * while the caller loads the tracer. Returns 0, or -errno with why set:
 * the caller goes on without it.
 */
int cpu_cgroup_up(struct cpu_cgroup *cg, pid_t pid, struct teardown *td,
		  char *why, size_t why_len);

/*
 * Wait for the move cpu_cgroup_up started: 0 once pid is in the cgroup
 * and its CPU can be read, or -errno with why set.
 */
int cpu_cgroup_moved(struct cpu_cgroup *cg, char *why, size_t why_len);

/*
 * The cgroup's id as BPF's bpf_get_current_cgroup_id() gives it (cgroup2:
 * its directory's inode number), 0 for a v1 cgroup or none
 */
uint64_t cpu_cgroup_id(const struct cpu_cgroup *cg);

/* the cgroup's user and system CPU so far, in ns; -errno */
int cpu_cgroup_read(const struct cpu_cgroup *cg, uint64_t *user_ns,
		    uint64_t *sys_ns);

/* move what is left in dir to its parent and remove it; -errno */
int cpu_cgroup_remove_dir(const char *dir);

/* dir is a cgroup fsprof made: fsprof-trace-<pid> on a cgroup mount */
bool cpu_cgroup_is_ours(const char *dir);

#endif
