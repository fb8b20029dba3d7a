#!/usr/bin/env bats
# The report files of a run, each read by the tool that reads it: the CSV by
# Python's csv module, the HTML by Debian's chromium (headless: screenshot,
# console, DOM), the trace by a gunzip + the trace-event format's rules.
# One real run (untar and fsync on ext4 and xfs, hdd model) writes them all.

load helpers
bats_require_minimum_version 1.5.0

PY=/usr/bin/python3

# chromium headless, logging the page's console to stderr ("CONSOLE" lines)
chromium_headless() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --enable-logging=stderr --v=0 \
		--user-data-dir="$SCRATCH.chromium" "$@"
}

# no image, mount or loop device in the scratch directory
nothing_made() {
	[ -z "$(find "$SCRATCH" -mindepth 1)" ] &&
		! grep -q " $SCRATCH/" /proc/mounts &&
		! losetup -a | grep -q "$SCRATCH/"
}

setup_file() {
	load helpers
	scratch_create
	export OUT="$SCRATCH.out"
	mkdir -p "$OUT"
	"$FSPROF" run -q -w untar:files=2000 -w fsync:files=40 --fs ext4,xfs \
		--device-model hdd --scratch "$SCRATCH" --json "$OUT/r.json" \
		--csv "$OUT/r.csv" --html "$OUT/r.html" --trace "$OUT/r.json.gz" \
		>"$OUT/run.txt" 2>"$OUT/run.err"
	echo $? >"$OUT/status"
}

teardown_file() {
	load helpers
	scratch_remove
	rm -rf "$SCRATCH".*
}

setup() {
	[ "$(cat "$OUT/status")" -eq 0 ] || {
		cat "$OUT/run.err"
		false
	}
}

@test "the CSV reads back with Python's csv module and every row matches the JSON" {
	run $PY "$LIB/csv_check.py" "$OUT/r.csv" "$OUT/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# every case and phase: 4 cases, 12 phases, hundreds of rows
	[ "$($PY -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(len({(x["case"],x["phase"]) for x in r}))' "$OUT/r.csv")" -eq 12 ]
}

@test "report --format csv of the saved run writes the run's CSV" {
	run --separate-stderr "$FSPROF" report "$OUT/r.json" --format csv
	[ "$status" -eq 0 ]
	diff <(echo "$output") "$OUT/r.csv"
}

