#!/usr/bin/env bats
# The run history: every fsprof run is recorded in a SQLite database
# (--db, $FSPROF_DB), listed by fsprof runs and re-rendered by fsprof report
# RUN exactly as the run's own JSON; a database that cannot take the run
# (damaged, newer, locked) never costs the run its results or exit code.

load helpers
bats_require_minimum_version 1.5.0

# Two runs recorded once, in a database of their own, for the tests that
# only read them (listing, re-rendering, the rows): A, fsync on ext4
# labelled base (run 1), and B, fsync and mdcreate on xfs (run 2, two
# cases).
setup_file() {
	load helpers
	SHARED=$(mktemp -d /var/tmp/fsprof-test.XXXXXX)
	export SHARED SHARED_DB="$SHARED/runs.db"
	mkdir "$SHARED/scratch"
	"$FSPROF" run -w fsync:files=10 --scratch "$SHARED/scratch" \
		--json "$SHARED/a.json" --db "$SHARED_DB" --label base \
		>"$SHARED/a.out" 2>"$SHARED/a.err"
	echo $? >"$SHARED/a.status"
	"$FSPROF" run -w fsync:files=10 -w mdcreate:files=200 --fs xfs \
		--scratch "$SHARED/scratch" --json "$SHARED/b.json" --db "$SHARED_DB" \
		>"$SHARED/b.out" 2>"$SHARED/b.err"
	echo $? >"$SHARED/b.status"
}

teardown_file() {
	[ -n "${SHARED:-}" ] || return 0
	grep -q " $SHARED" /proc/mounts && return 0
	rm -rf --one-file-system "$SHARED"
}

setup() {
	scratch_create
	OWN_DB="$SCRATCH.runs.db"
	DB=$OWN_DB
}

# the shared runs A and B of setup_file, each run's stderr shown; DB is
# then theirs (teardown removes only the test's own, OWN_DB)
shared_runs_ok() {
	cat "$SHARED/a.err" "$SHARED/b.err"
	[ "$(cat "$SHARED/a.status")" -eq 0 ]
	[ "$(cat "$SHARED/b.status")" -eq 0 ]
	DB=$SHARED_DB
}

teardown() {
	[ -n "${LOCKER:-}" ] && kill "$LOCKER" 2>/dev/null
	[ -n "${LOCKFD:-}" ] && exec {LOCKFD}>&-
	rm -f "$SCRATCH".*.json "$SCRATCH".*.out "$SCRATCH".*.err "$SCRATCH.lock.fifo"
	rm -f "$OWN_DB" "$OWN_DB-wal" "$OWN_DB-shm" "$SCRATCH".*.db "$SCRATCH".*.db-*
	rm -rf "$SCRATCH.b" "$SCRATCH.dbdir"
	scratch_remove
}

# a small real run: fsprof_small NAME [options]; status in $status
fsprof_small() {
	local name=$1
	shift
	status=0
	"$FSPROF" run -w fsync:files=10 --scratch "$SCRATCH" \
		--json "$SCRATCH.$name.json" "$@" >"$SCRATCH.$name.out" \
		2>"$SCRATCH.$name.err" || status=$?
	cat "$SCRATCH.$name.err"
}

runs_in() {
	sqlite3 "$1" 'SELECT count(*) FROM runs'
}

# what a database holds (SQLite may checkpoint its WAL into the file, so
# not its bytes), or the bytes of a file that is none
contents() {
	if sqlite3 "$1" 'PRAGMA user_version' >/dev/null 2>&1; then
		sqlite3 "$1" 'PRAGMA user_version' .dump | sha256sum
	else
		sha256sum <"$1"
	fi
}

