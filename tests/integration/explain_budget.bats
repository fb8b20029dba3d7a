#!/usr/bin/env bats
# The analyze stage and the sched time budget (docs/rules.md), on real runs:
# - device-bound from the workload's device waits: 4 KiB O_DIRECT, one
#   request at a time, on a device held to 400 IOPS each way (2.5 ms a
#   request against the tens of microseconds of CPU around it: busy and
#   the reader's direct_io sleep both ~99%, measured). Without the model
#   the device was idle between requests (busy 70-81%, waits 80-87%) and
#   the phase's CPU path was a fifth of its time, so a host taking the
#   vCPU moved the verdict: a clean-clone CI saw stolen 41-49% of the
#   write phase in three runs in a row, and the verdict said cpu, rightly.
#   The rule's other case (waits >= 80%, busy below 80%) is made from the
#   real run's numbers and re-analysed. 2 MiB a phase, 512 requests
#   (4 MiB before: the shares are sums over the requests, each 2.5 ms at
#   the model's rate, and 512 make them as well as 1,024; a phase ~1.3 s,
#   the run 5.7 s -> ~3 s);
# - a budget that cannot say where most of the time went (its stacks
#   lost: the run's causes renamed no_stack, then re-analysed by fsprof
#   report) decides nothing: the verdict comes from busy time and CPU;
# - cross-target findings name a resource only when it explains at least
#   half of the difference, else say that nothing measured does (afd on xfs
#   against xfs mounted wsync, whose every namespace operation forces the
#   log: 18-29x as long, its copiers and producers asleep in xfs_log_force.
#   It was ext4 against xfs, whose copiers sleep on directory locks: 1.64x
#   on an idle machine, but 1.3x, 1.9x and no finding at all under a CPU
#   hog, where both are waiting for a CPU, against the 20% a single run
#   can move);
# - mdcreate create on xfs on a device held to 25 write IOPS: the creates
#   on the CPU, then a syncfs whose full iclogs are nearly all the device
#   writes, so the workload waits on the log most of its time - log-IO
#   bound, and --verify=3 confirms logbsize=256k. Under the hdd model (150
#   IOPS) the log wait was 48-55% of the phase on an idle machine and
#   27-51% on a loaded one, whose runqueue waits (35-63%) count in the
#   budget: verdicts mixed and cpu. At 25 IOPS the log's iclog writes
#   take seconds against the creates' CPU and waits for it: with 10,000
#   files log wait 78-86% under load, --verify 3.4x (CI 2.4-4.8); with
#   5,000 (half the time: the log's share is the same, both halve) 97% on
#   an idle machine, --verify 5.2x (CI 5.0-5.4); with 2,500 (the run
#   20 s -> 11.4 s: seven cases, each its create's syncfs, ~2.3 s, and
#   ~1 s besides) the create 1.17 s, xfs_log_force 96% of it, log writes
#   89% of the device's work, --verify 3.57x (CI 3.54-3.61), twice; with
#   1,250 (the run 11.7 s -> 7.2-7.4 s; session 16) the create 0.67 s,
#   xfs_log_force 96% of it, log writes 81-87% of the device's work,
#   --verify 2.94-2.96x (CI 2.86-3.06), three times: the creates' CPU and
#   the iclogs their log fills both halve.

load helpers

setup_file() {
	load helpers
	scratch_create
	export DIO="$SCRATCH.dio.json" AFD="$SCRATCH.afd.json"
	export MDC="$SCRATCH.mdc.json"

	"$FSPROF" run -q --no-db -w seqio:size=2M,bs=4k,direct=yes --fs xfs \
		--device-model custom:riops=400,wiops=400 \
		--scratch "$SCRATCH" --json "$DIO" >"$SCRATCH.dio.out" 2>&1
	echo $? >"$SCRATCH.dio.status"
	"$FSPROF" run -q --no-db -w afd:files=1500 --fs xfs,xfs:mount=wsync \
		--scratch "$SCRATCH" --json "$AFD" >"$SCRATCH.afd.out" 2>&1
	echo $? >"$SCRATCH.afd.status"
	"$FSPROF" run -q --no-db -w mdcreate:files=1250 --fs xfs \
		--device-model custom:wiops=25 --verify=3 --scratch "$SCRATCH" --json "$MDC" \
		>"$SCRATCH.mdc.out" 2>&1
	echo $? >"$SCRATCH.mdc.status"
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".*
	scratch_remove
}

