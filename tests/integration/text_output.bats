#!/usr/bin/env bats
# The text report for people: its summary first, within 100 columns with the original
# experiment's long --fs specs (targets named short, each spec listed once),
# colour only on a terminal and never with NO_COLOR, bcc-style histograms
# under -v.

load helpers
bats_require_minimum_version 1.5.0

# the original experiment's targets: long mkfs and mount options
OLD="old=ext3:mkfs='-b 4096 -m 0 -O dir_index':mount='noatime,nodiratime,commit=15'"
NEW="ext4:mkfs='-b 4096 -m 0 -O dir_index,extent,huge_file,flex_bg,dir_nlink,extra_isize':mount='noatime,nodiratime,commit=15,data=ordered'"

setup_file() {
	load helpers
	scratch_create
	"$FSPROF" run -w fsync:files=20 -w untar:files=300 --fs "$OLD,$NEW,ext4" \
		--scratch "$SCRATCH" --json "$SCRATCH.json" >"$SCRATCH.txt" \
		2>"$SCRATCH.err"
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	scratch_remove
	rm -f "$SCRATCH".*
}

setup() {
	[ "$(cat "$SCRATCH.status")" -eq 0 ] || {
		cat "$SCRATCH.err"
		false
	}
}

@test "the side-by-side report stays within 100 columns with the original experiment's long specs" {
	run awk 'length($0) > 100 { print length($0) ": " $0 }' "$SCRATCH.txt"
	echo "$output"
	[ -z "$output" ]
	# the specs are longer than that: the test is not of short labels
	[ "$(jq -r '.cases[1].target_label | length' "$SCRATCH.json")" -gt 100 ]
}

@test "targets are named short in the tables and their full specs listed once above them" {
	# NAME= as given, else the fstype; a second ext4 is ext4#2
	[ "$(jq -r '[.cases[].target_name] | unique | join(" ")' "$SCRATCH.json")" = "ext4 ext4#2 old" ]
	grep -q '^targets:$' "$SCRATCH.txt"
	grep -q "^  old     ext3:mkfs='-b 4096 -m 0 -O dir_index':mount=noatime,nodiratime,commit=15$" "$SCRATCH.txt"
	grep -q '^  ext4#2  ext4$' "$SCRATCH.txt"
	# each spec once: the tables carry the names only
	[ "$(grep -c 'dir_index,extent,huge_file' "$SCRATCH.txt")" -eq 1 ]
	grep -Eq '^cycles +old +[0-9.]+' "$SCRATCH.txt"
	grep -Eq '^ +ext4#2 +[0-9.]+' "$SCRATCH.txt"
	# the summary first, then the list before the findings and the tables
	head -1 "$SCRATCH.txt" | grep -q '^summary: '
	local blank
	blank=$(grep -n '^$' "$SCRATCH.txt" | head -1 | cut -d: -f1)
	[ "$blank" -le 16 ]
	[ "$(grep -n '^targets:' "$SCRATCH.txt" | cut -d: -f1)" -eq $((blank + 1)) ]
}

@test "a target name that is taken twice or has odd characters is refused" {
	run --separate-stderr "$FSPROF" run --fs 'a=ext4,a=xfs' --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"two filesystems are named 'a'"* ]]
	run --separate-stderr "$FSPROF" run --fs 'my disk=ext4' --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"target name 'my disk'"* ]]
}

@test "the report is coloured on a terminal only, and not with NO_COLOR" {
	# a pipe: no escape sequence at all
	"$FSPROF" report "$SCRATCH.json" >"$SCRATCH.plain"
	run grep -c $'\033' "$SCRATCH.plain"
	[ "$output" -eq 0 ]
	# a terminal (script(1) gives it one): headings bold, finding tags in
	# their colour (warnings red, info blue, ok green)
	script -qec "'$FSPROF' report '$SCRATCH.json'" /dev/null >"$SCRATCH.tty"
	grep -q $'^\033\\[1mfsync on old\033\\[0m' "$SCRATCH.tty"
	grep -Eq $'\033\\[(1;31mWARNING|34minfo|32mok)\033\\[0m' "$SCRATCH.tty"
	# the same text once the colour is taken out
	diff <(sed 's/\x1b\[[0-9;]*m//g' "$SCRATCH.tty" | tr -d '\r') "$SCRATCH.plain"
	# NO_COLOR on a terminal: none
	NO_COLOR=1 script -qec "'$FSPROF' report '$SCRATCH.json'" /dev/null >"$SCRATCH.nc"
	run grep -c $'\033' "$SCRATCH.nc"
	[ "$output" -eq 0 ]
}

@test "-v prints the histograms as the bcc tools do" {
	"$FSPROF" report -v "$SCRATCH.json" >"$SCRATCH.v"
	grep -q '^old, phase cycles: jbd2.commit_ns$' "$SCRATCH.v"
	grep -Eq '^ +nsecs : count +distribution$' "$SCRATCH.v"
	# rows: a power-of-two range, its count, a 40-wide bar
	grep -Eq '^ +[0-9]+ -> [0-9]+ +: [0-9]+ +\|\*+ *\|$' "$SCRATCH.v"
	run awk -F'|' '/ -> .*\|/ && length($2) != 40' "$SCRATCH.v"
	[ -z "$output" ]
	# the counts of one histogram add up to its JSON count
	want=$(jq '.cases[0].phases[0].histograms.jbd2.commit_ns.count' "$SCRATCH.json")
	got=$(awk '/^old, phase cycles: jbd2.commit_ns$/ { on = 1; next }
		on && / -> / { n += $5; next } on && NF == 0 { exit }
		on && !/nsecs/ { exit } END { print n }' "$SCRATCH.v")
	[ "$got" -eq "$want" ]
	# and a plain report has none
	run grep -c ' -> .*|' "$SCRATCH.plain"
	[ "$output" -eq 0 ]
}