@test "a labelled run and a second one are both listed by fsprof runs, filtered by label, workload and fs" {
	shared_runs_ok
	grep -q "recorded as run 1, label base in $DB" "$SHARED/a.err"
	grep -q "recorded as run 2 in $DB" "$SHARED/b.err"

	run --separate-stderr "$FSPROF" runs --db "$DB"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == *"id"*"label"*"kernel"*"targets"* ]]
	[[ "${lines[1]}" =~ ^\ +1\ .*\ base\ +$(uname -r | cut -c1-15).*\ ext4\ .*fsync/ext4:\ cycles\ [0-9.]+s ]]
	[[ "${lines[2]}" =~ ^\ +2\ .*\ -\ .*\ xfs\ .*fsync/xfs\ \+1:\ cycles ]]
	for l in "${lines[@]}"; do [ "${#l}" -le 100 ]; done

	run "$FSPROF" runs --db "$DB" --label base
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == *" base "* ]]
	run "$FSPROF" runs --db "$DB" --workload mdcreate
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" =~ ^\ +2\  ]]
	# the headline is the first case that matches
	[[ "${lines[1]}" == *"mdcreate/xfs +1: create"* ]]
	run "$FSPROF" runs --db "$DB" --fs xfs
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" =~ ^\ +2\  ]]
	run --separate-stderr "$FSPROF" runs --db "$DB" --fs btrfs
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" == *"no recorded run matches"* ]]
}

@test "fsprof runs --format json is the text listing's runs as an array of objects, filtered alike" {
	shared_runs_ok

	run --separate-stderr "$FSPROF" runs --db "$DB" --format json
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# id and label, as the text listing shows them (no label: -)
	json_rows=$(jq -r '.[] | "\(.id) \(.label // "-")"' <<<"$output")
	text_rows=$("$FSPROF" runs --db "$DB" | awk 'NR > 1 { print $1, $4 }')
	echo "json: $json_rows; text: $text_rows"
	[ "$json_rows" = "$text_rows" ]
	[ "$json_rows" = "1 base
2 -" ]
	jq -e 'length == 2 and all(.[]; .complete == true)' <<<"$output"
	jq -e '.[0].label == "base" and .[1].label == null' <<<"$output"
	jq -e '.[0].first_case == "fsync/ext4" and .[1].first_case == "fsync/xfs"' <<<"$output"
	jq -e '.[1].cases == 2 and .[0].cases == 1' <<<"$output"
	jq -e '.[0].phases[0].name == "cycles" and .[0].phases[0].wall_s > 0' <<<"$output"
	jq -e --arg k "$(uname -r)" 'all(.[]; .kernel == $k)' <<<"$output"
	jq -e 'all(.[]; .started | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"))' <<<"$output"
	jq -e 'all(.[]; (.started_ns / 1e9 | floor | todate) == .started)' <<<"$output"

	run --separate-stderr "$FSPROF" runs --db "$DB" --format json --workload mdcreate
	[ "$status" -eq 0 ]
	jq -e 'length == 1 and .[0].id == 2 and .[0].first_case == "mdcreate/xfs"' <<<"$output"
	run --separate-stderr "$FSPROF" runs --db "$DB" --format json --fs btrfs
	[ "$status" -eq 0 ]
	[ "$(jq -c . <<<"$output")" = "[]" ]
	[[ "$stderr" == *"no recorded run matches"* ]]
	run --separate-stderr "$FSPROF" runs --db "$SCRATCH.none.db" --format json
	[ "$status" -eq 0 ]
	[ "$(jq -c . <<<"$output")" = "[]" ]
}

@test "fsprof runs --format with an unknown value is a usage error naming text and json" {
	run --separate-stderr "$FSPROF" runs --db "$DB" --format yaml
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "fsprof: unknown --format (one of text|json): yaml
see 'fsprof runs --help'" ]
	run --separate-stderr "$FSPROF" runs --db "$DB" --format
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--format"* ]]
}

@test "a recorded run re-renders by id, latest and label:NAME exactly as the JSON file its run wrote" {
	shared_runs_ok
	# stored == the file, field for field
	"$FSPROF" report --db "$DB" --format json 1 >"$SCRATCH.a1.json"
	diff <(jq -S . "$SHARED/a.json") <(jq -S . "$SCRATCH.a1.json")
	"$FSPROF" report --db "$DB" --format json label:base >"$SCRATCH.a2.json"
	diff <(jq -S . "$SHARED/a.json") <(jq -S . "$SCRATCH.a2.json")
	"$FSPROF" report --db "$DB" --format json latest >"$SCRATCH.b1.json"
	diff <(jq -S . "$SHARED/b.json") <(jq -S . "$SCRATCH.b1.json")
	# the sqlite3 shell reads it too
	sqlite3 "$DB" 'SELECT sqlar_uncompress(results_json_z, results_json_bytes) FROM runs WHERE id = 1' |
		jq -S . | diff <(jq -S . "$SHARED/a.json") -
	# and the text report is the run's own (B: two cases)
	diff <("$FSPROF" report --db "$DB" 2) "$SHARED/b.out"
	# what is not there is said
	run --separate-stderr "$FSPROF" report --db "$DB" 3
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "fsprof: $DB: no run 3 recorded (fsprof runs lists them)" ]
	run --separate-stderr "$FSPROF" report --db "$DB" label:nope
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no run label:nope recorded"* ]]
}

