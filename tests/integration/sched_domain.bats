#!/usr/bin/env bats
# The sched domain (where each phase's time went) on real workloads, with
# its off-CPU time cross-checked against bpftrace on the classic
# sched_switch tracepoint (lib/offcpu.bt, lib/offcpu_phase_sums.py).
#
# Run 1: ext4 fsync loop, 75 files, under a 300 write-IOPS throttle, with
#        bpftrace logging every switch of the fsprof tasks. 150 files
#        before session 17 (the phase 5.2 s): its checks are shares, sums
#        and agreements with the peer, and the commit waits counted
#        against half the fsyncs, which halve with it (as from 300 files
#        to 150: the same shares and ratio).
# Run 2: XFS fsync loop, 50 files, under the hdd model, every sleeper's
#        stack walked (FSPROF_SCHED_STACK_MEMO=0: no stack memo). 100
#        files before session 15 (6.8 s): its checks are the log force's
#        share of the phase and counts over 100 (608 wakeup delays timed
#        at 100 files: 2 fsyncs a file, each a sleep and a wakeup; the
#        stacks walked as many), which 50 files hold three times over.
# Run 3: cold seqio read with 4 KiB reads (ext4) from a device held to
#        32 MB/s, so readahead cannot hide the device from the reader.
# Run 4: bonnie on a small file: getc (one byte a call: CPU-bound) and
#        seeks (three seeker processes: thread-time).
# Run 5: a warm re-read of a 256 MiB file in 4 KiB reads (--warm: the page
#        cache holds what the write phase wrote).
# Run 6: kernel.perf_event_max_stack below the stack map's 32 frames, so the
#        kernel refuses the stack map: the domain must say why it is
#        unavailable and the run must go on.
# Run 7: fsprof trace of a sleeper (lib/runq_waits.py) while two busy loops
#        per CPU, not traced, hold the CPUs: its wakeup delay against the
#        kernel's own run_delay (read by bpftrace at its marker writes).
#
# Run 2 also loads the sched_wakeup program (FSPROF_SCHED_WAKEUP=1), which
# the others leave out on this kernel: their wakeup delay comes from the
# scheduler's sched_info.

load helpers

# run 1's fsync loop: 2 fsyncs a file
EXT4_FILES=75

# the largest off-CPU cause of phase $2 in results $1; with $3 = sleep,
# the largest the phase slept for (runqueue left out: waiting for a CPU
# depends on what else the machine runs)
top_cause() {
	jq -r --arg p "$2" --arg only "${3:-}" '.cases[0].phases[] |
		select(.name == $p) | .metrics.sched | to_entries |
		map(select((.key | startswith("offcpu_ns.")) and
			($only != "sleep" or .key != "offcpu_ns.runqueue"))) |
		max_by(.value) | .key | ltrimstr("offcpu_ns.")' "$1"
}

# metric sched.$3 of phase $2 in results $1 (0 when absent)
sched_metric() {
	jq -r --arg p "$2" --arg m "$3" '.cases[0].phases[] |
		select(.name == $p) | .metrics.sched[$m] // 0' "$1"
}

# phase $2 of results $1 was on a CPU more than 90% of the time it did not
# wait for one and had its CPU to itself (on a busy machine a CPU-bound
# phase also waits for a CPU, runqueue, and on a busy VM host the
# hypervisor takes its vCPU, stolen), nor waited for the causes $3...
# that its cache state allows (a cold read's read_io). It never sleeps on
# anything else.
mostly_on_cpu() {
	local on wall rq taken allowed=0 c
	on=$(sched_metric "$1" "$2" oncpu_ns)
	wall=$(sched_metric "$1" "$2" wall_ns)
	rq=$(sched_metric "$1" "$2" offcpu_ns.runqueue)
	taken=$(($(sched_metric "$1" "$2" stolen_ns) + $(sched_metric "$1" "$2" irq_ns)))
	for c in "${@:3}"; do
		allowed=$((allowed + $(sched_metric "$1" "$2" "offcpu_ns.$c")))
	done
	echo "$2: on-CPU $on of $wall ns, $rq ns waiting for a CPU, $taken ns taken from it on its CPU," \
		"$allowed ns waiting for ${*:3}; off-CPU $(sched_metric "$1" "$2" offcpu_ns) ns," \
		"unaccounted $(sched_metric "$1" "$2" unaccounted_ns) ns"
	jq -c --arg p "$2" '.cases[0].phases[] | select(.name == $p) | .metrics.sched |
		with_entries(select(.key | startswith("offcpu_ns.")))' "$1"
	[ "$wall" -gt 0 ] || return 1
	[ $((on * 10)) -gt $(((wall - rq - taken - allowed) * 9)) ]
}

