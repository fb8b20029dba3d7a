#!/usr/bin/env bats
# The analyze stage on real runs (docs/rules.md): findings with evidence and
# advice, a bound verdict for every phase, and --verify proving the advice.
#
# Run 1: untar, a 10,000-file synthetic tree, on xfs under the hdd model,
#        with --verify=3 (the case, then 3 rounds of as-it-was and
#        logbsize=256k): rm-sync is log-IO bound, and the knob helps. Two
#        rounds leave Welch's interval a t of ~12 wide (df ~1): a CI run
#        measured x1.1+ faster and still could not exclude 1.
# Run 2: seqio 256 MiB on ext4, no model: healthy, no warning.
# Run 3: fsync, 100 files, on ext4 under the hdd model: journal-commit bound.
# Run 4: files1m, 300 files, on ext4 and ext4 with nodelalloc.

load helpers

setup_file() {
	load helpers
	scratch_create
	export UNTAR="$SCRATCH.untar.json" SEQ="$SCRATCH.seq.json"
	export FSYNC="$SCRATCH.fsync.json" DELALLOC="$SCRATCH.delalloc.json"

	"$FSPROF" run -w untar:files=10000 --fs xfs --device-model hdd \
		--verify=3 --scratch "$SCRATCH" --json "$UNTAR" \
		>"$SCRATCH.untar.out" 2>&1
	echo $? >"$SCRATCH.untar.status"
	"$FSPROF" run -q -w seqio --size 256M --fs ext4 --scratch "$SCRATCH" \
		--json "$SEQ" >"$SCRATCH.seq.out" 2>&1
	echo $? >"$SCRATCH.seq.status"
	"$FSPROF" run -q -w fsync:files=100 --fs ext4 --device-model hdd \
		--scratch "$SCRATCH" --json "$FSYNC" >"$SCRATCH.fsync.out" 2>&1
	echo $? >"$SCRATCH.fsync.status"
	"$FSPROF" run -q -w files1m:files=300 --fs ext4,ext4:mount=nodelalloc \
		--scratch "$SCRATCH" --json "$DELALLOC" \
		>"$SCRATCH.delalloc.out" 2>&1
	echo $? >"$SCRATCH.delalloc.status"
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".*
	scratch_remove
}

# the findings of one phase: jq over the first case with the given label
phase_findings() {
	jq -c --arg t "$2" --arg p "$3" '[.cases[] | select(.target_label == $t)][0]
		| .phases[] | select(.name == $p) | .findings' "$1"
}

@test "every run completed" {
	for r in untar seq fsync delalloc; do
		[ "$(cat "$SCRATCH.$r.status")" = 0 ] || {
			cat "$SCRATCH.$r.out"
			return 1
		}
	done
}

@test "xfs rm-sync under the hdd model is log-IO bound, with logbsize advice" {
	run jq -r '.cases[0].phases[] | select(.name == "rm-sync") |
		.verdict.bound, (.findings[] | select(.rule == "xfs-log-io-bound") |
		.severity, .advice.kind, .advice.option)' "$UNTAR"
	echo "$output"
	[ "${lines[0]}" = log ]
	[ "${lines[1]}" = warning ]
	[ "${lines[2]}" = mount ]
	[ "${lines[3]}" = logbsize=256k ]
	# its evidence: log writes' share of the phase, over the threshold
	run jq -e '.cases[0].phases[] | select(.name == "rm-sync") | .findings[]
		| select(.rule == "xfs-log-io-bound") | .evidence[]
		| select(.metric == "block.io_classes.log_write.busy_ns")
		| .share >= .threshold' "$UNTAR"
	[ "$status" -eq 0 ]
}

@test "--verify confirms logbsize=256k on rm-sync, with its numbers" {
	run jq -r '.cases[0].phases[] | select(.name == "rm-sync") | .findings[]
		| select(.rule == "xfs-log-io-bound") | .verified
		| .verdict, .repeats, (.before_samples_s | length),
		  (.after_samples_s | length), (.ratio > 1.1), (.ci95[0] > 1),
		  (.before_s > .after_s), .applied' "$UNTAR"
	echo "$output"
	[ "${lines[0]}" = confirmed ]
	[ "${lines[1]}" = 3 ]
	[ "${lines[2]}" = 3 ]
	[ "${lines[3]}" = 3 ]
	[ "${lines[4]}" = true ]
	[ "${lines[5]}" = true ]
	[ "${lines[6]}" = true ]
	[ "${lines[7]}" = "mount logbsize=256k" ]
	# the re-runs are not cases of the run
	[ "$(jq '.cases | length' "$UNTAR")" = 1 ]
}

@test "the text report shows verdicts and findings before the metric tables" {
	local out="$SCRATCH.untar.out" warn table verified
	warn=$(grep -n 'WARNING xfs-log-io-bound' "$out" | head -1 | cut -d: -f1)
	verified=$(grep -n 'verified: rm-sync .* with mount logbsize=256k' "$out" | head -1 | cut -d: -f1)
	table=$(grep -n '^phase  *wall s' "$out" | head -1 | cut -d: -f1)
	echo "warning at $warn, verified at $verified, table at $table"
	[ -n "$warn" ]
	[ -n "$verified" ]
	[ -n "$table" ]
	[ "$warn" -lt "$table" ]
	[ "$verified" -lt "$table" ]
	grep -q '^  rm-sync  *log bound' "$out"
	grep -q 'advice: mount with -o logbsize=256k' "$out"
}

