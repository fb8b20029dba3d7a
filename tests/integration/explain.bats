#!/usr/bin/env bats
# The analyze stage on real runs (docs/rules.md): findings with evidence and
# advice, a bound verdict for every phase, and --verify proving the advice.
#
# Run 1: untar of 20,000 empty files (a tarball made here, 15 to a
#        directory) on xfs under the hdd-15k model (write-through, seed
#        001's disk): rm-sync is log-IO bound, with logbsize advice (its
#        32 KiB iclogs each a media write: log writes nearly all of the
#        phase's device time against the rule's 50%; under the 7200 rpm
#        hdd its write cache absorbs them). At 5,000 files rm-sync took
#        60-70 ms, under the rules' 100 ms floor for a warning; 12,000 made
#        it 0.126-0.138 s, once under 0.1 s (the iclogs XFS keeps in flight
#        stream or wait a turn as the CPU's timing goes); 20,000 make it
#        ~0.2 s. rm-sync is the unlinks' log: the files' data plays no part
#        in it, but the synthetic kernel tree's 385 MB took ex-sync 13.1 s
#        of the run's 15.4 s (a positioning per file on the seeking
#        model). Empty files: rm-sync 0.19-0.21 s, log writes 0.84-0.86 of
#        it (the synthetic tree's: 0.206 s), the run 1-2 s.
# Run 2: seqio 128 MiB on ext4, no model: healthy, no warning (256 MiB
#        before; the checks take either verdict, cpu or device).
# Run 3: fsync, 10 files, on ext4 under the hdd model: journal-commit
#        bound, with --verify=$VERIFY_CAP: rounds of as-it-was and
#        mkfs -O fast_commit until the interval decides, at most
#        VERIFY_CAP. Each fsync's journal commit becomes one fast-commit
#        block under the model's 150 writes/s: with 100 files 6.6-7.0 s ->
#        5.3-5.7 s (1.22x), 50 files 3.31 -> 2.61 s (1.27x, CI
#        1.25-1.28), 30 files 2.01 -> 1.61 s (1.25x, CI 1.23-1.27), each
#        decided at the third round (the minimum), the samples within 0.5%
#        of each other: the ratio is the throttle's, set per fsync, not the
#        count's. A round is two cases (~1.5 s each besides the phase), so
#        20 files took the file from 73 s to 34-39 s. 20 files: the cycles
#        1.35 s, the run 9.6-9.8 s, 1.26-1.30x (CI low 1.18-1.26); 10
#        files (20 fsyncs, each its own commit: twice the per-operation
#        pattern's 10): cycles 0.68 s, the run 5.2-5.4 s, 1.28-1.29x (CI
#        low 1.21-1.24), decided at round 3 each time. The phase's own IO
#        makes its time (the throttle), not the CPU, and all of it lands
#        inside the phase. (rm-sync's time, verified before, moves with how
#        much of the log XFS writes between remove and rm-sync: 0.02-0.58 s
#        in 6 runs.) A fixed count was sometimes too few (two rounds:
#        Welch's t ~12 at df ~1).
# Run 4: files1m, 200 files, on ext4 and ext4 with nodelalloc (create
#        0.3-0.7 s, the rules' floor 0.1 s; 1000 writes needed, 51,200
#        made; 300 files before).

load helpers

# --verify's cap here: fast_commit's 1.22x with 3% noise a run decides at
# round 3 (the minimum); 8 leaves 6 looks, each at 0.05 / 6, for noisier
# runs (each round ~6 s here)
VERIFY_CAP=8

setup_file() {
	load helpers
	scratch_create
	export UNTAR="$SCRATCH.untar.json" SEQ="$SCRATCH.seq.json"
	export FSYNC="$SCRATCH.fsync.json" DELALLOC="$SCRATCH.delalloc.json"

	# 20,000 empty files, 15 to a directory, 40 directories to a parent
	python3 "$LIB/empty_tree_tar.py" "$SCRATCH.empty.tar" 20000
	"$FSPROF" run -w untar:tarball="$SCRATCH.empty.tar" --fs xfs --device-model hdd-15k \
		--scratch "$SCRATCH" --json "$UNTAR" \
		>"$SCRATCH.untar.out" 2>&1
	echo $? >"$SCRATCH.untar.status"
	"$FSPROF" run -q -w seqio --size 128M --fs ext4 --scratch "$SCRATCH" \
		--json "$SEQ" >"$SCRATCH.seq.out" 2>&1
	echo $? >"$SCRATCH.seq.status"
	"$FSPROF" run -w fsync:files=10 --fs ext4 --device-model hdd \
		--verify=$VERIFY_CAP --scratch "$SCRATCH" --json "$FSYNC" \
		>"$SCRATCH.fsync.out" 2>&1
	echo $? >"$SCRATCH.fsync.status"
	"$FSPROF" run -q -w files1m:files=200 --fs ext4,ext4:mount=nodelalloc \
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

@test "xfs rm-sync under the hdd-15k model is log-IO bound, with logbsize advice" {
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
	# in the TAP log: the margin
	jq -r '.cases[0].phases[] | select(.name == "rm-sync") | "# rm-sync \(.wall_ns / 1e9) s: log writes \(.findings[]
		| select(.rule == "xfs-log-io-bound") | .evidence[]
		| select(.metric == "block.io_classes.log_write.busy_ns") | .share) of it (line 0.5)"' "$UNTAR" >&3
}

