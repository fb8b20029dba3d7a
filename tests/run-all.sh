#!/usr/bin/env bash
# Runs every unit test (cmocka, TAP) and integration test (bats, TAP) and
# ends with one line: "N passed, N failed, N skipped". Exit status 1 on any
# failure, also when a test binary dies without reporting, and when a test
# that must run on this machine skipped.
#
#   tests/run-all.sh [TEST...]   TEST: build/tests/test_NAME or
#                                tests/integration/NAME.bats (default: all)
#
# A skip ("ok N name # skip reason" from bats, "not ok N # SKIP name" from
# cmocka) is neither a pass nor a failure: it is counted apart, so that a
# suite whose subject went untested cannot read as all passed.
#
# Tests that must run here: a skip in one of the files named in MUST_RUN
# counts as a failure, and so does a MUST_RUN file missing from a full run.
# CI's machine has QEMU (software emulation), so the cross-kernel test must boot its
# kernels there rather than skip (cross_kernel, kernel_killed), and so must
# raid_dm_guest (md and dm exist only in its guest). FSPROF_MUST_RUN replaces the list (paths
# relative to the top, space separated); set it empty on a machine that
# cannot run them:  FSPROF_MUST_RUN= make test
#
# Two at a time: the bats files named in PAIRABLE run two at once, beside
# each other only; every other file runs alone, with nothing beside it.
# A file is PAIRABLE only when all three hold (read the whole file to say):
#  1. no verdict depends on time, load or scheduling: no busy share, ratio,
#     rate, "at least N waits", phase-length finding (short-phase, bound
#     verdicts), bpftrace cross-check, --verify or diff verdict, and no
#     bound on elapsed time that a slower, shared CPU could cross; and none
#     that needs every block request counted or no warning printed: with
#     other fsprof runs going at once a phase's per-CPU statistics may not
#     be made in time ("could not be made ready: Cannot allocate memory",
#     its first requests uncounted; seen in run_history's two runs at once
#     beside another file on a loaded machine), so untar, workloads_files,
#     targets_dir_device (device byte counts) and run_history run alone;
#  2. its "nothing left behind" checks see only its own objects: mounts and
#     loop devices below its own scratch directory, throttle rules of its
#     own devices, BPF programs no live process holds (helpers.bash's
#     leftovers), trace cgroups of dead runs; no count of every loop
#     device's IO (bpftrace_start), no check that a machine-wide list
#     (every throttle rule, every loop device) is empty;
#  3. while it runs it leaves nothing machine-wide that another file's
#     check would take for a leftover, and changes nothing another file
#     uses: no killed fsprof trace (its cgroup outlives it), no throttle
#     rule on a device not its own, no tracefs unmounted outside a private
#     mount namespace, no make that can build (man_page's make install
#     may link build/fsprof again while the other file runs it;
#     deb_package's make deb and make install run only once make -q all
#     says build/ is current, so they link nothing). Every fsprof run
#     drops the page cache and turns kernel.bpf_stats_enabled on and off
#     for the whole machine: a file asserting a warm cache, or self cost
#     (probes_and_selfcost), runs alone.
# results_schema validates the JSON of small runs of every workload; its
# verified run needs a verification made, whatever it found. aged_mballoc
# judges the allocator by counts (late passes, free extents examined).
# diff_lkp checks the lkp layout's every line against the diff's JSON and
# the runs' repeats, whatever the values; report_bundle the files a bundle
# holds and the lines a run recorded; bisect_step judges mballoc's free
# extents scanned per allocation, a count the block size fixes (1, or 1.2
# with 1 KiB blocks), never a time. deb_package judges apt's simulations,
# an install into a clean root (its binds in a mount namespace of its own)
# and fsprof check's answer there: no time, no leftovers check.
# report_formats checks formats of one run under the hdd model (its one
# finding checked, jbd2-commit-bound, is the fsync loop's wait for commits
# the throttle holds to 150 IOPS, not a share a CPU moves).
# cross_kernel meets all three: its verdicts are counts its guests make on
# their own kernels (one fsprof run --kernel 6.1,6.12: QEMU, ~1 CPU for ~2
# minutes, within a 7 min limit a guest; its diff judges no emulated time),
# its host reference run only lists the domains that attach here, its
# refusals boot nothing, and it makes no loop device, mount or throttle
# rule on the host outside its own scratch directory; beside
# it the other files, none timing-sensitive, only take longer. So do
# kernel_killed and raid_dm_guest (members' bytes and the log's mapping,
# counted in its guest). Two of them beside each other on a clean cache
# stage their kernels one at a time (kernel-stage.sh holds the cache's
# lock while it stages), and every run asks for the same module set
# (src/vm/kernel.c's always[]), so neither restages what the other boots.
# The files also touch different devices: each makes its own images and
# loop devices in its own scratch directory. A file that breaks any rule,
# or that nobody has read against them, runs alone. FSPROF_TEST_JOBS=1 runs
# every file alone (to time one file, or to rule the pairing out).
#
# At the end: every failed test again, with its file, its name, where it
# failed, the fsprof command its source ran there and the last of its
# output; then the ten slowest files; the tally line last.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

