#!/usr/bin/env bats
# The live progress line is drawn on a terminal only, and cleared; in a
# pipe a line a phase on stderr; both name the case and its counter.

load helpers
bats_require_minimum_version 1.5.0

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
	grep -q $'\r'"case 1/1 seqio on ext4: write      \[[#.]\{24\}\] *[0-9]*%  [0-9.]* MB/s  ETA" "$SCRATCH.tty"
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

@test "in a pipe each phase's line names its case, and a repeat's the earlier one's time" {
	run --separate-stderr "$FSPROF" run --no-trace -w seqio:size=16M --fs ext4,xfs \
		--repeat 2 --scratch "$SCRATCH"
	[ "$status" -eq 0 ]
	echo "$stderr"
	# repeats next, targets inner: ext4, xfs, ext4, xfs
	[[ "$stderr" == *"case 1/4 seqio on ext4: phase write ..."* ]]
	[[ "$stderr" == *"case 2/4 seqio on xfs: phase write ..."* ]]
	[[ "$stderr" == *"case 4/4 seqio on xfs: phase read ..."* ]]
	# the first time of a case no estimate, its repeat the first's time
	[[ "$stderr" != *"case 1/4 seqio on ext4: phase write ... (about"* ]]
	[[ "$stderr" =~ "case 3/4 seqio on ext4: phase write ... (about "[0-9]+" s, as in an earlier repeat)" ]]
	# lines, never a bar or a carriage return
	[ "$(grep -c $'\r' <<<"$stderr")" -eq 0 ]
}