@test "a user who may only read the database lists and re-renders its runs" {
	local db="$SCRATCH.dbdir/runs.db"
	# as /var/lib/fsprof: a directory only root may write to
	mkdir -m 755 "$SCRATCH.dbdir"
	fsprof_small a --db "$db" --label base
	[ "$status" -eq 0 ]
	# root's reading, the last connection to close, leaves them too
	"$FSPROF" runs --db "$db" >/dev/null
	run --separate-stderr runuser -u nobody -- "$FSPROF" runs --db "$db"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == *" base "* ]]
	runuser -u nobody -- "$FSPROF" report --db "$db" --format json label:base >"$SCRATCH.nobody.json"
	diff <(jq -S . "$SCRATCH.a.json") <(jq -S . "$SCRATCH.nobody.json")
	# the sqlite3 shell, closing last, removes the -wal and -shm files
	[ "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" -eq 1 ]
	[ ! -e "$db-wal" ]
	[ ! -e "$db-shm" ]
	run --separate-stderr runuser -u nobody -- "$FSPROF" runs --db "$db"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	runuser -u nobody -- "$FSPROF" report --db "$db" --format json 1 >"$SCRATCH.nobody.json"
	diff <(jq -S . "$SCRATCH.a.json") <(jq -S . "$SCRATCH.nobody.json")
}

