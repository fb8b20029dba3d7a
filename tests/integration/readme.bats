#!/usr/bin/env bats
# README.md is what a newcomer follows: every fsprof command in it names
# options its subcommand has, every file it links to is there, what it
# says make run runs and writes is the Makefile's, the time it gives make
# run is the one time any doc gives it, and it stays short.

load helpers
bats_require_minimum_version 1.5.0

TOP="$BATS_TEST_DIRNAME/../.."
README="$TOP/README.md"

# the fsprof commands of README's code blocks, continuation lines joined
readme_commands() {
	awk '/^```/ { code = !code; next }
		code && /^(build\/)?fsprof / { cmd = $0; while (cmd ~ /\\$/ && (getline line) > 0) { sub(/\\$/, "", cmd); cmd = cmd " " line }; print cmd }' "$README"
}

@test "README stays under 300 lines" {
	[ "$(wc -l <"$README")" -lt 300 ]
}

@test "every file README links to is in the tree" {
	local missing="" target
	for target in $(grep -oE '\]\([^)#]+' "$README" | sed 's/^](//' | grep -v '^https\?:'); do
		[ -e "$TOP/$target" ] || missing+=" $target"
	done
	echo "missing:$missing"
	[ -z "$missing" ]
	# and the guide's links, relative to docs/
	for target in $(grep -oE '\]\([^)#]+' "$TOP/docs/guide.md" | sed 's/^](//' | grep -v '^https\?:'); do
		[ -e "$TOP/docs/$target" ] || missing+=" docs/$target"
	done
	echo "missing:$missing"
	[ -z "$missing" ]
}

@test "every fsprof command in README names a subcommand and options it has" {
	local n=0 bad="" cmd sub help opt
	while read -r cmd; do
		cmd=${cmd#build/}
		sub=$(awk '{ print $2 }' <<<"$cmd")
		help=$("$FSPROF" "$sub" --help 2>&1) || { bad+=" [$sub: no --help]"; continue; }
		# the options up to a -- that ends them (trace's CMD)
		for opt in $(sed 's/ -- .*//' <<<"$cmd" | grep -oE -- '(^| )--?[a-zA-Z][a-z-]*' | tr -d ' '); do
			if [[ "$opt" == -? ]]; then
				grep -qE -- "^ +$opt, --" <<<"$help" || bad+=" [$sub $opt]"
			else
				grep -qE -- "^ +(-[a-zA-Z], )?$opt([ =[]|$)" <<<"$help" || bad+=" [$sub $opt]"
			fi
		done
		n=$((n + 1))
	done < <(readme_commands)
	echo "$n commands; not an option of theirs:$bad"
	[ "$n" -ge 7 ]
	[ -z "$bad" ]
}

@test "the commands README runs without a workload run as shown" {
	run "$FSPROF" check
	[ "$status" -eq 0 ]
	run "$FSPROF" list workloads
	[ "$status" -eq 0 ]
	# the workloads README names are fsprof's
	for w in seqio files1m mdcreate fsync untar bonnie afd; do
		grep -q "^$w$" <<<"$output"
	done
}

@test "what README says make run runs and writes is the Makefile's" {
	local make_cmd readme_cmd
	# the Makefile's run recipe, its fsprof line joined
	make_cmd=$(make -s -n -C "$TOP" -o deps-run -o all run 2>/dev/null |
		sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}' | grep 'fsprof run' | tr -s ' \t' '  ')
	readme_cmd=$(readme_commands | grep '^build/fsprof run' | tr -s ' \t' '  ')
	echo "Makefile: $make_cmd"
	echo "README:   $readme_cmd"
	[ -n "$make_cmd" ]
	[ "$make_cmd" = "$readme_cmd" ]
	# it writes report.html and no other file
	[[ "$make_cmd" == *"--html report.html"* ]]
	run grep -cE -- '--(json|csv|trace|openmetrics) ' <<<"$make_cmd"
	[ "$output" -eq 0 ]
	grep -q 'writes `report.html`; nothing else' "$README"
}

# (that this brings no mail server on a clean Debian: deb_package.bats)
@test "make deps and deps-run install without recommends, as README says" {
	local target
	for target in deps deps-run; do
		make -s -n -C "$TOP" "$target" | grep -q -- 'apt-get install -y -qq --no-install-recommends \$missing'
	done
	grep -q 'apt-get install --no-install-recommends' "$README"
}

# a time as the docs write one: "3 min 49 s", "4 min", "3 minutes"
DOC_TIME='[0-9]+ min( [0-9]+ s)?|[0-9]+ minutes?'

@test "README gives make run one time, its summary's phases fit in it, and no doc gives another" {
	local stated secs phases lines f bad=""
	stated=$(grep -oE "$DOC_TIME" "$README" | sort -u)
	echo "README: $stated"
	[ -n "$stated" ]
	[ "$(wc -l <<<"$stated")" -eq 1 ]
	grep -q "It took $stated here (measured" "$README"
	secs=$(awk '{ print $1 * 60 + ($3 == "" ? 0 : $3) }' <<<"$stated")
	# the summary it shows is make run's (6 cases, its command), at most 15
	# lines, and its phases took part of that time
	phases=$(sed -n 's/^summary: 6 cases, \([0-9.]*\) s of phases, .*/\1/p' "$README")
	echo "phases ${phases} s of ${secs} s"
	[ -n "$phases" ]
	awk -v p="$phases" -v s="$secs" 'BEGIN { exit !(p > 0 && p < s) }'
	grep -qF 'fsprof run -w untar:files=20000 -w fsync:files=200 --fs ext4,xfs,xfs:mount=logbsize=256k' "$README"
	lines=$(awk '/^summary: 6 cases/ { on = 1 } on && /^```/ { exit } on { n++ } END { print n }' "$README")
	echo "$lines summary lines"
	[ "$lines" -le 15 ]
	# any paragraph elsewhere that names make run and a time names this one
	for f in "$TOP"/docs/*.md "$TOP"/docs/fsprof.1 "$TOP"/tests/README.md "$TOP"/Makefile; do
		bad+=$(awk 'BEGIN { RS = "" } /make run/ { gsub(/\n#? */, " "); print }' "$f" |
			grep -oE "$DOC_TIME" | grep -vxF "$stated" | sed "s|^| ${f#"$TOP"/}: |")
	done
	echo "other times given:$bad"
	[ -z "$bad" ]
}

@test "the guide reads the run whose summary README shows" {
	local readme guide
	readme=$(awk '/^summary: 6 cases/ { on = 1 } on && /^```/ { exit } on' "$README")
	guide=$(awk '/^summary: 6 cases/ { on = 1 } on && /^```/ { exit } on' "$TOP/docs/guide.md")
	[ -n "$readme" ]
	diff <(echo "$readme") <(echo "$guide")
}
