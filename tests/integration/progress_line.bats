#!/usr/bin/env bats
# The live progress line is drawn on a terminal only, and cleared.

load helpers

setup() {
	scratch_create
}

teardown() {
	rm -f "$SCRATCH.tty" "$SCRATCH.pipe"
	scratch_remove
}

@test "on a terminal each phase draws a bar with rate and ETA, then clears it" {
	# script(1) gives fsprof a pseudo-terminal as stdout
	script -qec "'$FSPROF' run --no-trace -w seqio:size=256M --scratch '$SCRATCH'" \
		"$SCRATCH.tty" >/dev/null
	grep -q $'\r'"write      \[[#.]\{24\}\] *[0-9]*%  [0-9.]* MB/s  ETA" "$SCRATCH.tty"
	grep -q $'\r\e\[K' "$SCRATCH.tty"
}

@test "without a terminal, or with --quiet, nothing is drawn" {
	"$FSPROF" run --no-trace -w seqio:size=64M --scratch "$SCRATCH" >"$SCRATCH.pipe" 2>&1
	if grep -q $'\r' "$SCRATCH.pipe"; then
		false
	fi
	script -qec "'$FSPROF' run -q --no-trace -w seqio:size=64M --scratch '$SCRATCH'" \
		"$SCRATCH.tty" >/dev/null
	if grep -q '\[#' "$SCRATCH.tty"; then
		false
	fi
}
