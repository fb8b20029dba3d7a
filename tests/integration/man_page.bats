#!/usr/bin/env bats
# docs/fsprof.1: renders without a warning (groff -ww, man -l), covers every
# command and every option fsprof's own usage texts list, every exit code,
# and make install PREFIX= installs it with the binary.

load helpers
bats_require_minimum_version 1.5.0

TOP="$BATS_TEST_DIRNAME/../.."
MAN="$TOP/docs/fsprof.1"

@test "the man page renders with groff -ww and man -l without a warning" {
	run --separate-stderr groff -ww -man -Tutf8 "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(echo "$output" | wc -l)" -gt 300 ]
	run --separate-stderr env MANWIDTH=80 man -l "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	for section in NAME SYNOPSIS DESCRIPTION COMMANDS "RUN OPTIONS" TARGETS \
		"OUTPUT FORMATS" "EXIT STATUS" ENVIRONMENT FILES OVERHEAD; do
		grep -q "^$section\$" <<<"$output" || {
			echo "no section $section"
			false
		}
	done
}

@test "the man page names every command and every option of fsprof's usage texts, and no other" {
	local text usage options opt cmd missing="" stale=""
	# words groff hyphenated at a line's end joined again
	text=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null | sed -e ':a' -e '/‐$/{N;s/‐\n *//;ba}')
	usage=$("$FSPROF" help)
	# every subcommand's --help: its option list is its rows of the option table
	for cmd in run report diff runs trace record bisect-step check cleanup list phase; do
		usage+=$("$FSPROF" $cmd --help 2>&1)
	done
	# every command of the usage's command list
	for cmd in $(sed -n '/^commands:/,/^$/p' <<<"$usage" | awk '/^  [a-z]/ { print $1 }') \
		report diff trace record phase; do
		grep -Eq "^       fsprof $cmd( |$)" <<<"$text" || missing+=" command:$cmd"
	done
	# every long option any usage text lists
	for opt in $(grep -oE -- '--[a-z][a-z-]+' <<<"$usage" | sort -u); do
		grep -q -- "$opt" <<<"$text" || missing+=" $opt"
	done
	for var in FSPROF_DB FSPROF_DIR FSPROF_PHASE_FD NO_COLOR; do
		grep -q "$var" <<<"$text" || missing+=" \$$var"
	done
	# every long option the page names (after a space or bracket) is a row
	# of the table: an option removed from fsprof leaves the page too
	options=$(grep -oE -- '--[a-z][a-z-]+' <<<"$usage" | sort -u)
	for opt in $(grep -oE -- '(^|[ (\[])--[a-z][a-z-]+' <<<"$text" |
		grep -oE -- '--[a-z-]+' | sort -u); do
		grep -qxe "$opt" <<<"$options" || stale+=" $opt"
	done
	echo "missing:$missing"
	echo "not an option of fsprof's:$stale"
	[ -z "$missing" ]
	[ -z "$stale" ]
}

@test "the man page lists every exit code fsprof's usage names" {
	local text
	text=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null | sed -n '/^EXIT STATUS/,/^ENVIRONMENT/p')
	for code in 0 1 2 3 128+N 126 127 125 128; do
		grep -q -- "$code" <<<"$text" || {
			echo "exit code $code not in EXIT STATUS"
			false
		}
	done
}

@test "make install PREFIX= installs the binary and the man page" {
	scratch_create
	make -s -C "$TOP" install PREFIX="$SCRATCH/usr" >/dev/null
	[ -x "$SCRATCH/usr/bin/fsprof" ]
	cmp "$SCRATCH/usr/share/man/man1/fsprof.1" "$MAN"
	run "$SCRATCH/usr/bin/fsprof" version
	[ "$status" -eq 0 ]
	[[ "$output" == "fsprof "* ]]
	# man finds it there by name
	MANPATH="$SCRATCH/usr/share/man" man -w fsprof | grep -q "$SCRATCH/usr/share/man/man1/fsprof.1"
	scratch_remove
}
