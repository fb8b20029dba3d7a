#!/usr/bin/env bats
# The durability rules across setups the other files never run (issue 32):
# whoever asks for the commits, log forces or btrfs log syncs - O_SYNC,
# O_DSYNC and fdatasync-per-write (the sync= knob), a sync mount, wsync,
# dirsync and a chattr +D directory, data=journal, fast commits that fall
# back, a user's own `dd oflag=dsync` under fsprof trace - on ext4, xfs and
# btrfs, the rule of the mechanism fires,
# names the source, gives the source's advice, and no sentence states a
# quantity its numbers do not hold; the healthy controls (no sync, default
# mounts) get no warning at all. Unthrottled loop devices: each answer
# follows from one commit or force per operation, not from a device speed.
#
# Runs (about 22 s in all; --warm where a cold phase is not what a test
# reads: no unmount and cache drop before the read and remove phases):
#   SYNC   seqio:size=2M with sync=odsync (512 O_DSYNC writes), with
#          sync=osync and with sync=fdatasync on ext4, xfs, btrfs, one run
#          (512 writes: 0.2-0.5 s at 0.4-1 ms a write)
#   MOUNT  files1m:files=600,filesize=8k on xfs:mount=wsync and ext4 and
#          xfs with mount=dirsync: xfs's creates and removes take 0.2 s,
#          twice the rules' floor
#   SYNCM  files1m:files=300,filesize=8k on ext4:mount=sync and
#          btrfs:mount=sync: a commit per write, create and unlink makes
#          half the files 0.57-0.73 s of creates (1.1 s at 600)
#   DJ     fsync:files=200 on ext4:mount=data=journal, ext4 with fast
#          commits (they serve the fsyncs), btrfs (tree-log syncs)
#   FC     fsprof trace --fs ext4:mkfs=-O fast_commit of 1000 writes, each
#          with an xattr set and an fsync: every fast commit falls back
#   CHATTR fsprof trace --fs ext4 of 300 creates and unlinks in a chattr +D
#          directory
#   TRACE  fsprof trace --fs xfs -- dd bs=4k count=800 oflag=dsync
#   AA     fsync:files=100 on ext4,ext4,xfs,xfs and seqio:size=2M,sync=odsync
#          on ext4,ext4, four repeats: three A/A diffs (a count is decided
#          from 4 runs a side at the earliest)
#   CTL    files1m:files=2000,filesize=64k on ext4, xfs, btrfs and
#          btrfs:mount=dirsync (bdirsync: btrfs ignores dirsync, no rule;
#          600 files made a create of 102-114 ms, just over the floor
#          below which no rule looks), and seqio:size=128M (sync=none) on
#          ext4 and xfs, default mounts: their write phases last more than
#          the rules' 0.1 s floor (RULE_MIN_WALL_NS), so a rule could fire

load helpers