@test "every run completed, with a time budget" {
	for r in dio afd mdc; do
		[ "$(cat "$SCRATCH.$r.status")" = 0 ] || {
			cat "$SCRATCH.$r.out"
			return 1
		}
	done
	[ "$(jqr "$DIO" '.cases[0].phases[0].verdict.basis')" = time_budget ]
}

@test "4 KiB O_DIRECT requests one at a time are device bound, with the small-request advice" {
	# per phase: busy share, the budget's device waits, the device-bound finding
	run jq -c '.cases[0].phases[] | select(.name == "write" or .name == "read") |
		{name, bound: .verdict.bound, busy: (.block.busy_ns / .wall_ns),
		 qd: .block.inflight.avg, max_inflight: .block.inflight.max,
		 unseen: ([.block.io_classes[].issuers[].completion_unseen] | add),
		 waited: ([.sched.share_of_wall | to_entries[] |
			select(.key | IN("read_io", "direct_io", "writeback_wait",
				"device_flush", "blk_queue")) | .value] | add),
		 dev: [.findings[] | select(.rule == "device-bound") |
			{severity, kind: .advice.kind, evidence: [.evidence[].text]}]}' "$DIO"
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	# The finding's line (src/analyze/thresholds.h): busy >= 80%, or the
	# workload asleep on the device >= 80% of its time while the device was
	# busy at least half the phase. Held to 400 IOPS the reader is asleep
	# on the device ~99% of each phase, however busy the host. The device
	# is busy ~99% on a quiet host, but not on a loaded one: between a
	# completion and the next request it idles while the completion waits
	# for a CPU (XFS's unwritten-extent conversion runs in a kworker):
	# 80-92% beside two emulated guests here, 71% in one CI run (asleep
	# 98%). So the test holds the second line, far from both its limits.
	local advised=0
	for l in "${lines[@]}"; do
		[ "$(jq -r .bound <<<"$l")" = device ]
		jq -e '.waited >= 0.9 and .busy >= 0.6' <<<"$l"
		[ "$(jq -r '.dev | length' <<<"$l")" = 1 ]
		# A request the kernel never reported complete stays in the
		# in-flight count until its address is used again or its phase
		# ends (docs/metrics.md, a known gap): a phase that lost some can
		# show a serial reader at queue depth 2.6 (11 lost in a 2.9 s read
		# once), and then the one-at-a-time advice is not given. Every
		# other phase must have it.
		if jq -e '.unseen > 0 and .max_inflight > 1 and .qd >= 1.5' <<<"$l" >/dev/null; then
			echo "$(jq -r .name <<<"$l"): $(jq -r .unseen <<<"$l") completions lost, queue depth $(jq -r .qd <<<"$l"): the advice is not checked"
			continue
		fi
		[ "$(jq -r '.dev[0].severity' <<<"$l")" = info ]
		[ "$(jq -r '.dev[0].kind' <<<"$l")" = workload ]
		jq -e '.dev[0].evidence | any(test("one small request at a time"))' <<<"$l"
		advised=$((advised + 1))
	done
	[ "$advised" -ge 1 ]
	# a healthy run: no warning
	[ "$(jqr "$DIO" '[.cases[].phases[].findings[] | select(.severity == "warning")] | length')" = 0 ]
}

