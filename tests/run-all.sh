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
# kernels there rather than skip. FSPROF_MUST_RUN replaces the list (paths
# relative to the top, space separated); set it empty on a machine that
# cannot run them:  FSPROF_MUST_RUN= make test
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

MUST_RUN=${FSPROF_MUST_RUN-tests/integration/cross_kernel.bats}

passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# is $1 one of MUST_RUN (compared as paths relative to the top)?
must_run() {
	local m want
	want=$(realpath -m --relative-to="$top" "$1")
	for m in $MUST_RUN; do
		[ "$(realpath -m --relative-to="$top" "$m")" = "$want" ] && return 0
	done
	return 1
}

# count TAP results from one suite; a non-zero exit with no "not ok" is a crash
tally() {
	local name=$1 status=$2 ok bad skip
	skip=$(grep -ciE '^(not )?ok\b.*#[[:space:]]*skip' "$log")
	ok=$(grep -E '^ok\b' "$log" | grep -cviE '#[[:space:]]*skip')
	bad=$(grep -E '^not ok\b' "$log" | grep -cviE '#[[:space:]]*skip')
	if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $name exited $status without reporting a failure"
		bad=1
	fi
	if [ "$skip" -gt 0 ] && must_run "$name"; then
		echo "not ok - $name skipped $skip test(s), but it must run on this machine (MUST_RUN in tests/run-all.sh)"
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
	tally "$t" "$status"
}

run_bats() {
	local f=$1 status start
	echo "# integration: $f"
	start=$SECONDS
	# a hung test must fail the suite, not eat CI's time limit
	timeout --kill-after=30 900 bats --tap "$f" >"$log" 2>&1
	status=$?
	[ "$status" -eq 124 ] && echo "not ok - $f did not finish in 900 s (killed)" >>"$log"
	cat "$log"
	tally "$f" "$status"
	# what each file costs of make test's 20 minutes
	times+=("$((SECONDS - start)) s $f")
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

if [ ${#bats_files[@]} -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
	echo "not ok - integration tests need root (run make test as root)"
	failed=$((failed + 1))
else
	for f in ${bats_files[@]+"${bats_files[@]}"}; do
		run_bats "$f"
	done
fi

if [ ${#times[@]} -gt 0 ]; then
	echo "# the slowest integration files:"
	printf '%s\n' "${times[@]}" | sort -rn | head -8 | sed 's/^/#   /'
	echo "# all tests: ${SECONDS} s"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
