// SPDX-License-Identifier: GPL-2.0
/*
 * Phase markers (include/fsprof/marker.h): a write(2) to the traced
 * command's FSPROF_PHASE_FD pipe switches the phase at the system call's
 * entry, before the write returns, in the order the writes reach the kernel. The
 * pipe is recognised by its inode (number and superblock), whatever fd
 * number the writer holds it under (a shell's `>&$FSPROF_PHASE_FD` writes
 * through fd 1). Every write on it gets an entry in the log, applied or
 * deferred, so that userspace can pair it with the packet it reads.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/marker.h"
#include "phase.bpf.h"

/* the read buffer: a power of two, so that a mask bounds every index */
#define BUF_LEN 64
#define BUF_MASK (BUF_LEN - 1)


/* the pipe: its inode number and its superblock's dev_t (kernel encoding) */
const volatile __u64 pipe_ino = 0;
const volatile __u32 pipe_sdev = 0;
/* write(2)'s number on this architecture, from userspace's <sys/syscall.h> */
const volatile long nr_write = -1;

/*
 * The marker state, shared with userspace (mmapped .bss), which applies
 * the deferred writes: the next phase id to give, the marked phase open
 * (0: none), writes seen on the pipe.
 */
__u32 next_phase = 2;
/*
 * The traced command's cgroup (cgroup2 id), 0: none, every writer looked
 * at. Set once the command is in it, before it runs: a writer in it is the
 * command or one of its processes; any other write on the machine is let
 * go for one helper call, before the file lookup.
 */
__u64 cmd_cgroup = 0;
__u32 open_phase = 0;
__u64 writes = 0;
struct marker_entry marker_log[MARKER_LOG_LEN];

static __always_inline bool is_marker_file(unsigned int fd)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct file **fds, *file;
	struct inode *inode;
	unsigned int max;

	fds = BPF_CORE_READ(task, files, fdt, fd);
	max = BPF_CORE_READ(task, files, fdt, max_fds);
	if (!fds || fd >= max)
		return false;
	if (bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]) || !file)
		return false;
	inode = BPF_CORE_READ(file, f_inode);
	if (!inode || BPF_CORE_READ(inode, i_ino) != pipe_ino)
		return false;
	return BPF_CORE_READ(inode, i_sb, s_dev) == pipe_sdev;
}

static __always_inline bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/* the phase in the switch log, as userspace's phase_map_publish does */
static __always_inline void publish(__u32 phase, __u64 now)
{
	struct phase_shared *ps = phase_map();
	__u64 seq;

	if (!ps)
		return;
	seq = ps->seq;
	if (phase != FSPROF_PHASE_NONE && phase < FSPROF_MAX_PHASES)
		ps->start_ns[phase] = now;
	ps->log[seq % PHASE_LOG_LEN].at_ns = now;
	ps->log[seq % PHASE_LOG_LEN].phase = phase;
	/* a fully ordered add: the entry is visible before the count */
	__sync_fetch_and_add(&ps->seq, 1);
}

/* "begin NAME" or "end", one line: the switch, or MARKER_DEFERRED */
static __always_inline __u32 apply(const char *buf, __u32 n, __u32 *phase)
{
	__u32 i, name_len = 0;

	if (n && buf[(n - 1) & BUF_MASK] == '\n')
		n--;
	if (n == 3 && buf[0] == 'e' && buf[1] == 'n' && buf[2] == 'd') {
		if (!open_phase)
			return MARKER_DEFERRED; /* userspace says why */
		*phase = open_phase;
		open_phase = 0;
		return MARKER_ENDED;
	}
	if (n < 7 || buf[0] != 'b' || buf[1] != 'e' || buf[2] != 'g' ||
	    buf[3] != 'i' || buf[4] != 'n' || buf[5] != ' ')
		return MARKER_DEFERRED;
	for (i = 6; i < MARKER_WRITE_MAX; i++) {
		if (i >= n)
			break;
		if (!name_char(buf[i & BUF_MASK]))
			return MARKER_DEFERRED;
		name_len++;
	}
	if (!name_len || name_len > MARKER_NAME_MAX ||
	    next_phase >= FSPROF_MAX_PHASES)
		return MARKER_DEFERRED;
	*phase = next_phase++;
	open_phase = *phase;
	return MARKER_BEGAN;
}

/*
 * The raw sys_enter tracepoint, not the syscalls:sys_enter_write event:
 * the event is ftrace's own probe on sys_enter, and closing its perf event
 * waits for an RCU grace period in the kernel (34-66 ms here, at every
 * fsprof trace's exit); a raw tracepoint's link goes without a wait. Both
 * run on every system call: the event's probe tests the number in C, this
 * program first thing. BTF-typed (tp_btf): the registers are read straight
 * from the kernel's pt_regs, no helper call each.
 */
SEC("tp_btf/sys_enter")
int BPF_PROG(fsprof_marker_write, struct pt_regs *regs, long id)
{
	char buf[BUF_LEN] = {};
	struct marker_entry e = {};
	__u64 count, k;
	__u32 phase = 0;

	if (id != nr_write)
		return 0;
	if (cmd_cgroup && bpf_get_current_cgroup_id() != cmd_cgroup)
		return 0;
	if (!is_marker_file((unsigned int)PT_REGS_PARM1_SYSCALL(regs)))
		return 0;
	count = PT_REGS_PARM3_SYSCALL(regs);
	e.at_ns = bpf_ktime_get_ns();
	if (count && count <= MARKER_WRITE_MAX &&
	    !bpf_probe_read_user(buf, count & BUF_MASK,
				 (void *)PT_REGS_PARM2_SYSCALL(regs)))
		e.action = apply(buf, (__u32)count, &phase);
	e.phase = phase;
	if (e.action == MARKER_BEGAN)
		publish(phase, e.at_ns);
	else if (e.action == MARKER_ENDED)
		publish(FSPROF_PHASE_NONE, e.at_ns);
	k = __sync_fetch_and_add(&writes, 1);
	marker_log[k % MARKER_LOG_LEN] = e;
	return 0;
}