# the fsync cycles' verification (JSON) of its fast_commit advice (the
# advice where the kernel has it: /sys/fs/ext4/features/fast_commit)
fsync_verified() {
	jq '.cases[0].phases[] | select(.name == "cycles") | .findings[]
		| select(.rule == "jbd2-commit-bound" and .advice.kind == "mkfs")
		| .verified' "$FSYNC"
}

@test "--verify confirms fast_commit on the fsync cycles, with its numbers" {
	[ -e /sys/fs/ext4/features/fast_commit ] || skip "no fast_commit in this kernel: the advice is the workload's"
	run jq -r '.verdict, .stopped, .repeats, .max_repeats,
		(.before_samples_s | length), (.after_samples_s | length),
		(.ratio > 1.1), (.ci95[0] > 1), (.before_s > .after_s), .applied' <<<"$(fsync_verified)"
	echo "$output"
	# in the TAP log: the rounds it took
	fsync_verified | jq -r '"# --verify: \(.verdict) (\(.stopped)) after \(.repeats) of at most \(.max_repeats) rounds, \(.ratio)x, CI \(.ci95)"' >&3
	[ "${lines[0]}" = confirmed ]
	# decided by its interval, between the minimum and the cap
	[ "${lines[1]}" = decided ]
	[ "${lines[2]}" -ge 3 ]
	[ "${lines[2]}" -le "$VERIFY_CAP" ]
	[ "${lines[3]}" = "$VERIFY_CAP" ]
	# every round ran both sides
	[ "${lines[4]}" = "${lines[2]}" ]
	[ "${lines[5]}" = "${lines[2]}" ]
	[ "${lines[6]}" = true ]
	[ "${lines[7]}" = true ]
	[ "${lines[8]}" = true ]
	[ "${lines[9]}" = "mkfs -O fast_commit" ]
	# the re-runs are not cases of the run
	[ "$(jq '.cases | length' "$FSYNC")" = 1 ]
}

@test "--verify's interval is Welch's on the log times, at the 5% split over its looks" {
	[ -e /sys/fs/ext4/features/fast_commit ] || skip "no fast_commit in this kernel: the advice is the workload's"
	fsync_verified >"$SCRATCH.verified.json"
	cat "$SCRATCH.verified.json"
	/usr/bin/python3 - "$SCRATCH.verified.json" "$VERIFY_CAP" <<'PY'
import json, math, sys
from scipy import stats
v = json.load(open(sys.argv[1]))
cap = int(sys.argv[2])
# one look after every round from the 3rd to the cap, 0.05 split evenly
assert math.isclose(v["look_alpha"], 0.05 / (cap - 2), rel_tol=1e-12), v["look_alpha"]
b = [math.log(x) for x in v["before_samples_s"]]
a = [math.log(x) for x in v["after_samples_s"]]
def mean_var(x):
    m = sum(x) / len(x)
    return m, sum((y - m) ** 2 for y in x) / (len(x) - 1)
mb, vb = mean_var(b)
ma, va = mean_var(a)
qb, qa = vb / len(b), va / len(a)
df = (qb + qa) ** 2 / (qb * qb / (len(b) - 1) + qa * qa / (len(a) - 1))
half = stats.t.ppf(1 - v["look_alpha"] / 2, df) * math.sqrt(qb + qa)
lo, hi = math.exp(mb - ma - half), math.exp(mb - ma + half)
print("scipy: ratio", math.exp(mb - ma), "interval", lo, hi)
assert math.isclose(v["ratio"], math.exp(mb - ma), rel_tol=1e-6)
assert math.isclose(v["ci95"][0], lo, rel_tol=1e-6), (v["ci95"], lo)
assert math.isclose(v["ci95"][1], hi, rel_tol=1e-6), (v["ci95"], hi)
PY
}

@test "the text report shows verdicts and findings before the metric tables" {
	local out="$SCRATCH.untar.out" warn table
	warn=$(grep -n 'WARNING xfs-log-io-bound' "$out" | head -1 | cut -d: -f1)
	table=$(grep -n '^phase  *wall s' "$out" | head -1 | cut -d: -f1)
	echo "warning at $warn, table at $table"
	[ -n "$warn" ]
	[ -n "$table" ]
	[ "$warn" -lt "$table" ]
	grep -qE '^  rm-sync\*? +[0-9.]+ m?s: log bound' "$out"
	grep -q 'advice: mount with -o logbsize=256k' "$out"
}