setup_file() {
	load helpers
	scratch_create
	local run
	# run NAME COMMAND ARGS...: its output, JSON and exit status kept
	run() {
		local name=$1 cmd=$2 rc=0
		shift 2
		"$FSPROF" "$cmd" -q --scratch "$SCRATCH" \
			--json "$SCRATCH.$name.json" "$@" \
			>"$SCRATCH.$name.out" 2>&1 || rc=$?
		echo $rc >"$SCRATCH.$name.status"
	}
	run sync run --warm -w seqio:size=2M,sync=odsync \
		-w seqio:size=2M,sync=osync -w seqio:size=2M,sync=fdatasync \
		--fs ext4,xfs,btrfs
	run mount run --warm -w files1m:files=600,filesize=8k \
		--fs "xfs:mount=wsync,ext4:mount=dirsync,xfs:mount=dirsync"
	run syncm run --warm -w files1m:files=300,filesize=8k \
		--fs "ext4:mount=sync,btrfs:mount=sync"
	run dj run -w fsync:files=200 \
		--fs "ext4:mount=data=journal,ext4:mkfs=-O fast_commit,btrfs"
	run fc trace --fs "ext4:mkfs=-O fast_commit" -- python3 -c '
import os
for i in range(1000):
    fd = os.open("f%d" % i, os.O_CREAT | os.O_WRONLY)
    os.write(fd, b"x" * 4096)
    os.setxattr("f%d" % i, "user.k", b"v")
    os.fsync(fd)
    os.close(fd)'
	run chattr trace --fs ext4 -- sh -c 'mkdir d && chattr +D d &&
		python3 -c "
import os
for i in range(300):
    open(\"d/f%d\" % i, \"w\").close()
for i in range(300):
    os.unlink(\"d/f%d\" % i)"'
	run trace trace --fs xfs -- dd if=/dev/zero of=f bs=4k count=800 \
		oflag=dsync
	run ctlfiles run --warm -w files1m:files=2000,filesize=64k \
		--fs "ext4,xfs,btrfs,bdirsync=btrfs:mount=dirsync"
	run ctlseq run --warm -w seqio:size=128M,sync=none --fs ext4,xfs
	# A/A: the same target twice, four rounds each, split into A and B: a
	# count is decided from 4 runs a side at the earliest (docs/diff.md)
	run aafsync run --warm -w fsync:files=100 --fs ext4,ext4,xfs,xfs --repeat 4
	run aaseq run --warm -w seqio:size=2M,sync=odsync --fs ext4,ext4 --repeat 4
	# what the tests below read of the other runs, into NAME.f: ~40 jq
	# calls on a run's whole JSON (1-5 MB with its events, ~0.1 s each to
	# parse) took 3.5 s of tests, 1 s now; the qualifier check reads the
	# whole JSONs
	local name
	for name in sync mount syncm dj fc chattr trace ctlfiles ctlseq; do
		jq -c '{cases: [.cases[] | {target_name,
			workload: {name: .workload.name, params: .workload.params},
			phases: [.phases[] | {name, wall_ns,
				verdict: {bound: .verdict.bound}, findings}]}]}' \
			"$SCRATCH.$name.json" >"$SCRATCH.$name.f" 2>/dev/null || :
	done
}

teardown_file() {
	load helpers
	teardown_file_scratch
}

# the run named $1 exited 0, else its output
run_ok() {
	[ "$(cat "$SCRATCH.$1.status")" -eq 0 ] || {
		cat "$SCRATCH.$1.out"
		return 1
	}
}

# "<severity> <advice kind> <advice option>|<title>" of rule $4 in phase $3
# of the case whose target is $2, in run $1; "none" when it did not fire,
# "no such phase" when the run has no such case or phase (not "none")
finding() {
	jq -r --arg t "$2" --arg p "$3" --arg r "$4" '
		[.cases[] | select(.target_name == $t) | .phases[] |
		 select(.name == $p)] as $ph |
		[$ph[] | .findings[] | select(.rule == $r) |
		 "\(.severity) \(.advice.kind // "-") \(.advice.option // "-")|\(.title)"] |
		if ($ph | length) == 0 then "no such phase"
		elif length == 0 then "none" else .[0] end' "$SCRATCH.$1.f"
}

# finding $2 $4 $5 as above, of the case whose workload parameters match
# the regex $3 (two workloads on one target in one run)
finding_w() {
	jq -r --arg t "$2" --arg w "$3" --arg p "$4" --arg r "$5" '
		[.cases[] | select(.target_name == $t) |
		 select(.workload.params | test($w)) | .phases[] |
		 select(.name == $p)] as $ph |
		[$ph[] | .findings[] | select(.rule == $r) |
		 "\(.severity) \(.advice.kind // "-") \(.advice.option // "-")|\(.title)"] |
		if ($ph | length) == 0 then "no such phase"
		elif length == 0 then "none" else .[0] end' "$SCRATCH.$1.f"
}

# fires with a workload parameter regex $3 before the phase
fires_w() {
	local f
	f=$(finding_w "$1" "$2" "$3" "$4" "$5")
	echo "$1 $2 $3 $4 $5: $f"
	[[ $f == "warning $6|"* ]]
	[[ $f == *"($7)" ]]
}

# the bound verdict of phase $3 of target $2 in run $1 (of the case whose
# workload parameters match the regex $4, when given)
bound() {
	jq -r --arg t "$2" --arg p "$3" --arg w "${4:-}" '.cases[] |
		select(.target_name == $t) |
		select($w == "" or (.workload.params | test($w))) |
		.phases[] | select(.name == $p) | .verdict.bound' \
		"$SCRATCH.$1.f"
}