MUST_RUN=${FSPROF_MUST_RUN-"tests/integration/cross_kernel.bats tests/integration/kernel_killed.bats tests/integration/raid_dm_guest.bats"}
JOBS=${FSPROF_TEST_JOBS:-2}

# longest first: the second slot then fills with the short ones
# (FSPROF_PAIRABLE replaces the list: paths relative to the top)
PAIRABLE=${FSPROF_PAIRABLE-"
tests/integration/cross_kernel.bats
tests/integration/raid_dm_guest.bats
tests/integration/kernel_killed.bats
tests/integration/concurrent_runs.bats
tests/integration/results_schema.bats
tests/integration/deb_package.bats
tests/integration/report_formats.bats
tests/integration/aged_mballoc.bats
tests/integration/bisect_step.bats
tests/integration/bad_input.bats
tests/integration/report_saved_run.bats
tests/integration/diff_lkp.bats
tests/integration/report_bundle.bats
tests/integration/text_output.bats
tests/integration/targets_fs_options.bats
tests/integration/cli_errors.bats
tests/integration/check.bats
tests/integration/targets_errors.bats
tests/integration/repeat_statistics.bats
tests/integration/readme.bats
"}

passed=0
failed=0
skipped=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/unit.log
failures=$work/failures # one directory entry per failed test, in order
mkdir "$failures"

relpath() {
	realpath -m --relative-to="$top" "$1"
}

# is $1 one of MUST_RUN (compared as paths relative to the top)?
must_run() {
	local m want
	want=$(relpath "$1")
	for m in $MUST_RUN; do
		[ "$(relpath "$m")" = "$want" ] && return 0
	done
	return 1
}

pairable() {
	local p want
	[ "$JOBS" -gt 1 ] || return 1
	want=$(relpath "$1")
	for p in $PAIRABLE; do
		[ "$p" = "$want" ] && return 0
	done
	return 1
}

# a failure record: file, test name, then its diagnostic lines from stdin
# (numbered by the records already there: it may run in a pipeline's subshell)
failure_add() {
	local n
	n=$(find "$failures" -type f | wc -l)
	{
		printf '%s\n%s\n' "$1" "$2"
		cat
	} >"$failures/$(printf '%04d' $((n + 1)))"
}

# every "not ok" of a TAP log, with the "# " lines that follow it
failures_of_log() {
	local name=$1 tap=$2 dir n f
	dir=$work/split
	rm -rf "$dir"
	mkdir "$dir"
	awk -v dir="$dir" '
		/^not ok / && !/#[ \t]*[Ss][Kk][Ii][Pp]/ {
			n++; f = sprintf("%s/%04d", dir, n)
			t = $0; sub(/^not ok [0-9]+ (- )?/, "", t)
			print t >f; on = 1; next
		}
		/^(not )?ok / || /^1\.\./ { if (f) close(f); on = 0; f = ""; next }
		on && /^#/ { print >>f }' "$tap"
	for f in "$dir"/*; do
		[ -e "$f" ] || continue
		n=$(head -n1 "$f")
		tail -n +2 "$f" | failure_add "$name" "$n"
	done
}

# count TAP results from one suite; a non-zero exit with no "not ok" is a crash
tally() {
	local name=$1 status=$2 tap=$3 ok bad skip
	skip=$(grep -ciE '^(not )?ok\b.*#[[:space:]]*skip' "$tap")
	ok=$(grep -E '^ok\b' "$tap" | grep -cviE '#[[:space:]]*skip')
	bad=$(grep -E '^not ok\b' "$tap" | grep -cviE '#[[:space:]]*skip')
	[ "$bad" -eq 0 ] || failures_of_log "$name" "$tap"
	if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $name exited $status without reporting a failure"
		tail -n 8 "$tap" | sed 's/^/# /' |
			failure_add "$name" "(the whole file) exited $status without reporting a failure"
		bad=1
	fi
	if [ "$skip" -gt 0 ] && must_run "$name"; then
		echo "not ok - $name skipped $skip test(s), but it must run on this machine (MUST_RUN in tests/run-all.sh)"
		grep -iE '^(not )?ok\b.*#[[:space:]]*skip' "$tap" | head -n 3 | sed 's/^/# /' |
			failure_add "$name" "skipped $skip test(s), but it must run on this machine (MUST_RUN)"
		bad=$((bad + skip))
		skip=0
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
	skipped=$((skipped + skip))
}

run_unit() {
	local t=$1 status
	echo "# unit: $t"
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$log" 2>&1
	status=$?
	cat "$log"
	tally "$t" "$status" "$log"
}

# one bats file into $2/: log, status, secs (run in the background for a pair)
bats_job() {
	local f=$1 d=$2 start=$SECONDS status
	# a hung test must fail the suite, not eat CI's time limit
	timeout --kill-after=30 900 bats --tap "$f" >"$d/log" 2>&1
	status=$?
	[ "$status" -eq 124 ] && echo "not ok - $f did not finish in 900 s (killed)" >>"$d/log"
	echo "$((SECONDS - start))" >"$d/secs"
	echo "$status" >"$d/status"
}

# print and count a finished bats file ($3: how it ran, for the header,
# which a file run alone printed before it began)
bats_report() {
	local f=$1 d=$2 how=$3 secs
	secs=$(cat "$d/secs")
	[ -z "$how" ] || echo "# integration: $f$how"
	cat "$d/log"
	echo "# $f: $secs s"
	tally "$f" "$(cat "$d/status")" "$d/log"
	# what each file costs of make test's 12 minutes
	times+=("$secs s $f$how")
}

# a new directory for one file's run, in $jobdir
njob=0
job_dir() {
	njob=$((njob + 1))
	jobdir=$work/job$njob
	mkdir "$jobdir"
}

run_alone() {
	local d
	job_dir
	d=$jobdir
	echo "# integration: $1"
	bats_job "$1" "$d"
	bats_report "$1" "$d" ""
}

# the PAIRABLE files, $JOBS at a time, each reported as it finishes
run_pairs() {
	local -A dir_of=() file_of=()
	local f pid done_pid running=0 d
	for f in "$@"; do
		if [ "$running" -ge "$JOBS" ]; then
			wait -n -p done_pid
			bats_report "${file_of[$done_pid]}" "${dir_of[$done_pid]}" " (two at a time)"
			running=$((running - 1))
		fi
		job_dir
		d=$jobdir
		bats_job "$f" "$d" &
		pid=$!
		dir_of[$pid]=$d
		file_of[$pid]=$f
		running=$((running + 1))
	done
	while [ "$running" -gt 0 ]; do
		wait -n -p done_pid
		bats_report "${file_of[$done_pid]}" "${dir_of[$done_pid]}" " (two at a time)"
		running=$((running - 1))
	done
}

# cut a line to $2 characters
trim() {
	awk -v w="$1" '{ if (length($0) > w) print substr($0, 1, w - 3) "..."; else print }'
}

# the source line of the fsprof command a test ran before line $2 of file
# $1: "N: line", the last one in the test's body; for a one-line test, the
# line itself (its helper runs fsprof with the arguments written there);
# else the one in setup_file, whose results the test reads
fsprof_command_at() {
	awk -v stop="$2" '
		/^setup_file\(\)/ { insf = 1 }
		insf && /^}/ { insf = 0 }
		insf && /\$FSPROF"? / { sf = FNR ": " $0 }
		/^@test / { cmd = "" }
		FNR <= stop && /\$FSPROF"? / { cmd = FNR ": " $0 }
		FNR == stop && /^@test .*}[ \t]*$/ { cmd = FNR ": " $0 }
		FNR == stop { exit }
		END { if (cmd != "") print cmd; else if (sf != "") print sf " (setup_file)" }' "$1" |
		sed 's/\t/ /g; s/  */ /g'
}

