/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results model: run -> target -> phases -> metrics. Every stage after
 * collection (text report, JSON, later analysis and diff) reads only this.
 */
#ifndef FSPROF_RESULTS_H
#define FSPROF_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "fsprof/block.h"
#include "results/aging.h"
#include "results/block_stack.h"
#include "results/classic.h"
#include "results/device_model.h"
#include "results/events.h"
#include "results/findings.h"
#include "results/metrics.h"
#include "results/series.h"

#define RESULTS_SCHEMA_VERSION 1
#define RESULTS_MAX_PROGRAMS 64

struct block_class_result {
	uint64_t ios;
	uint64_t bytes;
	struct latency_hist lat; /* issue -> complete */
	struct latency_hist size; /* request bytes (sum_ns/max_ns in bytes) */
	uint64_t preflush; /* requests whose first bio asked for PREFLUSH */
	uint64_t fua; /* ... for FUA */
	/*
	 * requests whose completion the kernel never reported (issued, and
	 * their address issued again while they were in flight): not in lat
	 */
	uint64_t unseen;
};

/* one (IO class, issuer) pair that issued requests in a phase */
struct block_io_result {
	enum blk_ioclass ioclass;
	enum blk_issuer issuer;
	struct block_class_result r;
};

/* device time of a track (device, IO class, issuer) */
struct block_busy_result {
	uint64_t busy_ns; /* time with >= 1 request in flight */
	uint64_t inflight_ns; /* requests in flight integrated over time */
	uint64_t max_inflight;
};

struct block_result {
	bool traced; /* the block domain was attached for this phase */
	struct block_class_result cls[BLK_OPC_NR]; /* by operation */
	unsigned int n_io;
	struct block_io_result *io; /* owned; the pairs that saw requests */
	struct block_busy_result device;
	struct block_busy_result ioclass[BLK_IOC_NR];
	struct block_busy_result issuer[BLK_ISS_NR];
	/* requests of the phase still in flight when it was collected */
	unsigned int inflight_at_end;
	/* a stacked target: each member's share (target.stack names them) */
	unsigned int n_members;
	struct block_member_result member[BLK_MEMBERS_MAX];
};

/* the filesystem's log on the device, in 512-byte sectors */
struct log_region {
	unsigned int n;
	struct {
		uint64_t start, sectors;
	} range[BLK_LOG_MAX_RANGES];
	char source[128]; /* where it was read from, or why there is none */
};

/* what the workload itself did and measured in user space */
struct workload_counters {
	uint64_t bytes; /* bytes read or written by the workload */
	uint64_t ops; /* read/write/unlink/sync calls */
	uint64_t files; /* files created, read or removed */
};

/* one interval of a phase (afd prints one line per interval) */
struct interval_sample {
	uint64_t t_ns; /* end of the interval, since the phase started */
	uint64_t files;
	uint64_t bytes;
};

/* a kernel stack a domain singled out, symbolised (sched: where it slept) */
#define STACK_MAX_FRAMES 24
#define STACK_FRAME_LEN 80
#define STACK_TOP_MAX 4

struct stack_record {
	char cause[24]; /* what the domain made of it: "journal_commit" */
	uint64_t count; /* waits with this stack */
	uint64_t total_ns; /* their time */
	unsigned int n_frames;
	char frame[STACK_MAX_FRAMES][STACK_FRAME_LEN]; /* innermost first */
};

/* the heaviest stacks of a phase (JSON: sched.top_stacks) */
struct stack_top {
	unsigned int n;
	struct stack_record v[STACK_TOP_MAX];
};

/* the processes that issued the most block IO (fsprof record) */
#define PROC_TOP_MAX 10

struct proc_io_record {
	unsigned int tgid;
	char comm[16];
	uint64_t ios; /* requests whose first bio it submitted */
	uint64_t bytes;
	uint64_t write_bytes;
};

struct proc_top {
	unsigned int n; /* 0: not counted (only record counts per process) */
	struct proc_io_record v[PROC_TOP_MAX]; /* by bytes, most first */
	unsigned int others; /* processes beyond the top */
	uint64_t others_bytes; /* their bytes */
	uint64_t lost; /* requests not counted: the map was full */
};