# The rule's case of a device idle between requests - the workload waits
# >= 80% on the device, the device is busy less than 80% - sat at its line
# in a live run without a device model (waits 80-87%, busy 70-81%; a CI run
# saw 80.1% and 80.5%), so it is made from the real run: its device waits
# set to 85% of the phase, its busy time to 60%, the time taken from its
# CPU (stolen, irq) to none, then re-analysed by fsprof report --reanalyze.
# (A CI run's read phase kept its stolen 41% beside the made 85% + 15%: the
# budget then held 141% of the wall and the waits were 60% of it.)
@test "a workload asleep 85% on the device is device bound even with the device busy 60%" {
	local made="$SCRATCH.made.json"
	# one request at a time: in flight 60% of the phase, as busy (a
	# request the kernel lost can sit in the real run's in-flight time)
	jq '.cases[0].phases[] |= (if .name == "read" then
		.wall_ns as $w | .block.busy_ns = ($w * 0.6 | floor) |
		.block.inflight |= (.time_ns = ($w * 0.6 | floor) | .avg = 0.6 | .max = 1) |
		.metrics.sched |= (with_entries(select(.key |
			test("^(offcpu_(ns|count)\\.|stolen_ns$|irq_ns$)") | not)) +
			{"offcpu_ns.direct_io": ($w * 0.85 | floor),
			 "offcpu_count.direct_io": 30000,
			 "oncpu_ns": ($w * 0.15 | floor), "unaccounted_ns": 0})
		else . end)' "$DIO" >"$made"
	run "$FSPROF" report --reanalyze -q "$made" --format json
	[ "$status" -eq 0 ]
	echo "$output" >"$made.again"
	run jq -c '.cases[0].phases[] | select(.name == "read") |
		{bound: .verdict.bound, dev: [.findings[] |
			select(.rule == "device-bound") | {severity, kind: .advice.kind,
			evidence: [.evidence[].text]}]}' \
		"$made.again"
	echo "$output"
	[ "$(jq -r .bound <<<"$output")" = device ]
	[ "$(jq -r '.dev | length' <<<"$output")" = 1 ]
	[ "$(jq -r '.dev[0].severity' <<<"$output")" = info ]
	[ "$(jq -r '.dev[0].kind' <<<"$output")" = workload ]
	# and below the line it is not: busy 60%, waits 50%
	jq '.cases[0].phases[] |= (if .name == "read" then
		.wall_ns as $w | .metrics.sched["offcpu_ns.direct_io"] = ($w * 0.5 | floor) |
		.metrics.sched["oncpu_ns"] = ($w * 0.5 | floor) else . end)' "$made" >"$made.below"
	run "$FSPROF" report --reanalyze -q "$made.below" --format json
	[ "$status" -eq 0 ]
	[ "$(jq '[.cases[0].phases[] | select(.name == "read") | .findings[] | select(.rule == "device-bound")] | length' <<<"$output")" = 0 ]
}

@test "a budget whose stacks were lost decides nothing: the verdict follows busy time" {
	local lost="$SCRATCH.lost.json" again="$SCRATCH.again.json"
	# every named off-CPU cause of the real run becomes no_stack
	jq '.cases[0].phases[] |= (.metrics.sched |= (
		(to_entries | map(select(.key | test("^offcpu_ns\\.")) | .value) | add) as $off
		| with_entries(select(.key | test("^offcpu_(ns|count)\\.") | not))
		| . + {"offcpu_ns.no_stack": $off}))' "$DIO" >"$lost"
	run "$FSPROF" report "$lost" --format json
	[ "$status" -eq 0 ]
	echo "$output" >"$again"
	jq -c '.cases[0].phases[] | {name, v: .verdict,
		busy: (.block.busy_ns / .wall_ns), cpu: .cpu.percent}' "$again"
	[ "$(jqr "$again" '.cases[0].phases[] | select(.name == "write") | .verdict.basis')" = device_cpu_shares ]
	[ "$(jqr "$again" '.cases[0].phases[] | select(.name == "write") | .verdict.bound')" = device ]
	jqr "$again" '.cases[0].phases[] | select(.name == "write") | .verdict.text' |
		grep -q 'the sched time budget could not say where'
	# the same run as measured still decides from its budget
	[ "$(jqr "$DIO" '.cases[0].phases[] | select(.name == "write") | .verdict.basis')" = time_budget ]
	rm -f "$lost" "$again"
}

