#!/usr/bin/env bash
# Runs each libFuzzer harness for SECONDS from its seed corpus
# (tests/fuzz/corpus/NAME/; what it finds goes into build-fuzz/corpus/NAME/,
# not into the tree) and ends with one line per harness: runs, coverage,
# corpus size. Exit 1 when a harness crashed, leaked or hit UB (its
# reproducer is in build-fuzz/crash/NAME/).
#
#   tests/fuzz/run.sh SECONDS build-fuzz/fuzz_NAME...
set -u
seconds=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
failed=0
summary=()
for bin in "$@"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	work="$top/build-fuzz/corpus/$name"
	crash="$top/build-fuzz/crash/$name"
	log="$top/build-fuzz/$name.log"
	mkdir -p "$work" "$crash"
	echo "# fuzz: $name for $seconds s"
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$bin" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$crash/" -timeout=10 -rss_limit_mb=2048 \
		"$work" "$top/tests/fuzz/corpus/$name" >"$log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	if [ "$status" -ne 0 ]; then
		tail -40 "$log"
		summary+=("not ok - $name: exit $status after ${runs:-?} runs (reproducer in $crash)")
		failed=$((failed + 1))
	else
		summary+=("ok - $name: ${runs:-?} runs in $seconds s, ${cov:-cov: ?}, corpus $(ls "$work" | wc -l) inputs")
	fi
done
printf '%s\n' "${summary[@]}"
[ "$failed" -eq 0 ]