struct phase_result {
	char name[32];
	unsigned int id; /* the phase id the BPF side saw */
	uint64_t start_mono_ns; /* CLOCK_MONOTONIC = bpf_ktime_get_ns() */
	uint64_t end_mono_ns;
	uint64_t wall_ns;
	uint64_t user_ns; /* CPU of the workload, children included */
	uint64_t sys_ns;
	uint64_t vol_ctxsw;
	uint64_t invol_ctxsw;
	char cache[16]; /* "dropped" before a read phase, else "warm" */
	char sync[32]; /* what the phase's timing includes: "fdatasync" ... */
	struct workload_counters work;
	struct block_result block;
	struct metric_set metrics; /* named metrics: kernel domains, op.* */
	unsigned int n_intervals, intervals_cap;
	struct interval_sample *intervals;
	struct series_set timeline; /* kernel counts per time bin */
	struct stack_top sched_stacks; /* where the workload slept most */
	struct proc_top procs; /* every_process: block IO by process */
	/* the analyze stage's conclusions (src/analyze/) */
	struct phase_verdict verdict;
	struct finding_list findings;
};

enum attach_state { ATTACH_ATTACHED, ATTACH_MISSING, ATTACH_FAILED };

struct attach_record {
	char domain[16];
	char program[32];
	char event[64];
	enum attach_state state;
	char reason[160];
};

#define SYSCTL_RECORD_MAX 8

struct sysctl_value {
	char name[40]; /* "vm.dirty_ratio" */
	char value[32];
};

struct sysctl_record {
	unsigned int n;
	struct sysctl_value v[SYSCTL_RECORD_MAX];
};

struct attach_list {
	unsigned int n;
	struct attach_record v[RESULTS_MAX_PROGRAMS];
};

/* which phase each loaded domain charges its work to (docs/metrics.md) */
#define RESULTS_MAX_DOMAINS 8
struct charging_list {
	unsigned int n;
	struct {
		char domain[16];
		char rule[192];
	} v[RESULTS_MAX_DOMAINS];
};

/*
 * The device model as the run built it: the parsed model (name "none" when
 * there was none; rotational is what was set on the traced device, -1 when
 * nothing was) and where its throttle sat. The JSON and every text are
 * made from this (results/device_model.h).
 */
/* a stacked target's member and the lower loop under it, throttled */
struct model_member {
	char member[32]; /* the member disk: "loop5" */
	char device[32]; /* its throttled lower loop: "/dev/loop4" */
	unsigned int major, minor; /* ... its numbers */
	bool dio; /* ... its direct IO state */
};

struct model_result {
	struct device_model m;
	struct model_engine engine; /* all zero: no engine (an old file) */
	char placement[16]; /* "lower-loop", "traced-disk", "" when none */
	char device[64]; /* the throttled device, "" when none */
	unsigned int major, minor; /* ... its numbers */
	bool dio; /* lower loop: its direct IO state */
	/* a stacked target: every member throttled apart (the first is the
	 * device above); 0 when not stacked */
	unsigned int n_members;
	struct model_member member[BLK_MEMBERS_MAX];
};

struct target_result {
	char kind[8]; /* image, device, dir */
	char fstype[32];
	char image[4096]; /* "" unless an image */
	uint64_t image_size;
	char device[4096]; /* /dev/loopN, /dev/sdb; "" when none (tmpfs) */
	char workdir[4096]; /* where the workload ran */
	char untraced[256]; /* why kernel tracing was unavailable, or "" */
	char block_untraced[256]; /* why block IO is not seen, or "" */
	unsigned int dev_major, dev_minor;
	bool loop_dio;
	char mkfs_cmd[1024];
	char fs_uuid[64]; /* of the filesystem mkfs made */
	char *mkfs_output; /* owned */
	char mount_opts[1024];
	char super_opts[1024];
	/* mount(8)'s equivalent of the mount fsprof made, "" when it made
	 * none (a --dir target) */
	char mount_cmd[2048];
	struct log_region log; /* what the block domain's log class is */
	struct block_stack stack; /* md / dm: the member disks traced */
	struct model_result model; /* the device model and its engine */
	char kernel_release[128];
	struct sysctl_record sysctls; /* vm.dirty_* when the case ran */
};

/* the kernel a case ran on when it ran in a guest (fsprof run --kernel) */
struct case_kernel {
	bool guest; /* false: the host's own kernel, target.kernel_release */
	char release[128]; /* uname -r in the guest */
	char source[512]; /* the Debian package, or the path, it came from */
	char btf_hash[24]; /* FNV-1a 64 of its vmlinux .BTF, hex */
	char accel[8]; /* "kvm" or "tcg" */
	bool emulated; /* TCG: every time is the emulator's */
	/* a kernel --kernel names more than once (6.1,6.1: an A/A): which
	 * of its guests, 1-based, so that each stays a kernel of its own;
	 * 0 for a kernel named once */
	unsigned int slot;
};

