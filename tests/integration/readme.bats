#!/usr/bin/env bats
# README.md is what a newcomer follows: every fsprof command in it names
# options its subcommand has, every file it links to is there, what it
# says make run runs and writes is the Makefile's, and it stays short.

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

@test "make deps and deps-run install without recommends, as README says (no mail server comes along)" {
	local target
	for target in deps deps-run; do
		make -s -n -C "$TOP" "$target" | grep -q -- 'apt-get install -y -qq --no-install-recommends \$missing'
	done
	grep -q 'apt-get install --no-install-recommends' "$README"
}