setup_file() {
	load helpers
	scratch_create
	export EXT4_JSON="$SCRATCH.ext4.json" XFS_JSON="$SCRATCH.xfs.json"
	export SEQ_JSON="$SCRATCH.seq.json" BON_JSON="$SCRATCH.bon.json"
	export UNAV_JSON="$SCRATCH.unav.json" BTLOG="$SCRATCH.bt"
	export WARM_JSON="$SCRATCH.warm.json" RUNQ_JSON="$SCRATCH.runq.json"
	local pid status

	tracefs_ensure
	# the run queue's steal, where the kernel has it (else 0)
	sed -e "$(btf_has_member rq prev_steal_time_rq || echo 's/\$steal = .*;/$steal = (uint64)0;/')" \
		"$LIB/offcpu.bt" >"$SCRATCH.offcpu.bt"
	bpftrace "$SCRATCH.offcpu.bt" >"$BTLOG" 2>&1 &
	BPFTRACE_PID=$!
	echo "$BPFTRACE_PID" >"$SCRATCH.bt.pid"
	wait_for "grep -q '^Attaching' '$BTLOG'" 60 || true
	"$FSPROF" run -w fsync:files=$EXT4_FILES --fs ext4 \
		--device-model custom:wiops=300 --scratch "$SCRATCH" \
		--json "$EXT4_JSON" >"$SCRATCH.ext4.out" 2>&1 &
	pid=$!
	echo "$pid" >"$SCRATCH.ext4.pid"
	status=0
	wait "$pid" || status=$?
	echo $status >"$SCRATCH.ext4.status"
	sleep 0.5
	bpftrace_end_quick "$BPFTRACE_PID"
	rm -f "$SCRATCH.bt.pid"

	status=0
	FSPROF_SCHED_STACK_MEMO=0 FSPROF_SCHED_WAKEUP=1 \
		"$FSPROF" run -q -w fsync:files=50 --fs xfs --device-model hdd \
		--scratch "$SCRATCH" --json "$XFS_JSON" >"$SCRATCH.xfs.out" \
		2>&1 || status=$?
	echo $status >"$SCRATCH.xfs.status"
	status=0
	"$FSPROF" run -q -w seqio:size=32M,bs=4k --fs ext4 \
		--device-model custom:rbps=32000000 --scratch "$SCRATCH" --json "$SEQ_JSON" >"$SCRATCH.seq.out" \
		2>&1 || status=$?
	echo $status >"$SCRATCH.seq.status"
	status=0
	"$FSPROF" run -w bonnie:size=32M,seeks=1500 --fs ext4 \
		--scratch "$SCRATCH" --json "$BON_JSON" >"$SCRATCH.bon.out" \
		2>&1 || status=$?
	echo $status >"$SCRATCH.bon.status"

	status=0
	"$FSPROF" run -q -w seqio:size=256M,bs=4k --warm --fs ext4 \
		--scratch "$SCRATCH" --json "$WARM_JSON" >"$SCRATCH.warm.out" \
		2>&1 || status=$?
	echo $status >"$SCRATCH.warm.status"

	local hogs=() i
	for ((i = 0; i < 2 * $(nproc); i++)); do
		timeout 120 sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	# the kernel's run_delay of the sleeper at its two marker writes, the
	# moments its phase begins and ends (the same system call entries)
	bpftrace -e 'tracepoint:syscalls:sys_enter_write /comm == "python3" &&
			strncmp(str(args->buf), "begin contended", 15) == 0/ {
			@b = curtask->sched_info.run_delay; }
		tracepoint:syscalls:sys_enter_write /comm == "python3" && @b &&
			strncmp(str(args->buf), "end", 3) == 0/ {
			printf("run_delay_in_phase %llu\n",
				curtask->sched_info.run_delay - @b); @b = 0; }' \
		>"$SCRATCH.runq.bt" 2>&1 &
	BPFTRACE_PID=$!
	wait_for "grep -q '^Attaching' '$SCRATCH.runq.bt'" 60 || true
	status=0
	"$FSPROF" trace -q --fs ext4 --scratch "$SCRATCH" --json "$RUNQ_JSON" \
		-- python3 "$LIB/runq_waits.py" 2 >"$SCRATCH.runq.out" 2>&1 ||
		status=$?
	echo $status >"$SCRATCH.runq.status"
	bpftrace_end_quick "$BPFTRACE_PID"
	kill "${hogs[@]}" 2>/dev/null || true
	wait "${hogs[@]}" 2>/dev/null || true

	cat /proc/sys/kernel/perf_event_max_stack >"$SCRATCH.max_stack"
	# EBUSY while any perf event or BPF stack map of another process uses
	# callchains (another fsprof run going on): wait for it
	wait_for "echo 16 2>/dev/null >/proc/sys/kernel/perf_event_max_stack" 300
	status=0
	"$FSPROF" run -w seqio:size=8M --fs ext4 --scratch "$SCRATCH" \
		--json "$UNAV_JSON" >"$SCRATCH.unav.out" 2>&1 || status=$?
	echo $status >"$SCRATCH.unav.status"
	cat "$SCRATCH.max_stack" >/proc/sys/kernel/perf_event_max_stack
}