@test "the text report's verification: speed-up, rounds and interval, before the tables" {
	[ -e /sys/fs/ext4/features/fast_commit ] || skip "no fast_commit in this kernel: the advice is the workload's"
	local out="$SCRATCH.fsync.out" verified table
	verified=$(grep -n 'verified: cycles .* with mkfs -O fast_commit' "$out" | head -1 | cut -d: -f1)
	table=$(grep -n '^phase  *wall s' "$out" | head -1 | cut -d: -f1)
	echo "verified at $verified, table at $table"
	[ -n "$verified" ]
	[ -n "$table" ]
	[ "$verified" -lt "$table" ]
	# the line, its wrapped lines joined
	tr -s ' \n' ' ' <"$out" | grep -qE 'verified: cycles [0-9.]+ s -> [0-9.]+ s with mkfs -O fast_commit: [0-9.]+x faster \([0-9]+ rounds, 95% CI [0-9.]+x-[0-9.]+x\): confirmed'
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
# verdict from the shares, which rests on it. A device verdict from the
# budget sums the device's causes: under the stress hog one was 35% of 53
# (the test had asked the largest alone to be half: 1 of 3 failed).
# A budget verdict's share is taken from the whole budget the JSON records
# (sched.share_of_wall: on CPU and every cause): the verdict lists only the
# causes of 5% or more, and the small ones it leaves out count too (under
# the stress hog: a cpu verdict with on CPU 47.8% the only CPU share listed,
# its runqueue, irq and stolen time under 5% each making up the rest).
@test "the seqio write's verdict agrees with its CPU and busy time" {
	run jq -r '.cases[0].phases[] | select(.name == "write") |
		.verdict.bound, .verdict.basis, .cpu.percent,
		(100 * .block.busy_ns / .wall_ns),
		(100 * ([.verdict.shares | to_entries[] |
			select(.key | startswith("offcpu.")) | .value] | max // 0)),
		(.sched.share_of_wall as $s | if $s == null then
			error("no sched.share_of_wall: no time budget") else
		100 * ($s.oncpu + ([$s |
			to_entries[] | select(.key == "runqueue" or
			.key == "stolen" or .key == "irq") | .value] | add // 0))
		/ ($s.oncpu + $s.unaccounted + ([$s | to_entries[] |
			select(.key as $k | ["oncpu", "offcpu", "unaccounted",
			"sleep", "wait_child"] | index($k) | not) | .value]
			| add // 0)) end)' "$SEQ"
	echo "$output"
	case "${lines[0]} ${lines[1]}" in
	# on a CPU or waiting for one (a loaded machine: on CPU 11%, runqueue
	# 62%): the budget's CPU share is the verdict's basis, half or more
	# (0.01 for the rounding of the JSON's shares)
	"cpu time_budget") awk -v c="${lines[5]}" 'BEGIN { exit !(c >= 50 - 0.01) }' ;;
	"cpu "*) awk -v c="${lines[2]}" 'BEGIN { exit !(c >= 50) }' ;;
	"device time_budget")
		# device bound is the device's causes together at least half
		# (read_io, writeback_wait, direct_io...: one alone may be 35%
		# of it, as under the stress hog), so what is on or waiting for
		# a CPU is at most half; and on CPU is what the largest wait
		# leaves, within the 2% between rusage and the budget
		awk -v w="${lines[4]}" -v c="${lines[2]}" -v o="${lines[5]}" \
			'BEGIN { exit !(o <= 50 + 0.01 && c <= 100 - w + 2) }' ;;
	"device "*) awk -v b="${lines[3]}" 'BEGIN { exit !(b >= 50) }' ;;
	# neither half: on or waiting for a CPU under half, and no wait at
	# half either (a clean-clone run: on CPU 49%, the largest wait 31%,
	# the device busy 57%: the copy into the cache and the writeback
	# between them)
	"mixed time_budget")
		awk -v w="${lines[4]}" -v o="${lines[5]}" \
			'BEGIN { exit !(o < 50 + 0.01 && w < 50 + 0.01) }' ;;
	*) false ;;
	esac
}

# drop_caches is machine-wide: a read phase of another fsprof (a test file
# run alongside) empties this one's cache between its write and its read
# (seen twice: the whole 64 MiB read from the device). The claim is about
# a read the cache served, so a run whose read went to the device for more
# than a tenth of its data is run again, at most 3 times.
@test "a warm re-read (--warm) is cache bound and raises no device finding" {
	local try
	for try in 1 2 3; do
		run "$FSPROF" run -q -w seqio:size=64M --warm --fs ext4 \
			--scratch "$SCRATCH" --json "$SCRATCH.warm.json"
		[ "$status" -eq 0 ]
		jq -e '.cases[0].phases[] | select(.name == "read") |
			.block.total.bytes * 10 < .workload.bytes' "$SCRATCH.warm.json" && break
		echo "try $try: the cache was emptied under it"
	done
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
	# in the TAP log: how far the phases are from the rules' 0.1 s floor
	jq -r '"# create: " + ([.cases[] | "\(.target_label) \(.phases[] | select(.name == "create") | .wall_ns / 1e9) s"] | join(", ")) + " (rules need 0.1 s)"' "$DELALLOC" >&3
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