# assert finding $1..$4 is a warning with advice "$5" whose title names $6
fires() {
	local f
	f=$(finding "$1" "$2" "$3" "$4")
	echo "$1 $2 $3 $4: $f"
	[[ $f == "warning $5|"* ]]
	[[ $f == *"($6)" ]]
}

@test "O_DSYNC writes (seqio sync=odsync): the commit or force rule names the writes and advises grouping commits" {
	run_ok sync
	fires_w sync ext4 sync=odsync write jbd2-commit-bound "workload -" \
		"O_SYNC/O_DSYNC writes"
	fires_w sync xfs sync=odsync write xfs-log-force-bound "workload -" \
		"O_SYNC/O_DSYNC writes"
	fires_w sync btrfs sync=odsync write btrfs-log-sync-bound "workload -" \
		"O_SYNC/O_DSYNC writes"
	[ "$(bound sync ext4 write sync=odsync)" = journal ]
	[ "$(bound sync xfs write sync=odsync)" = log ]
	[ "$(bound sync btrfs write sync=odsync)" = log ]
	# one commit or force per write, and what each cost
	jq -e '[.cases[] | select(.workload.params | test("sync=odsync")) |
		.phases[] | select(.name == "write") | .findings[] |
		select(.rule | test("commit-bound|force-bound")) | .evidence[] |
		select(.metric == "jbd2.commits" or .metric == "xfs.log_forces") |
		select(.text | test("per operation")) | .share >= 0.99] |
		length == 2 and all' "$SCRATCH.sync.f"
}

@test "O_SYNC writes and an fdatasync per write (sync=osync, sync=fdatasync): each filesystem's mechanism, the source named" {
	run_ok sync
	local row
	for row in "ext4 jbd2-commit-bound journal" \
		"xfs xfs-log-force-bound log" "btrfs btrfs-log-sync-bound log"; do
		read -r fs rule kind <<<"$row"
		fires_w sync "$fs" sync=osync write "$rule" "workload -" \
			"O_SYNC/O_DSYNC writes"
		fires_w sync "$fs" sync=fdatasync write "$rule" \
			"$([ "$fs" = ext4 ] && echo "mkfs -O fast_commit" ||
				echo "workload -")" "fsync/fdatasync calls"
		jq -e --arg t "$fs" --arg k "$kind" '[.cases[] |
			select(.target_name == $t) |
			select(.workload.params | test("sync=(osync|fdatasync)")) |
			.phases[] | select(.name == "write") | .verdict.bound == $k] |
			length == 2 and all' "$SCRATCH.sync.f"
	done
}

@test "a sync mount (ext4) and a wsync mount (xfs): the rule names the mount and advises mounting without it" {
	run_ok mount
	run_ok syncm
	fires syncm ext4 create jbd2-commit-bound "mount async" \
		"the synchronous mount"
	fires syncm ext4 remove jbd2-commit-bound "mount async" \
		"the synchronous mount"
	fires mount xfs create xfs-log-force-bound "mount -wsync" \
		"the synchronous mount"
	fires mount xfs remove xfs-log-force-bound "mount -wsync" \
		"the synchronous mount"
	fires syncm btrfs create btrfs-log-sync-bound "mount async" \
		"the synchronous mount"
	# the advice says what it costs: durability moves to the application
	jq -e -s '[.[].cases[].phases[].findings[] |
		select(.advice.kind == "mount") |
		.advice.text | test("must then fsync")] | length >= 4 and all' \
		"$SCRATCH.mount.f" "$SCRATCH.syncm.f"
}

