#!/usr/bin/env bash
# Runs every unit test (cmocka, TAP) and integration test (bats, TAP) and
# ends with one line: "N passed, N failed". Exit status 1 on any failure,
# also when a test binary dies without reporting.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# count TAP results from one suite; a non-zero exit with no "not ok" is a crash
tally() {
	local name=$1 status=$2 ok bad
	ok=$(grep -cE '^ok ' "$log")
	bad=$(grep -cE '^not ok ' "$log")
	if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $name exited $status without reporting a failure"
		bad=1
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
}

for t in build/tests/test_*; do
	[ -x "$t" ] || continue
	echo "# unit: $t"
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$log" 2>&1
	status=$?
	cat "$log"
	tally "$t" "$status"
done

if [ "$(id -u)" -ne 0 ]; then
	echo "not ok - integration tests need root (run make test as root)"
	failed=$((failed + 1))
else
	for f in tests/integration/*.bats; do
		echo "# integration: $f"
		# a hung test must fail the suite, not eat CI's time limit
		timeout --kill-after=30 900 bats --tap "$f" >"$log" 2>&1
		status=$?
		[ "$status" -eq 124 ] && echo "not ok - $f did not finish in 900 s (killed)" >>"$log"
		cat "$log"
		tally "$f" "$status"
	done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