teardown_file() {
	load helpers
	# a setup that failed half-way must not leave the sysctl changed
	if [ -f "$SCRATCH.max_stack" ]; then
		cat "$SCRATCH.max_stack" >/proc/sys/kernel/perf_event_max_stack
	fi
	if [ -f "$SCRATCH.bt.pid" ]; then
		BPFTRACE_PID=$(cat "$SCRATCH.bt.pid")
		bpftrace_stop
	fi
	rm -f "$SCRATCH".*
	scratch_remove
}

@test "every run succeeds and leaves no program or stack map behind" {
	for r in ext4 xfs seq bon warm runq unav; do
		echo "$r: exit $(cat "$SCRATCH.$r.status")"
		[ "$(cat "$SCRATCH.$r.status")" -eq 0 ]
	done
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(orphan_bpf_maps '^sched_(stacks|waits|tasks)$')" -eq 0 ]
	[ "$(cat /proc/sys/kernel/perf_event_max_stack)" = "$(cat "$SCRATCH.max_stack")" ]
}

@test "the sched domain's programs attach on this kernel, sched_wakeup only when asked for" {
	run jq -r '.cases[0].programs[] | select(.domain == "sched") |
		"\(.program) \(.event) \(.state)"' "$EXT4_JSON"
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	[[ "$output" == *"sched:sched_switch attached"* ]]
	[[ "$output" == *"sched:sched_process_fork attached"* ]]
	# FSPROF_SCHED_WAKEUP=1: the wakeup program times the wakeup delay
	run jq -r '.cases[0].programs[] | select(.domain == "sched") |
		"\(.program) \(.event) \(.state)"' "$XFS_JSON"
	echo "$output"
	[ "${#lines[@]}" -eq 3 ]
	[[ "$output" == *"sched:sched_wakeup attached"* ]]
	n=$(jq '[.cases[0].phases[].histograms.sched.wakeup_delay_ns.count // 0] | add' "$XFS_JSON")
	echo "wakeup delays timed by sched_wakeup: $n"
	[ "$n" -gt 100 ]
}