@test "every phase of every run has exactly one bound verdict" {
	local f
	for f in "$UNTAR" "$SEQ" "$FSYNC" "$DELALLOC"; do
		run jq -r '.cases[].phases[] | .verdict.bound' "$f"
		[ "${#lines[@]}" -eq "$(jq '[.cases[].phases[]] | length' "$f")" ]
		for b in "${lines[@]}"; do
			case "$b" in
			device | cpu | cache | journal | log | throttle | lock | mixed) ;;
			*)
				echo "$f: bad verdict '$b'"
				return 1
				;;
			esac
		done
		run jq -e '[.cases[].phases[] | .verdict.text | length > 0] | all' "$f"
		[ "$status" -eq 0 ]
	done
}

@test "a healthy seqio write without a device model raises no warning" {
	run jq '[.cases[].phases[].findings[] | select(.severity == "warning")]
		| length' "$SEQ"
	echo "$output"
	jq -c '.cases[].phases[] | {name, verdict: .verdict.text,
		findings: [.findings[] | .rule]}' "$SEQ"
	[ "$output" = 0 ]
}

# A verdict from the time budget says where the workload's time went: device
# bound is at least half of it asleep on IO, which includes the IO path
# around the device's own busy time (a loop device's submission and its
# worker: direct_io 60% with the device busy 47% here; CI failed on busy
# 49.6% with a device verdict), so the busy time is checked only for a
# verdict from the shares, which rests on it.
@test "the seqio write's verdict agrees with its CPU and busy time" {
	run jq -r '.cases[0].phases[] | select(.name == "write") |
		.verdict.bound, .verdict.basis, .cpu.percent,
		(100 * .block.busy_ns / .wall_ns),
		(100 * ([.verdict.shares | to_entries[] |
			select(.key | startswith("offcpu.")) | .value] | max // 0))' "$SEQ"
	echo "$output"
	case "${lines[0]} ${lines[1]}" in
	"cpu "*) awk -v c="${lines[2]}" 'BEGIN { exit !(c >= 50) }' ;;
	"device time_budget")
		# on CPU what the waits leave, within the 2% the budget adds up to
		awk -v w="${lines[4]}" -v c="${lines[2]}" 'BEGIN { exit !(w >= 50 && c <= 100 - w + 2) }' ;;
	"device "*) awk -v b="${lines[3]}" 'BEGIN { exit !(b >= 50) }' ;;
	*) false ;;
	esac
}

@test "a warm re-read (--warm) is cache bound and raises no device finding" {
	run "$FSPROF" run -q -w seqio:size=64M --warm --fs ext4 \
		--scratch "$SCRATCH" --json "$SCRATCH.warm.json"
	[ "$status" -eq 0 ]
	jq -c '.cases[0].phases[] | select(.name == "read") | {cache, verdict,
		findings: [.findings[] | .rule], dev: .block.total.bytes,
		work: .workload.bytes}' "$SCRATCH.warm.json"
	[ "$(jqr "$SCRATCH.warm.json" '.cases[0].phases[] | select(.name == "read") | .cache')" = warm ]
	[ "$(jqr "$SCRATCH.warm.json" '.cases[0].phases[] | select(.name == "read") | .verdict.bound')" = cache ]
	[ "$(jqr "$SCRATCH.warm.json" '[.cases[0].phases[] | select(.name == "read") |
		.findings[] | select(.rule == "device-bound" or .severity == "warning")] | length')" = 0 ]
	rm -f "$SCRATCH.warm.json"
}

@test "an ext4 fsync loop under the hdd model is journal-commit bound" {
	run jq -r '.cases[0].phases[] | select(.name == "cycles") |
		.verdict.bound, (.findings[] | select(.rule == "jbd2-commit-bound")
		| .severity, .advice.kind)' "$FSYNC"
	echo "$output"
	[ "${lines[0]}" = journal ]
	[ "${lines[1]}" = warning ]
	# fast_commit only where the kernel has it; else the application's pattern
	case "${lines[2]}" in mkfs | workload) ;; *) false ;; esac
}

@test "nodelalloc gets the delalloc finding, the default mount does not" {
	run phase_findings "$DELALLOC" ext4:mount=nodelalloc create
	echo "$output"
	echo "$output" | jq -e 'map(select(.rule == "ext4-delalloc-off" and
		.severity == "warning" and .advice.option == "delalloc")) | length == 1'
	run phase_findings "$DELALLOC" ext4 create
	echo "$output" | jq -e 'map(select(.rule == "ext4-delalloc-off")) | length == 0'
}

@test "findings have the documented shape; targets are compared" {
	run jq -e '[.cases[].phases[].findings[] |
		(.rule | type == "string") and (.severity | IN("warning", "info", "ok")) and
		(.title | type == "string") and (.mechanism | length > 0) and
		(.evidence | type == "array" and length > 0) and
		(.evidence | all(has("metric") and has("value") and has("share") and
			has("threshold") and (.text | length > 0))) and
		(.advice == null or (.advice.kind | IN("mount", "mkfs", "sysctl", "workload", "none"))) and
		has("verified")] | all' "$UNTAR" "$SEQ" "$FSYNC" "$DELALLOC"
	echo "$output"
	[ "$status" -eq 0 ]
	run jq -e '.comparisons | type == "array" and length > 0 and
		all(has("workload") and has("phase") and (.targets | length == 2)
		and (.findings | type == "array"))' "$DELALLOC"
	[ "$status" -eq 0 ]
}

@test "--verify leaves no mount, loop device, BPF program or file behind" {
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
