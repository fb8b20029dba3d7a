#!/usr/bin/env bash
# make test-stress: the timing-sensitive integration files, STRESS_N times
# each (default 10), every iteration through tests/run-all.sh FILE, while
# stress-ng (from make deps) holds the last CPU busy and keeps the root
# disk busy: a CPU worker and two 256 MiB file writers that fdatasync every
# write (the disk under every image's loop device). Prints "passed K of N"
# per file and exits 1 unless every file passed N of N.
#
#   scripts/test-stress.sh [FILE...]   default: the files in tests/stress-files
#
# STRESS_N        iterations per file (default 10)
# STRESS_HOG      the stressors instead of the default (stress-ng options)
# STRESS_LOGS     where a failed iteration's output is kept
#                 (default build/stress; only failures are kept)
# STRESS_NO_HOG=1 run without the hog (to tell load from a plain failure)
#
# No sync(2) loop (stress-ng --io): with one, no dirty data stays in memory
# anywhere, and what the kernel does with dirty data (ext4's low-space
# flush, the background threshold) never happens; nothing in make test
# calls sync(2). STRESS_HOG="--cpu 1 --io 1" adds it (tests/README.md).
#
# The hog's files live in /var/tmp/stress-hog.PID; the hog is stopped and
# its directory removed on every exit (trap), by a watcher when the script
# is killed without one (SIGKILL), and a directory left anyway is removed
# by the next run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

n=${STRESS_N:-10}
hog_opts=${STRESS_HOG:---cpu 1 --hdd 2 --hdd-bytes 256M --hdd-opts fdatasync}
logs=${STRESS_LOGS:-build/stress}
list=tests/stress-files
case $n in
'' | *[!0-9]* | 0) echo "test-stress: STRESS_N must be a positive number, not '$n'" >&2; exit 2 ;;
esac

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	mapfile -t files < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$list" | grep .)
fi
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "test-stress: no such test file: $f" >&2; exit 2; }
done
if [ "$(id -u)" -ne 0 ]; then
	echo "test-stress: the integration tests need root" >&2
	exit 3
fi

hog_pid=
hog_dir=
watch_pid=
stop_hog() {
	local i
	if [ -n "$watch_pid" ]; then
		kill "$watch_pid" 2>/dev/null
		wait "$watch_pid" 2>/dev/null
		watch_pid=
	fi
	if [ -n "$hog_pid" ]; then
		# stress-ng runs in a session of its own: end its whole group
		kill -TERM -- "-$hog_pid" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			kill -0 -- "-$hog_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$hog_pid" 2>/dev/null
		wait "$hog_pid" 2>/dev/null
		hog_pid=
	fi
	if [ -n "$hog_dir" ]; then
		rm -rf --one-file-system "$hog_dir"
		hog_dir=
	fi
}

start_hog() {
	local cpu d
	# a hog directory whose script is gone (SIGKILLed: no trap ran)
	for d in /var/tmp/stress-hog.*; do
		[ -d "$d" ] || continue
		kill -0 "${d##*.}" 2>/dev/null || rm -rf --one-file-system "$d"
	done
	hog_dir=/var/tmp/stress-hog.$$
	mkdir -p "$hog_dir" || return 1
	cpu=$(($(nproc) - 1))
	# --timeout: should this script die without its trap, the hog ends
	# after the longest the run could take (900 s a file, run-all.sh's cap)
	# shellcheck disable=SC2086 # the options are words
	setsid stress-ng --quiet --taskset "$cpu" $hog_opts \
		--temp-path "$hog_dir" --timeout $((${#files[@]} * n * 900 + 60)) \
		>"$hog_dir.log" 2>&1 </dev/null &
	hog_pid=$!
	sleep 1
	kill -0 "$hog_pid" 2>/dev/null || {
		echo "test-stress: stress-ng did not start:" >&2
		cat "$hog_dir.log" >&2
		rm -f "$hog_dir.log"
		return 1
	}
	rm -f "$hog_dir.log"
	# should this script be killed without its trap (SIGKILL), the
	# watcher ends the hog and removes its files
	(
		trap - EXIT INT TERM
		while kill -0 $$ 2>/dev/null; do sleep 2; done
		kill -TERM -- "-$hog_pid" 2>/dev/null
		sleep 5
		kill -KILL -- "-$hog_pid" 2>/dev/null
		rm -rf --one-file-system "$hog_dir"
	) </dev/null >/dev/null 2>&1 &
	watch_pid=$!
	echo "# hog: stress-ng (pid $hog_pid) on CPU $cpu: $hog_opts in $hog_dir"
}

trap 'stop_hog' EXIT
trap 'stop_hog; exit 130' INT
trap 'stop_hog; exit 143' TERM

if [ "${STRESS_NO_HOG:-0}" != 1 ]; then
	command -v stress-ng >/dev/null || {
		echo "test-stress: stress-ng is not installed (it is in the Makefile's DEPS: run make deps)" >&2
		exit 3
	}
	start_hog || exit 3
fi
mkdir -p "$logs"

results=()
all_passed=true
for f in "${files[@]}"; do
	passed=0
	for ((i = 1; i <= n; i++)); do
		if [ -n "$hog_pid" ] && ! kill -0 "$hog_pid" 2>/dev/null; then
			echo "test-stress: the hog died; not a stress run any more" >&2
			exit 3
		fi
		out=$(mktemp)
		start=$SECONDS
		if tests/run-all.sh "$f" >"$out" 2>&1; then
			passed=$((passed + 1))
			echo "# $f: $i of $n passed ($((SECONDS - start)) s)"
			rm -f "$out"
		else
			keep="$logs/$(basename "$f" .bats).$i.log"
			mv "$out" "$keep"
			echo "# $f: $i of $n FAILED ($((SECONDS - start)) s): $(grep '^not ok' "$keep" | head -3 | tr '\n' ' ')(log: $keep)"
		fi
	done
	results+=("$f: passed $passed of $n")
	[ "$passed" -eq "$n" ] || all_passed=false
done

printf '%s\n' "${results[@]}"
$all_passed
