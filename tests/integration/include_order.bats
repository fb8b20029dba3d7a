#!/usr/bin/env bats
# The tree keeps docs/architecture.md's include order (scripts/check-includes.py):
# no folder of src/ includes one its line of that page's table does not
# name, bpf/ includes nothing of src/, and no two files of src/ use each
# other. No fsprof run: it reads the sources (well under a second).

TOP="$BATS_TEST_DIRNAME/../.."

@test "no folder includes one above it and no two files of src/ include each other" {
	run "$TOP/scripts/check-includes.py" "$TOP"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "include order holds: "* ]]
}

@test "the include check names a report file that includes analyze and a pair that include each other" {
	local t="$BATS_TEST_TMPDIR/tree"
	mkdir -p "$t/docs" "$t/src/report" "$t/src/analyze" "$t/bpf"
	cp "$TOP/docs/architecture.md" "$t/docs/"
	printf '#include "report/b.h"\n' >"$t/src/report/a.c"
	printf '#include "report/a.h"\n#include "analyze/rules.h"\n' >"$t/src/report/b.c"
	touch "$t/src/report/a.h" "$t/src/report/b.h" "$t/src/analyze/rules.h"
	run "$TOP/scripts/check-includes.py" "$t"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"src/report/b.c:2: includes \"analyze/rules.h\": report may include only compare, results, util"* ]]
	[[ "$output" == *"report/a <-> report/b use each other"* ]]
}