@test "the HTML report loads in headless chromium with no console message and draws" {
	# the console check sees a page's errors: a page that logs one is caught
	printf '<!DOCTYPE html><title>t</title><script>console.error("seen")</script>\n' \
		>"$SCRATCH.bad.html"
	chromium_headless --screenshot="$SCRATCH.bad.png" \
		"file://$SCRATCH.bad.html" 2>"$SCRATCH.bad.log" || true
	grep -q 'CONSOLE.*"seen"' "$SCRATCH.bad.log"
	chromium_headless --screenshot="$OUT/r.png" --window-size=1200,2400 \
		"file://$OUT/r.html" 2>"$OUT/chromium.log"
	run grep 'CONSOLE' "$OUT/chromium.log"
	echo "$output"
	[ "$status" -eq 1 ]
	run $PY "$LIB/png_check.py" "$OUT/r.png" 1200 2400
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "run -q prints the summary alone: at most 15 lines of 100 columns, the JSON's headline" {
	cat "$OUT/run.txt"
	[ "$(wc -l <"$OUT/run.txt")" -le 15 ]
	[ "$(awk 'length > 100' "$OUT/run.txt" | wc -l)" -eq 0 ]
	grep -q '^summary: 4 cases, ' "$OUT/run.txt"
	# no details: no table, no findings block
	run grep -c '^why: \|^targets:' "$OUT/run.txt"
	[ "$output" -eq 0 ]
	[ "$(jq '.summary.headline | length' "$OUT/r.json")" -ge 1 ]
	# every headline row's phase, with its finding's title (cut to fit;
	# a row's continuation line joined to it)
	local phase title joined
	joined=$(awk '/^ / { sub(/^ +/, " "); printf "%s", $0; next }
		NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$OUT/run.txt")
	while IFS=$'\t' read -r phase title; do
		grep -q "^$phase " <<<"$joined"
		[ "$title" = null ] ||
			grep "^$phase " <<<"$joined" | grep -qF "${title:0:24}"
	done < <(jq -r '.summary.headline[] | [.workload + " " + .phase, .title // "null"] | @tsv' "$OUT/r.json")
	# the report of the saved run prints the same summary
	diff <("$FSPROF" report -q "$OUT/r.json") "$OUT/run.txt"
}

@test "the HTML summary is in the first 1000 px and its headline phase's bar is 20% of its chart's width or more" {
	chromium_headless --screenshot="$OUT/top.png" --window-size=1200,1000 \
		"file://$OUT/r.html" 2>"$OUT/top.log"
	# the headline bars' colour (report/html_summary.c): the first chart's
	# widest bar of it, in a 1000 px tall screenshot
	run $PY "$LIB/png_bar.py" "$OUT/top.png" D55E00 760 0.2
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "run --format json prints on stdout the JSON --json FILE writes: one output rule" {
	run --separate-stderr "$FSPROF" run -q --no-trace --no-db -w seqio:size=1M \
		--scratch "$SCRATCH" --format json --json "$SCRATCH.f.json"
	[ "$status" -eq 0 ]
	jq -e '.schema_version == 1 and (.cases | length) == 1' <<<"$output"
	diff <(jq -S . <<<"$output") <(jq -S . "$SCRATCH.f.json")
	nothing_made
}

@test "the HTML report is one file: no script, nothing loaded from elsewhere, a policy that forbids it" {
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$OUT/r.html"
	run grep -Eic '<script|<link|<img|<iframe|@import|url\(' "$OUT/r.html"
	[ "$output" -eq 0 ]
}

@test "the HTML report has its summary, then its findings first and a titled, labelled chart for each view" {
	chromium_headless --dump-dom "file://$OUT/r.html" >"$OUT/dom.html" \
		2>"$OUT/dom.log"
	run $PY "$LIB/html_check.py" "$OUT/dom.html" "$OUT/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# 2 workloads x (wall, throughput) + per case budget, IO classes,
	# latency and the timelines: at least 20 charts
	[ "$(grep -o '<svg' "$OUT/dom.html" | wc -l)" -ge 20 ]
	# the warnings' evidence is on the page, not only their titles
	grep -q 'jbd2-commit-bound' "$OUT/dom.html"
}

@test "report --format html of the saved run writes the run's HTML" {
	run --separate-stderr "$FSPROF" report "$OUT/r.json" --format html
	[ "$status" -eq 0 ]
	diff <(echo "$output") "$OUT/r.html"
}

@test "the trace decompresses, follows the trace-event rules, has every track and nested slices" {
	gzip -t "$OUT/r.json.gz"
	run $PY "$LIB/trace_check.py" "$OUT/r.json.gz" "$OUT/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# what the check compared is there: commits on ext4, log forces on xfs
	zcat "$OUT/r.json.gz" | jq -e '[.traceEvents[] | select(.ph == "M" and .args.name == "jbd2 commits")] | length >= 1'
	zcat "$OUT/r.json.gz" | jq -e '[.traceEvents[] | select(.ph == "M" and .args.name == "xfs log forces")] | length >= 1'
	zcat "$OUT/r.json.gz" | jq -e '[.traceEvents[] | select(.ph == "C")] | length >= 10'
}

@test "report --format trace of the saved run writes the run's trace" {
	"$FSPROF" report "$OUT/r.json" --format trace >"$OUT/report.json.gz"
	gzip -t "$OUT/report.json.gz"
	cmp <(zcat "$OUT/report.json.gz") <(zcat "$OUT/r.json.gz")
}

@test "report --format trace refuses to write gzip to a terminal" {
	run script -qec "'$FSPROF' report '$OUT/r.json' --format trace" /dev/null
	[ "$status" -ne 0 ]
	[[ "$output" == *"the trace is gzip-compressed: redirect it to a file"* ]]
}

@test "an output file in a missing directory is refused before the run starts" {
	local opt
	for opt in json csv html trace; do
		run --separate-stderr "$FSPROF" run -w fsync:files=10 \
			--scratch "$SCRATCH" --$opt "$SCRATCH.nodir/r.$opt"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"--$opt $SCRATCH.nodir/r.$opt: directory $SCRATCH.nodir does not exist"* ]]
	done
	# refused before any work: nothing made
	nothing_made
}

@test "an output file in a read-only directory is refused before the run starts" {
	mkdir -p "$SCRATCH.ro"
	mount -t tmpfs -o ro,size=1m tmpfs "$SCRATCH.ro"
	run --separate-stderr "$FSPROF" run -w fsync:files=10 \
		--scratch "$SCRATCH" --html "$SCRATCH.ro/r.html"
	umount "$SCRATCH.ro"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--html $SCRATCH.ro/r.html: cannot write in $SCRATCH.ro: Read-only file system"* ]]
	nothing_made
}