@test "dirsync (ext4, xfs mounts; an ext4 chattr +D directory): the rule names the mount or the directories; btrfs, which ignores dirsync, gets none" {
	run_ok mount
	run_ok chattr
	local fs rule p
	for fs in "ext4 jbd2-commit-bound" "xfs#2 xfs-log-force-bound"; do
		read -r t rule <<<"$fs"
		for p in create remove; do
			fires mount "$t" "$p" "$rule" "mount -dirsync" \
				"the synchronous mount"
		done
	done
	# btrfs never checks IS_DIRSYNC: its creates are not synchronous;
	# the case is there and its create long enough for a rule to look
	run_ok ctlfiles
	jq -e '[.cases[] | select(.target_name == "bdirsync") | .phases[] |
		select(.name == "create") | .wall_ns >= 100000000] |
		length == 1 and all' "$SCRATCH.ctlfiles.f"
	for rule in btrfs-log-sync-bound device-bound; do
		[ "$(finding ctlfiles bdirsync create "$rule")" = none ]
	done
	fires chattr ext4 cmd jbd2-commit-bound "workload -" \
		"synchronous directories (chattr +D/+S)"
	jq -e '.cases[0].phases[] | select(.name == "cmd") | .findings[] |
		select(.rule == "jbd2-commit-bound") |
		.advice.text | test("chattr -D -S")' "$SCRATCH.chattr.f"
}

@test "data=journal: commit-bound, the data written twice, data=ordered advised" {
	run_ok dj
	fires dj ext4 cycles jbd2-commit-bound "mount data=ordered" \
		"fsync/fdatasync calls"
	jq -e '.cases[0].phases[] | select(.name == "cycles") | .findings[] |
		select(.rule == "jbd2-commit-bound") | .evidence[] |
		select(.metric == "block.io_classes.log_write.bytes") |
		.share >= 0.5' "$SCRATCH.dj.f"
}

@test "fast commits: served fsyncs are not advised against; an xattr per fsync makes them fall back, and the finding names it" {
	run_ok dj
	run_ok fc
	# -O fast_commit on the fsync loop: the fast commits served (a few
	# could not start while a full commit ran), no fast-commit advice
	fires dj "ext4#2" cycles jbd2-commit-bound "workload -" \
		"fsync/fdatasync calls"
	jq -e '[.cases[] | select(.target_name == "ext4#2") | .phases[] |
		select(.name == "cycles") | .findings[] |
		select(.rule == "jbd2-commit-bound") | .evidence[] |
		select(.metric == "ext4.fc_fallbacks") | .share < 0.5] |
		length == 1 and all' "$SCRATCH.dj.f"
	# setxattr before each fsync: ineligible, under the reason xattr
	fires fc ext4 cmd jbd2-commit-bound "workload -" \
		"fsync/fdatasync calls"
	jq -e '.cases[0].phases[] | select(.name == "cmd") | .findings[] |
		select(.rule == "jbd2-commit-bound") |
		([.evidence[] | select(.metric == "ext4.fc_fallback_reason.xattr") |
		  .share >= 0.99] | length == 1 and all) and
		(.advice.text | test("extended attribute"))' "$SCRATCH.fc.f"
}

@test "btrfs fsync loop: log-sync bound by the fsync calls, no mount or mkfs advice" {
	run_ok dj
	fires dj btrfs cycles btrfs-log-sync-bound "workload -" \
		"fsync/fdatasync calls"
	[ "$(bound dj btrfs cycles)" = log ]
}

@test "fsprof trace -- dd oflag=dsync on xfs: log-force bound by the writes, not generic device advice" {
	run_ok trace
	fires trace xfs cmd xfs-log-force-bound "workload -" \
		"O_SYNC/O_DSYNC writes"
	[ "$(bound trace xfs cmd)" = log ]
	# no "larger requests or more in flight" where the writes were
	# synchronous: the requests are flushes and log writes, one set per
	# write (a cold read phase may rightly get it: its reads are not)
	run jq -r '.cases[] | select(.workload.name == "trace" or
		(.workload.params | test("sync=odsync"))) |
		.phases[] | select(.name == "cmd" or .name == "write") |
		.findings[] | .advice.text // "" |
		select(test("more of them in flight"))' \
		"$SCRATCH.trace.f" "$SCRATCH.sync.f"
	echo "$output"
	[ -z "$output" ]
}