# the failed tests again, at the end where CI's log is read first: file,
# name, where it failed, the fsprof command, the last of its output; within
# about 26 lines in all however many failed
failures_print() {
	local per shown=0 rec file name at src line cmd nfail left err
	nfail=$(find "$failures" -type f | wc -l)
	[ "$nfail" -gt 0 ] || return 0
	# lines under each test's name: 25 lines for all, at most 20 for one
	per=$((24 / nfail - 1))
	[ "$per" -ge 1 ] || per=1
	[ "$per" -le 20 ] || per=20
	echo "# ---- $nfail failed: file, test, where, the fsprof command, its output ----"
	for rec in "$failures"/*; do
		if [ "$shown" -ge 12 ]; then
			echo "# ... and $((nfail - shown)) more failed test(s): their output is in their files' sections above"
			break
		fi
		shown=$((shown + 1))
		file=$(sed -n 1p "$rec")
		name=$(sed -n 2p "$rec")
		# bats: "# (in test file F, line N)" or "# (from function `f' in file F, line N,"
		at=$(sed -n 's/^# \{1,2\}(\{0,1\}in test file \(.*\), line \([0-9]*\))$/\1:\2/p' "$rec" | head -n1)
		echo "# FAILED $file: $name${at:+ (at line ${at##*:})}" | trim 200
		{
			# the assertion or command that failed
			grep -m1 -E "^#   \`.*' failed" "$rec" | sed 's/^#   //'
			src=${at%:*}
			line=${at##*:}
			if [ -n "$at" ] && [ -r "$src" ]; then
				cmd=$(fsprof_command_at "$src" "$line")
				# (a one-line test's command is the line that failed)
				[ -z "$cmd" ] || grep -qF -- "\`${cmd#*: }'" "$rec" ||
					echo "fsprof command, line $cmd"
			fi
		} >"$work/head"
		# its output: bats' "# " lines after its own location lines
		tail -n +3 "$rec" | grep -vE "^# (\((in|from function) | in test file )|^#   \`.*' failed" |
			sed 's/^# \{0,1\}/| /' | grep -v '^| *$' >"$work/out"
		left=$((per - $(wc -l <"$work/head")))
		[ "$left" -ge 1 ] || left=1
		{
			cat "$work/head"
			# fsprof's own first error or warning, then the last lines
			err=$(grep -m1 -E '^\| .*fsprof: ' "$work/out")
			if [ -n "$err" ] && ! tail -n "$left" "$work/out" | grep -qxF -- "$err"; then
				echo "$err"
				left=$((left - 1))
			fi
			[ "$left" -lt 1 ] || tail -n "$left" "$work/out"
		} | head -n "$per" | trim 200 | sed 's/^/#   /'
	done
}

units=()
bats_files=()
times=()
if [ $# -eq 0 ]; then
	for t in build/tests/test_*; do
		[ -x "$t" ] && units+=("$t")
	done
	bats_files=(tests/integration/*.bats)
	for m in $MUST_RUN; do
		[ -e "$m" ] && continue
		echo "not ok - $m must run on this machine (MUST_RUN in tests/run-all.sh) but does not exist"
		failure_add "$m" "must run on this machine (MUST_RUN) but does not exist" </dev/null
		failed=$((failed + 1))
	done
else
	for t in "$@"; do
		case "$t" in
		*.bats) bats_files+=("$t") ;;
		*) units+=("$t") ;;
		esac
	done
fi

for t in ${units[@]+"${units[@]}"}; do
	run_unit "$t"
done
unit_s=$SECONDS
alone_s=0
pairs_s=0

if [ ${#bats_files[@]} -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
	echo "not ok - integration tests need root (run make test as root)"
	failure_add "tests/integration" "integration tests need root (run make test as root)" </dev/null
	failed=$((failed + 1))
else
	pairs=()
	for f in ${bats_files[@]+"${bats_files[@]}"}; do
		if pairable "$f"; then
			pairs+=("$f")
		else
			t0=$SECONDS
			run_alone "$f"
			alone_s=$((alone_s + SECONDS - t0))
		fi
	done
	# in PAIRABLE's order (longest first), not the command line's
	ordered=()
	for p in $PAIRABLE; do
		for f in ${pairs[@]+"${pairs[@]}"}; do
			[ "$(relpath "$f")" = "$p" ] && ordered+=("$f")
		done
	done
	t0=$SECONDS
	if [ ${#ordered[@]} -gt 1 ]; then
		run_pairs "${ordered[@]}"
		pairs_s=$((SECONDS - t0))
	elif [ ${#ordered[@]} -eq 1 ]; then
		run_alone "${ordered[0]}"
		alone_s=$((alone_s + SECONDS - t0))
	fi
fi

failures_print
if [ ${#times[@]} -gt 0 ]; then
	echo "# the slowest integration files:"
	printf '%s\n' "${times[@]}" | sort -rn | head -10 | sed 's/^/#   /'
	echo "# all tests: ${SECONDS} s (unit ${unit_s} s, files alone ${alone_s} s, $JOBS at a time ${pairs_s} s)"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
