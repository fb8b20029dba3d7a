#!/usr/bin/env bats
# SIGINT or SIGTERM at random points of setup, phase, collect and teardown
# (sometimes twice) leaves nothing behind: no mount, loop device (either
# layer of the device model), throttle rule, BPF program, state file,
# scratch file or lock on the run history. FSPROF_SIGNAL_TRIALS trials (default 10; make test-signals
# runs 50).

load helpers

setup() {
	scratch_create
	export FSPROF_DB="$SCRATCH.db"
}

teardown() {
	rm -f "$SCRATCH.out" "$SCRATCH.err" "$SCRATCH".db*
	scratch_remove
}

# what trial $1 left below $SCRATCH, or nothing
trial_leftovers() {
	local found="" f
	grep -q " $SCRATCH/" /proc/mounts && found+="mount; "
	for f in /sys/block/loop*/loop/backing_file; do
		[ -e "$f" ] || continue
		case $(cat "$f") in
		"$SCRATCH"/* | /dev/loop*) ;;
		*) continue ;;
		esac
		# a loop on a file of ours, or on a loop on a file of ours
		if grep -q "^$SCRATCH/" "$f" ||
			grep -q "^$SCRATCH/" "/sys/block/$(sed 's#^/dev/##' "$f")/loop/backing_file" 2>/dev/null; then
			found+="loop $(basename "$(dirname "$(dirname "$f")")"); "
		fi
	done
	[ -n "$(find "$SCRATCH" -mindepth 1 2>/dev/null)" ] &&
		found+="files: $(find "$SCRATCH" -mindepth 1 | head -3 | tr '\n' ' '); "
	[ "$(orphan_bpf_programs)" -eq 0 ] || found+="orphan BPF programs; "
	# the run history: no lock left on it
	[ ! -e "$FSPROF_DB" ] ||
		sqlite3 "$FSPROF_DB" 'BEGIN EXCLUSIVE; COMMIT;' >/dev/null 2>&1 ||
		found+="a lock on $FSPROF_DB; "
	echo "$found"
	[ -z "$found" ]
}

@test "SIGINT/SIGTERM at random points of setup, phases, collect and teardown leave nothing behind" {
	local trials=${FSPROF_SIGNAL_TRIALS:-10} i pid delay sig second status stage
	local -a workloads=(
		"-w seqio:size=8M"
		"-w seqio:size=8M --device-model custom:wbps=500M --fs xfs"
		"-w mdcreate:files=2000 --device-model ssd-sata"
		"-w fsync:files=50 --fs ext4,xfs"
	)
	local -A codes=()
	local -a took=()
	local early=0 w start ms
	# how long each takes uninterrupted here, the faster of two runs (the
	# first also pays for cold caches: BTF, the binary, mkfs's pages): the
	# signals land within that
	local run
	for w in "${!workloads[@]}"; do
		for run in 1 2; do
			start=$(date +%s%N)
			# shellcheck disable=SC2086
			"$FSPROF" run -q ${workloads[w]} --scratch "$SCRATCH" >"$SCRATCH.out" 2>&1 ||
				{ cat "$SCRATCH.out"; false; }
			ms=$((($(date +%s%N) - start) / 1000000))
			[ "$run" -eq 1 ] || [ "$ms" -lt "${took[w]}" ] && took[w]=$ms
		done
		echo "${workloads[w]}: ${took[w]} ms uninterrupted"
	done
	for ((i = 1; i <= trials; i++)); do
		w=$((RANDOM % ${#workloads[@]}))
		local wl=${workloads[w]}
		sig=$((RANDOM % 2 ? 2 : 15))
		# anywhere in the run: trial i lands at random within the i-th of
		# $trials equal slices of it, so the trials cover the whole run
		# (setup, phases, collect, teardown) however the dice fall
		ms=$(((took[w] * (i - 1) + (RANDOM * 32768 + RANDOM) % took[w]) / trials))
		delay=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
		second=$((RANDOM % 3 == 0))
		# shellcheck disable=SC2086
		"$FSPROF" run $wl --scratch "$SCRATCH" >"$SCRATCH.out" 2>"$SCRATCH.err" &
		pid=$!
		sleep "$delay"
		kill -"$sig" "$pid" 2>/dev/null || true
		[ "$second" -eq 1 ] && { sleep 0.05; kill -"$sig" "$pid" 2>/dev/null || true; }
		status=0
		wait "$pid" || status=$?
		codes[$status]=$((${codes[$status]:-0} + 1))
		# where it landed: the last thing said before the interruption
		stage=$(grep -v 'interrupted by\|warning\|recorded as' "$SCRATCH.err" | grep '^fsprof: ' | tail -1 | cut -c1-40)
		echo "trial $i: $wl, signal $sig after $delay s$([ "$second" -eq 1 ] && echo ' (twice)'): exit $status; last said: ${stage:-nothing (setup)}"
		if [ "$status" -ne 0 ] && [ "$status" -ne $((128 + sig)) ]; then
			cat "$SCRATCH.err"
			false
		fi
		# killed before its handlers were up (preflight: nothing made yet),
		# or interrupted and torn down
		if [ "$status" -ne 0 ] && ! grep -q "interrupted by" "$SCRATCH.err"; then
			early=$((early + 1))
		fi
		wait_for "trial_leftovers >/dev/null" 5 || {
			trial_leftovers
			cat "$SCRATCH.err"
			false
		}
	done
	for status in "${!codes[@]}"; do
		echo "exit $status: ${codes[$status]} trial(s)"
	done
	echo "$early trial(s) killed before the signal handlers were installed"
	# most trials must have been cut by the signal, not finished before it:
	# each signal lands before the fastest uninterrupted run had ended, so
	# only a run faster than both calibration runs, or a signal after the
	# run's last check (its report), ends 0
	[ "$(( ${codes[130]:-0} + ${codes[143]:-0} ))" -ge $((trials / 2)) ]
}