@test "healthy controls (no sync, default mounts): no warning in the writing phases, no durability warning anywhere" {
	run_ok ctlfiles
	run_ok ctlseq
	run jq -r '.cases[] | .target_name as $t | .phases[] | .name as $p |
		.findings[] | select(.severity == "warning") |
		select(($p == "create" or $p == "write") or
		       (.rule | test("commit-bound|force-bound|log-io-bound"))) |
		"\($t) \($p) \(.rule): \(.title)"' \
		"$SCRATCH.ctlfiles.f" "$SCRATCH.ctlseq.f"
	echo "$output"
	[ -z "$output" ]
	# in the TAP log: any other warning of the controls (a cold rm -rf on
	# xfs once slept 40% on locks: lock-contention, not durability)
	jq -r '.cases[] | .target_name as $t | .phases[] | .name as $p |
		.findings[] | select(.severity == "warning") |
		"# control: \($t) \($p) \(.rule): \(.title)"' \
		"$SCRATCH.ctlfiles.f" "$SCRATCH.ctlseq.f" >&3
	# not quiet for being short: the phases that write ran long enough
	# for a rule to fire (RULE_MIN_WALL_NS, 0.1 s)
	run jq -r '.cases[] | .target_name as $t | .phases[] |
		select(.name == "create" or .name == "write") |
		select(.wall_ns < 100000000) | "\($t) \(.name) \(.wall_ns)"' \
		"$SCRATCH.ctlfiles.f" "$SCRATCH.ctlseq.f"
	echo "$output"
	[ -z "$output" ]
}

@test "every qualifier in every verdict and finding holds for its numbers" {
	run python3 "$LIB/qualifiers_check.py" "$SCRATCH".*.json
	echo "$output"
	[ "$status" -eq 0 ]
	# it read the runs' sentences, not nothing
	[[ ${lines[-1]} =~ ^([0-9]+)\ sentences ]]
	[ "${BASH_REMATCH[1]}" -ge 100 ]
}

@test "the qualifier check refuses the sentences issue 32 found: an unbacked 'few', a wrong 'one per operation'" {
	run python3 - "$LIB" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import qualifiers_check as q
out = []
q.check_text("old", "its commit/log-force waits count as device time: "
             "few of them and little log IO; device busy 81%", out)
q.check_text("old", "600 commits for 901 writes, creates, unlinks and "
             "renames: 0.67 per operation (one per operation or more)", out)
q.check_text("new", "1 commits, under the 10 of a per-operation pattern, "
             "and journal writes 19% of the phase, 30% of the device's "
             "work (under the 50% of log-bound)", out)
print("\n".join(out))
print(len(out))
PY
	echo "$output"
	[ "${lines[-1]}" = 3 ]
	[[ $output == *"'few' with no number"* ]]
	[[ $output == *"'little' with no number"* ]]
	[[ $output == *"0.67 per operation is not"* ]]
}

# the cases of target $2 (0-based) of the $3 targets of run $1, into $4
# (the cases alternate target by target, a round at a time)
pick() {
	jq --argjson i "$2" --argjson n "$3" \
		'.cases |= [.[range($i; length; $n)]]' "$1" >"$4"
}

@test "A/A on three setups: no count or bytes metric called changed (immaterial differences are same)" {
	run_ok aafsync
	run_ok aaseq
	local setup a b n
	for setup in "aafsync 0 1 4" "aafsync 2 3 4" "aaseq 0 1 2"; do
		set -- $setup
		pick "$SCRATCH.$1.json" "$2" "$4" "$SCRATCH.A.json"
		pick "$SCRATCH.$1.json" "$3" "$4" "$SCRATCH.B.json"
		"$FSPROF" diff --format json "$SCRATCH.A.json" "$SCRATCH.B.json" \
			>"$SCRATCH.aa.diff"
		# in the TAP log: how many the materiality floor held
		jq -r --arg s "$setup" '"# A/A \($s): " + ([.pairs[].phases[].metrics[] |
			select(.note // "" | test("immaterial"))] | length | tostring) +
			" immaterial"' "$SCRATCH.aa.diff" >&3
		run jq -r '.pairs[].phases[] | .name as $p | .metrics[] |
			select(.metric | test("^(block|jbd2|xfs|ext4|writeback)\\.")) |
			select(.metric | test("_ns$|\\.p(50|99)$|latency") | not) |
			select(.verdict | IN("higher", "lower", "better", "worse")) |
			"\($p) \(.metric) \(.a.mean) -> \(.b.mean) \(.verdict)"' \
			"$SCRATCH.aa.diff"
		echo "$setup: $output"
		[ -z "$output" ]
	done
}