@test "the cases and every phase value are rows: workload, target, mkfs, mount and the metrics" {
	shared_runs_ok
	# run B: fsync and mdcreate on xfs
	[ "$(sqlite3 "$DB" "SELECT case_no, workload, fstype, repeat FROM cases WHERE run_id = 2 ORDER BY case_no")" = "0|fsync|xfs|1
1|mdcreate|xfs|1" ]
	[ "$(sqlite3 "$DB" "SELECT mkfs_cmd FROM cases WHERE run_id = 2 AND case_no = 0")" = "$(jqr "$SHARED/b.json" '.cases[0].target.mkfs_cmd')" ]
	# not aged (--age): an empty age, as the JSON's null
	[ "$(jqr "$SHARED/b.json" '.cases[0].age')" = null ]
	[ "$(sqlite3 "$DB" "SELECT count(*) FROM cases WHERE run_id = 2 AND age = ''")" -eq 2 ]
	# a value the JSON has, in the row
	want=$(jqr "$SHARED/b.json" '.cases[0].phases[0].metrics.xfs.log_forces')
	[ -n "$want" ]
	[ "$want" != null ]
	[ "$(sqlite3 "$DB" "SELECT value FROM metrics WHERE run_id = 2 AND case_no = 0 AND phase = 'cycles' AND metric = 'xfs.log_forces'")" = "$want" ]
	want=$(jqr "$SHARED/b.json" '.cases[0].phases[0].wall_ns')
	[ "$(sqlite3 "$DB" "SELECT value FROM metrics WHERE run_id = 2 AND case_no = 0 AND phase = 'cycles' AND metric = 'wall_ns'")" = "$want" ]
	# the second case's rows are its own
	want=$(jqr "$SHARED/b.json" '.cases[1].phases[0].wall_ns')
	[ "$(sqlite3 "$DB" "SELECT value FROM metrics WHERE run_id = 2 AND case_no = 1 AND phase_no = 0 AND metric = 'wall_ns'")" = "$want" ]
	[ "$(sqlite3 "$DB" "SELECT count(*) FROM metrics WHERE run_id = 2 AND case_no = 0")" -gt 50 ]
}

@test "without --db the run records in \$FSPROF_DB, and --no-db records nothing" {
	export FSPROF_DB="$SCRATCH.env.db"
	fsprof_small a
	[ "$status" -eq 0 ]
	[ "$(runs_in "$FSPROF_DB")" -eq 1 ]
	fsprof_small b --no-db
	[ "$status" -eq 0 ]
	# (! does not fail a bats test: count instead)
	[ "$(grep -c recorded "$SCRATCH.b.err")" -eq 0 ]
	[ "$(runs_in "$FSPROF_DB")" -eq 1 ]
	run "$FSPROF" runs
	[ "${#lines[@]}" -eq 2 ]
}

# the run with a database that cannot take it: exit 0, its JSON complete,
# one warning naming the file and what to do, the file as it was
run_keeps_its_results() {
	local db=$1 why=$2 before
	before=$(contents "$db")
	fsprof_small a --db "$db"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.a.json" '.complete')" = true ]
	grep -q '^fsync on ext4' "$SCRATCH.a.out"
	grep -q "^fsprof: warning: run not recorded: $db: .*$why.*; the results in $SCRATCH.a.json are complete without the history (--no-db skips it)\$" "$SCRATCH.a.err"
	[ "$(contents "$db")" = "$before" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a damaged database: the run still exits 0 and writes its JSON, the warning names the file; fsprof runs refuses it, exit 2" {
	local db="$SCRATCH.bad.db"
	head -c 65536 /dev/urandom >"$db"
	run_keeps_its_results "$db" "file is not a database (.*move it away"
	run --separate-stderr "$FSPROF" runs --db "$db"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "fsprof: $db: "*"not a database"* ]]
	run --separate-stderr "$FSPROF" report --db "$db" latest
	[ "$status" -eq 2 ]
	[[ "$stderr" == "fsprof: $db: "* ]]
}

@test "a database of a newer schema: the run still exits 0 and writes its JSON; fsprof runs and report refuse it, exit 2" {
	local db="$SCRATCH.new.db"
	# a copy of the shared runs' database (2 runs)
	shared_runs_ok
	sqlite3 "$SHARED_DB" ".backup '$db'"
	sqlite3 "$db" 'PRAGMA user_version = 9'
	run_keeps_its_results "$db" "schema version 9, newer than this fsprof's 3.*use a newer fsprof with it, or move the file away"
	[ "$(runs_in "$db")" -eq 2 ]
	run --separate-stderr "$FSPROF" runs --db "$db"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "fsprof: $db: run history of schema version 9, newer"* ]]
	run --separate-stderr "$FSPROF" report --db "$db" 1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"schema version 9"* ]]
}