@test "a cross-target finding names a resource only when it explains half the difference" {
	# the phases, against the 0.5 s a comparison needs
	jq -r '[.cases[] | "\(.target_label) \(.phases[0].name) \(.phases[0].wall_ns / 1e9) s"] | join(", ")' "$AFD"
	run jq -c '.comparisons[] | .findings[] | select(.rule == "target-difference") |
		{title, ev: [.evidence[] | {metric, share, text}], mechanism}' "$AFD"
	echo "$output"
	# afd on xfs mounted wsync is many times slower (29x here), far beyond
	# one run's 20%. A comparison needs a phase of 0.5 s (SHORT_PHASE_NS):
	# 1000 files took wsync 0.49-0.52 s, and a clean-clone run found no
	# finding at all (0.486 s); 3000 files held it near 1.5 s then. In
	# session 17 the wsync case's log forces each flushed the disk's cache
	# (12,872 flushes for 3000 files, 21 without wsync): 3000 files took
	# 4.2-9.9 s, 1000 files 1.07-1.22 s and 1500 files 2.1 s, four times
	# the line, as 3000 files were three times it
	[ "${#lines[@]}" -ge 1 ]
	for l in "${lines[@]}"; do
		# the first resource after the wall times explains at least half,
		# or the finding says nothing measured does
		jq -e '(.ev[1].share >= 0.5) or
			any(.ev[]; .text | test("no measured resource explains"))' <<<"$l"
		if jq -e '.ev[1].share < 0.5' <<<"$l" >/dev/null; then
			jq -e '.mechanism | test("None of the measured resources")' <<<"$l"
		fi
	done
}

@test "the budget's view of a comparison is in wall seconds, not summed thread time" {
	run jq -c '.comparisons[] | .findings[] | .evidence[] |
		select(.metric == "sched.offcpu_ns")' "$AFD"
	echo "$output"
	[ "${#lines[@]}" -ge 1 ]
	# 9 processes: summed thread time is many times the wall; the budget
	# cause's growth is its share x wall, so it cannot exceed the phases
	local walls
	walls=$(jq '[.cases[].phases[] | .wall_ns] | add' "$AFD")
	for l in "${lines[@]}"; do
		jq -e --argjson w "$walls" '.value <= $w' <<<"$l"
	done
}

@test "a create that waits on its syncfs's full iclogs is log-IO bound, and logbsize=256k helps" {
	run jq -c '.cases[0].phases[] | select(.name == "create") |
		{bound: .verdict.bound, busy: (.block.busy_ns / .wall_ns),
		 log: (.block.io_classes.log_write.busy_ns / .wall_ns),
		 f: [.findings[] | select(.rule == "xfs-log-io-bound") |
			{severity, option: .advice.option, v: .verified.verdict,
			 ratio: .verified.ratio,
			 dev: [.evidence[] | .text | capture("and (?<p>[0-9]+)% of the device.s work").p | tonumber]}]}' "$MDC"
	echo "$output"
	[ "$(jq -r .bound <<<"$output")" = log ]
	[ "$(jq -r '.f | length' <<<"$output")" = 1 ]
	[ "$(jq -r '.f[0].severity' <<<"$output")" = warning ]
	[ "$(jq -r '.f[0].option' <<<"$output")" = logbsize=256k ]
	[ "$(jq -r '.f[0].v' <<<"$output")" = confirmed ]
	# the log writes were most of what the device did, whatever their share
	# of the phase (the creates on the CPU come first)
	jq -e '.f[0].dev[0] >= 50' <<<"$output"
}

@test "nothing left behind" {
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