# The kernel's figure is the sleeper's run_delay read by bpftrace at its
# begin and end marker writes, the phase's own bounds. What the script reads
# from /proc/self/schedstat just before each marker is not: a wait of
# several ms behind the busy loops can fall between such a read and its
# marker (4.7% in one of five runs here).
# Both read the same clocks, so they agree to 0.01% here; 0.5% leaves room
# for the preempted waits, timed on ktime rather than the run queue's clock.
# A switch-in that sched_switch never traced lost its whole wait (-0.6% to
# -5% before fsprof told it from last_arrival: sched.switch_in_unseen).
@test "a sleeper's wakeup delay on busy CPUs is the kernel's own run_delay within 0.5%" {
	[ "$(cat "$SCRATCH.runq.status")" -eq 0 ]
	cat "$SCRATCH.runq.out" "$SCRATCH.runq.bt"
	read -r _ _ _ sleeps < <(grep '^run_delay_ns ' "$SCRATCH.runq.out")
	kernel=$(sed -n 's/^run_delay_in_phase //p' "$SCRATCH.runq.bt")
	read -r wd rq n < <(jq -r '.cases[0].phases[] | select(.name == "contended") |
		"\(.metrics.sched.wakeup_delay_ns) \(.metrics.sched["offcpu_ns.runqueue"] // 0) \(.histograms.sched.wakeup_delay_ns.count)"' "$RUNQ_JSON")
	echo "kernel run_delay $kernel ns over $sleeps sleeps; fsprof wakeup delay $wd ns in $n wakeups + runqueue $rq ns"
	# the busy loops keep the CPUs: the sleeper waits at its wakeups
	[ "$kernel" -gt 10000000 ]
	[ "$n" -ge $((sleeps * 9 / 10)) ]
	diff=$((wd + rq - kernel))
	[ $((diff < 0 ? -diff : diff)) -le $((kernel / 200)) ]
}

@test "an ext4 fsync loop waits mostly for the journal commit" {
	cause=$(top_cause "$EXT4_JSON" cycles)
	echo "largest off-CPU cause of cycles: $cause"
	jq '.cases[0].phases[0].metrics.sched' "$EXT4_JSON"
	[ "$cause" = journal_commit ] || [ "$cause" = writeback_wait ]
	# 2 fsyncs a file: about one commit wait each, at least half of them
	n=$(sched_metric "$EXT4_JSON" cycles offcpu_count.journal_commit)
	echo "$n commit waits for $((EXT4_FILES * 2)) fsyncs"
	[ "$n" -ge "$EXT4_FILES" ]
	# the heaviest stack is the fsync's own wait for the commit
	run jq -r '.cases[0].phases[0].sched.top_stacks[0].frames | join(" ")' "$EXT4_JSON"
	echo "$output"
	[[ "$output" == *jbd2_log_wait_commit+0x* ]]
	[[ "$output" == *ext4_sync_file+0x* ]]
}

@test "on-CPU + off-CPU + stolen + irq + unaccounted is the wall time of a single-task phase within 2%" {
	wall=$(sched_metric "$EXT4_JSON" cycles wall_ns)
	on=$(sched_metric "$EXT4_JSON" cycles oncpu_ns)
	off=$(sched_metric "$EXT4_JSON" cycles offcpu_ns)
	un=$(sched_metric "$EXT4_JSON" cycles unaccounted_ns)
	tasks=$(sched_metric "$EXT4_JSON" cycles tasks)
	# steal and interrupt time are measured where the kernel keeps them
	# apart from the task's CPU, as its BTF tells: rq.prev_steal_time_rq
	# (CONFIG_PARAVIRT_TIME_ACCOUNTING), rq.prev_irq_time
	# (CONFIG_IRQ_TIME_ACCOUNTING)
	for part in stolen_ns:prev_steal_time_rq irq_ns:prev_irq_time; do
		kept=false
		btf_has_member rq "${part#*:}" && kept=true
		echo "${part%:*}: the kernel keeps it apart: $kept"
		[ "$(jqr "$EXT4_JSON" ".cases[0].phases[0].metrics.sched | has(\"${part%:*}\")")" = $kept ]
	done
	taken=$(($(sched_metric "$EXT4_JSON" cycles stolen_ns) + $(sched_metric "$EXT4_JSON" cycles irq_ns)))
	echo "wall $wall = on $on + off $off + stolen and irq $taken + unaccounted $un ($tasks task)"
	[ "$tasks" -eq 1 ]
	[ "$wall" -eq "$(jqr "$EXT4_JSON" '.cases[0].phases[0].wall_ns')" ]
	diff=$((on + off + taken + un - wall))
	[ "${diff#-}" -le $((wall / 50)) ]
	# the remainder is small: the budget is measured, not made up
	[ "$un" -le $((wall / 50)) ]
}

# The stolen time is what the host took, if anything: here ~0.02% of the
# time in bursts, so a run often has none and the two agree on 0; where it
# took some they agreed to the ns (4.3 ms of a 1 s write phase once).
# The peer's log has the kernel's own count of the task's arrivals on a
# CPU (sched_info.pcount): a switch-in neither program saw (1 in ~3,000
# under load) is told from last_arrival, as fsprof tells it. When the host
# takes the CPU between the two programs at one switch (bpftrace's, run
# first, raises an interrupt: a VM exit), fsprof's clock read is later by
# what was stolen, and the time moves between its wait and its stretch on
# the CPU (1.5-2.5 ms of 3-20 ms in 4 of 12 runs under the hog; once 1.95
# ms the other way, at a switch-out). It cannot be more than the host took
# from the CPUs in the phase, which the peer reads on every CPU: 1% of the
# phase here quiet, ~30% under the hog (lib/offcpu_phase_sums.py).
@test "off-CPU and stolen time per phase are bpftrace's on sched_switch within 3%, every wait counted alike" {
	run python3 "$LIB/offcpu_phase_sums.py" "$EXT4_JSON" "$BTLOG" \
		"$(cat "$SCRATCH.ext4.pid")" 0.03
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the text report says where each phase's time went" {
	run grep -A4 '^where the time went' "$SCRATCH.ext4.out"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '^cycles +wall [0-9.]+ s: on-CPU .*, off-CPU .*: journal_commit [0-9.]+ (s|ms) \([0-9]+%\)'
	echo "$output" | grep -q 'heaviest stack (journal_commit): jbd2_log_wait_commit < ext4_sync_file'
}

@test "an XFS fsync loop under the hdd model waits mostly in xfs_log_force" {
	cause=$(top_cause "$XFS_JSON" cycles)
	echo "largest off-CPU cause of cycles: $cause"
	jq '.cases[0].phases[0].metrics.sched' "$XFS_JSON"
	[ "$cause" = xfs_log_force ]
	off=$(sched_metric "$XFS_JSON" cycles offcpu_ns.xfs_log_force)
	wall=$(sched_metric "$XFS_JSON" cycles wall_ns)
	[ "$off" -ge $((wall / 3)) ]
}

# The stack memo (include/fsprof/sched.h): a sleeper whose path was seen
# before is named without a walk, and every 16th use is walked anyway and
# compared. On the fsync loop (four paths that repeat: the commit wait,
# writeback, the journal's space, the flush) most sleeps are named from
# the memo, and no check finds another stack.
@test "a remembered sleep stack is walked again every 16th use and found the same" {
	hits=$(sched_metric "$EXT4_JSON" cycles stack_memo_hits)
	checks=$(sched_metric "$EXT4_JSON" cycles stack_memo_checks)
	wrong=$(sched_metric "$EXT4_JSON" cycles stack_memo_wrong)
	walks=$(sched_metric "$EXT4_JSON" cycles stack_walks)
	out=$(sched_metric "$EXT4_JSON" cycles switch_out)
	rq=$(sched_metric "$EXT4_JSON" cycles offcpu_count.runqueue)
	echo "walks $walks, memo hits $hits, checks $checks, wrong $wrong, switch-outs $out, preempted $rq"
	[ "$hits" -gt 0 ]
	[ "$checks" -gt 0 ]
	[ "$wrong" -eq 0 ]
	# every 16th use on a CPU is a check: within 16 uses a CPU of U/16
	uses=$((hits + checks))
	d=$((checks * 16 - uses))
	[ "${d#-}" -lt $((16 * $(nproc))) ]
	# each switch-out is a sleep, named once (walked or remembered), or a
	# preemption, named by none; preemptions are counted at the switch-in
	# (a stretch across a phase end falls in the next phase)
	d=$((walks + hits + rq - out))
	[ "${d#-}" -le 2 ]
}

@test "a stack memo found wrong when re-walked is a caution on the phase's time budget" {
	jq '.cases[0].phases[0].metrics.sched.stack_memo_wrong = 3' "$EXT4_JSON" \
		>"$SCRATCH.wrong.json"
	run "$FSPROF" report "$SCRATCH.wrong.json"
	echo "$output"
	[ "$status" -eq 0 ]
	checks=$(sched_metric "$EXT4_JSON" cycles stack_memo_checks)
	[[ "$(echo "$output" | tr -s ' \n' ' ')" == *"caution: 3 of $checks re-walked stack memos named another stack"* ]]
	# the run itself: none wrong, no caution
	run "$FSPROF" report "$EXT4_JSON"
	[ "$status" -eq 0 ]
	[[ "$output" != *"re-walked stack memos"* ]]
}

@test "with FSPROF_SCHED_STACK_MEMO=0 every sleeper's stack is walked" {
	hits=$(sched_metric "$XFS_JSON" cycles stack_memo_hits)
	walks=$(sched_metric "$XFS_JSON" cycles stack_walks)
	out=$(sched_metric "$XFS_JSON" cycles switch_out)
	echo "walks $walks, memo hits $hits, switch-outs $out"
	[ "$hits" -eq 0 ]
	[ "$walks" -gt 100 ]
	[ "$walks" -le "$out" ]
}

# On an unthrottled loop over a fast disk, async readahead keeps ahead of
# the reader, which then sleeps a handful of times in a 30 ms phase (a CI
# run saw 6): too little to judge. Held to 32 MB/s, the reader waits for
# nearly every readahead window (blk-throttle releases them in 100 ms
# slices, so a few long waits rather than one per window).
@test "a cold seqio read with 4 KiB reads from a slow device sleeps mostly for read_io" {
	cause=$(top_cause "$SEQ_JSON" read sleep)
	echo "largest cause the read phase slept for: $cause"
	jq '.cases[0].phases[] | select(.name == "read") | .metrics.sched' "$SEQ_JSON"
	[ "$cause" = read_io ]
	[ "$(sched_metric "$SEQ_JSON" read offcpu_count.read_io)" -ge 5 ]
	off=$(sched_metric "$SEQ_JSON" read offcpu_ns.read_io)
	wall=$(sched_metric "$SEQ_JSON" read wall_ns)
	[ "$off" -ge $((wall / 2)) ]
}

# getc reads its file cold (bonnie's caches are dropped before it): its
# readahead keeps ahead of a byte a call on a quiet disk, but not when
# other writers hold the disk (122 ms of 3.26 s asleep on reads under the
# stress hog: 88.6% against 90%), so those waits are left out too. So is
# its close: bonnie++ fsyncs every file at close, and the read updated
# the file's atime (relatime: it was written after its last access), so
# the fsync waits for a jbd2 commit and its cache flush (114 ms of 1.02 s
# in a clean-clone run beside other builds: 88.8%).
@test "a CPU-bound phase (bonnie getc, a byte a call) is more than 90% on-CPU when it is not waiting for its reads or its closing fsync" {
	[ "$(jqr "$BON_JSON" '.cases[0].phases[] | select(.name == "getc") | .cache')" = dropped ]
	mostly_on_cpu "$BON_JSON" getc read_io journal_commit device_flush
}

@test "a warm re-read of a file (the page cache holds it) is more than 90% on-CPU and never sleeps" {
	[ "$(jqr "$WARM_JSON" '.cases[0].phases[] | select(.name == "read") | .cache')" = warm ]
	mostly_on_cpu "$WARM_JSON" read
	# asleep for less than a tenth of it
	off=$(sched_metric "$WARM_JSON" read offcpu_ns)
	rq=$(sched_metric "$WARM_JSON" read offcpu_ns.runqueue)
	echo "off-CPU $off ns"
	[ $(((off - rq) * 10)) -lt "$(sched_metric "$WARM_JSON" read wall_ns)" ]
}

@test "a phase of several processes reports thread-time and says so" {
	tasks=$(sched_metric "$BON_JSON" seeks tasks)
	forks=$(sched_metric "$BON_JSON" seeks forks)
	echo "seeks: $tasks tasks, $forks forked"
	# fsprof's main thread and its three seekers
	[ "$tasks" -ge 4 ]
	[ "$forks" -ge 3 ]
	# a phase's budget line, wrapped at 100 columns, joined again: every
	# line indented 9 but a heaviest-stack line continues the one before
	# (a sed join that left out every line beginning with h left a line
	# wrapped just before the "hypervisor" of "stolen by the hypervisor",
	# and the thread-time note after it, apart from its phase's line)
	joined=$(awk '/^         [^ ]/ && !/^         heaviest stack/ && n {
			sub(/^ +/, " "); buf = buf $0; next }
		{ if (n) print buf; buf = $0; n = 1 }
		END { if (n) print buf }' "$SCRATCH.bon.out")
	grep -E '^seeks +wall .*; +thread-time of [0-9]+ tasks' <<<"$joined"
	# one task alone: getc is not thread-time
	[ "$(sched_metric "$BON_JSON" getc tasks)" -eq 1 ]
	if grep -E '^getc +wall .*thread-time' <<<"$joined"; then
		false
	fi
}

@test "the heaviest stacks are in the JSON, symbolised and small" {
	run jq -r '[.cases[].phases[], .cases[].spill] | .[] |
		(.sched.top_stacks // [])[] |
		"\(.cause) \(.count) \(.total_ns) \(.frames | length) \(.frames | join(","))"' \
		"$EXT4_JSON" "$XFS_JSON" "$SEQ_JSON" "$BON_JSON"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 8 ]
	for l in "${lines[@]}"; do
		read -r cause count ns n frames <<<"$l"
		[ "$count" -gt 0 ]
		[ "$ns" -gt 0 ]
		[ "$n" -ge 1 ]
		[ "$n" -le 24 ]
		# every frame named: function+offset, never a bare address
		if echo "$frames" | tr , '\n' | grep -vqE '^[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+$'; then
			false
		fi
	done
	# at most 4 stacks a phase, and a few KiB of JSON for them
	run jq '[.cases[].phases[] | (.sched.top_stacks // []) | length] | max' "$EXT4_JSON"
	[ "$output" -le 4 ]
	size=$(jq -c '[.cases[].phases[].sched.top_stacks]' "$EXT4_JSON" | wc -c)
	echo "top_stacks of every phase: $size bytes"
	[ "$size" -lt 16384 ]
}

@test "without a stack map the domain is unavailable with the reason, and the run goes on" {
	cat "$SCRATCH.unav.out"
	[ "$(cat "$SCRATCH.unav.status")" -eq 0 ]
	grep -q 'sched domain unavailable: no stack map: kernel.perf_event_max_stack is 16' "$SCRATCH.unav.out"
	run jq -r '.cases[0].programs[] | select(.domain == "sched") | "\(.state) \(.reason)"' "$UNAV_JSON"
	echo "$output"
	[ "${#lines[@]}" -ge 1 ]
	if echo "$output" | grep -qv '^failed no stack map: kernel.perf_event_max_stack is 16'; then
		false
	fi
	# no time budget, but every phase and the other domains are there
	[ "$(jqr "$UNAV_JSON" '[.cases[0].phases[] | .metrics.sched] | map(select(. != null)) | length')" -eq 0 ]
	[ "$(jqr "$UNAV_JSON" '.cases[0].phases | length')" -eq 3 ]
	[ "$(jqr "$UNAV_JSON" '.cases[0].phases[0].block.traced')" = true ]
	[ "$(jqr "$UNAV_JSON" '.cases[0].complete')" = true ]
}