@test "a database locked beyond the busy timeout: the run waits, then keeps its results and says the file is locked" {
	# a copy of the shared runs' database (2 runs), the test's own
	shared_runs_ok
	DB=$OWN_DB
	sqlite3 "$SHARED_DB" ".backup '$DB'"
	# another writer holds the write lock until it is killed below: the
	# sqlite3 shell, reading from a FIFO this test holds open (a sleep in
	# a pipe once held it for 40 s, and held bats' output open that long)
	# (it waits for the lock itself: wait_for's probe below takes it too)
	mkfifo "$SCRATCH.lock.fifo"
	sqlite3 "$DB" <"$SCRATCH.lock.fifo" >/dev/null 3>&- &
	LOCKER=$!
	exec {LOCKFD}>"$SCRATCH.lock.fifo"
	printf '.timeout 5000\nBEGIN IMMEDIATE;\nDELETE FROM metrics;\n' >&"$LOCKFD"
	wait_for "! sqlite3 '$DB' 'BEGIN IMMEDIATE; ROLLBACK;' 2>/dev/null" 5
	# the busy timeout 2 s, not the default 10 s (src/history/db.c: the
	# unit tests check the default), which was 10 s of this file's 15
	start=$(date +%s%N)
	FSPROF_DB_BUSY_TIMEOUT=2s fsprof_small a --db "$DB"
	[ "$status" -eq 0 ]
	grep -q "^fsprof: warning: run not recorded: $DB: .*locked.*--no-db" "$SCRATCH.a.err"
	# it waited the busy timeout for the other writer first
	[ $((($(date +%s%N) - start) / 1000000)) -ge 2000 ]
	kill "$LOCKER"
	wait "$LOCKER" 2>/dev/null || true
	LOCKER=
	exec {LOCKFD}>&-
	LOCKFD=
	[ "$(runs_in "$DB")" -eq 2 ]
}

@test "two runs at once both record themselves" {
	mkdir "$SCRATCH.b"
	"$FSPROF" run -q -w fsync:files=10 --scratch "$SCRATCH" --db "$DB" \
		--label one >"$SCRATCH.a.out" 2>"$SCRATCH.a.err" &
	a=$!
	"$FSPROF" run -q -w fsync:files=10 --fs xfs --scratch "$SCRATCH.b" \
		--db "$DB" --label two >"$SCRATCH.b.out" 2>"$SCRATCH.b.err" &
	b=$!
	sa=0 sb=0
	wait "$a" || sa=$?
	wait "$b" || sb=$?
	cat "$SCRATCH.a.err" "$SCRATCH.b.err"
	[ "$sa" -eq 0 ]
	[ "$sb" -eq 0 ]
	[ "$(cat "$SCRATCH.a.err" "$SCRATCH.b.err" | grep -c warning)" -eq 0 ]
	[ "$(sqlite3 "$DB" "SELECT group_concat(label) FROM (SELECT label FROM runs ORDER BY label)")" = "one,two" ]
	[ "$(sqlite3 "$DB" 'SELECT count(DISTINCT run_id) FROM metrics')" -eq 2 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	run leftovers "$SCRATCH.b"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "bad --label, --db options and run references are refused with the reason" {
	run --separate-stderr "$FSPROF" run --label "two words" --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "fsprof: --label: label 'two words': only printable characters without spaces"* ]]
	run --separate-stderr "$FSPROF" run --label base --no-db --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "fsprof: --label names the run in the run history: not with --no-db"* ]]
	run --separate-stderr "$FSPROF" runs --db
	[ "$status" -eq 2 ]
	run --separate-stderr "$FSPROF" runs --frob
	[ "$status" -eq 2 ]
	[[ "$stderr" == "fsprof: unknown option '--frob' for runs"* ]]
	run --separate-stderr "$FSPROF" report --db "$DB" 12x
	[ "$status" -eq 2 ]
	[[ "$stderr" == "fsprof: 12x: "* ]]
	run --separate-stderr "$FSPROF" runs --db "$BATS_TEST_DIRNAME"
	[ "$status" -eq 2 ]
	[ "$stderr" = "fsprof: $BATS_TEST_DIRNAME is a directory: give the database file (e.g. $BATS_TEST_DIRNAME/runs.db)" ]
	# no database yet: nothing to list, nothing created
	run --separate-stderr "$FSPROF" runs --db "$DB"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" == "fsprof: $DB: no run history there"* ]]
	[ ! -e "$DB" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