/* One workload run once on one freshly made target. */
struct case_result {
	struct target_result target;
	char target_label[160]; /* "xfs:mount=logbsize=256k" */
	char target_name[32]; /* short, for tables: "xfs#2", "old" */
	char workload[32];
	char params[256]; /* every parameter, "key=val,..." */
	uint64_t size; /* the workload's size parameter, 0 if it has none */
	uint64_t data_bytes; /* what the workload stores at its peak */
	uint64_t ram_bytes; /* the machine's RAM */
	unsigned int repeat; /* 1-based */
	/* its place in the order the run ran its cases, 1-based, across the
	 * kernels of fsprof run --kernel; 0: unknown (an older run) */
	unsigned int order;
	bool complete; /* every phase ran */
	char error[1024]; /* why not, when it failed */
	char failed_phase[32]; /* the phase that failed (ENOSPC, EROFS...) */
	unsigned int n_phases; /* phases that finished */
	unsigned int phases_cap; /* as many as the workload has */
	struct phase_result *phases;
	struct phase_result spill; /* id 0: what the kernel did between phases */
	struct attach_list programs;
	struct charging_list charging;
	struct event_list events; /* rare kernel events, every phase and spill */
	struct case_kernel kernel;
	struct age_result age; /* --age: the aging before the first phase */
};

struct run_result {
	char tool_version[32];
	char kernel_release[128];
	uint64_t started_real_ns; /* CLOCK_REALTIME at start */
	bool interrupted; /* stopped by SIGINT/SIGTERM/SIGHUP */
	int signal; /* which one */
	uint64_t max_rss_kib; /* fsprof's own peak RSS */
	unsigned int n_cases, cases_cap;
	struct case_result *cases;
	/* cross-target findings of the analyze stage */
	struct comparison_list comparisons;
	/* "classic" for fsprof run --suite classic, else "" */
	char suite[16];
	/* the originals' figures beside ours (made by analyze, not read) */
	struct classic_list classic;
	/* the command line after the program's name ("run", "-w", ...), each
	 * word owned; none (0) in the results of an older fsprof */
	unsigned int n_command;
	char **command;
};

const char *blk_opclass_name(enum blk_opclass c);
const char *blk_ioclass_name(enum blk_ioclass c);
const char *blk_issuer_name(enum blk_issuer i);
const char *attach_state_name(enum attach_state s);

/* all classes of a block result merged */
void block_result_total(const struct block_result *b,
			struct block_class_result *out);

/* add one class result into another */
void block_class_add(struct block_class_result *into,
		     const struct block_class_result *c);

/* the operation an IO class is (log_write -> write) */
enum blk_opclass blk_ioclass_op(enum blk_ioclass c);

/* release what a block result owns */
void block_result_free(struct block_result *b);

/* derived metrics: the text report and the JSON print the same numbers */
double phase_mb_per_s(const struct phase_result *p); /* 10^6 B/s, as dd */
double phase_mib_per_s(const struct phase_result *p);
double phase_cpu_percent(const struct phase_result *p); /* bonnie's %CP */
double phase_files_per_s(const struct phase_result *p); /* as fs_mark */
/* the target's short name; its full spec when it has none (older files) */
const char *case_target_name(const struct case_result *c);

/*
 * the target's name as the tables and the summary give it: the short name,
 * and in a guest its kernel's version ("ext4@6.12.118" of
 * "6.12.118+deb12-amd64"; "ext4@6.1.0#2" for a kernel named twice)
 */
void case_kernel_target_name(const struct case_result *c, char *buf,
			     size_t len);

/* is case i the first of run's cases with its target (spec)? */
bool case_target_first(const struct run_result *run, unsigned int i);

/* ran on the same kernel: the same build, or both on the host */
bool case_same_kernel(const struct case_result *a, const struct case_result *b);

/* move every case of src to the end of dst; src keeps none. 0 or -ENOMEM */
int run_result_move_cases(struct run_result *dst, struct run_result *src);

/* the data could sit in the page cache: flagged "size < 2xRAM" */
bool case_fits_in_ram(const struct case_result *c);

struct attach_record *attach_list_add(struct attach_list *list);

/* a new case with room for n_phases phases; NULL on ENOMEM */
struct case_result *run_result_add_case(struct run_result *run,
					unsigned int n_phases);

/* the run completed when it was not interrupted and every case is complete */
bool run_result_complete(const struct run_result *run);

/* a copy of argv[0..argc) as run's command; 0 or -ENOMEM */
int run_result_set_command(struct run_result *run, int argc, char *const *argv);

void run_result_free(struct run_result *run);

#endif
