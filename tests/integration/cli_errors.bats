#!/usr/bin/env bats
# Bad input gets a clear error, a documented exit code, and creates nothing.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	scratch_create
}

teardown() {
	mountpoint -q "$SCRATCH/ro" 2>/dev/null && umount "$SCRATCH/ro"
	scratch_remove
}

scratch_is_empty() {
	[ -z "$(find "$SCRATCH" -mindepth 1 ! -path "$SCRATCH/ro")" ]
}

@test "an unknown subcommand prints the error and one hint line on stderr, and exits 2" {
	run --separate-stderr "$FSPROF" frobnicate
	[ "$status" -eq 2 ]
	[ "$stderr" = "fsprof: unknown command 'frobnicate'
see 'fsprof --help'" ]
	[ -z "$output" ]
}

@test "an unknown run option prints the error and a hint to fsprof run --help, not the usage" {
	run --separate-stderr "$FSPROF" run --frob --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[ "$stderr" = "fsprof: unknown option '--frob' for run
see 'fsprof run --help'" ]
	[ -z "$output" ]
	scratch_is_empty
}

@test "fsprof run --help prints the full usage on stdout and exits 0" {
	run --separate-stderr "$FSPROF" run --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: fsprof"* ]]
	[[ "$output" == *"--device-model M"* ]]
	[ -z "$stderr" ]
}

# a report to a full disk exited 0 with nothing written
@test "output that cannot be written (> /dev/full) fails with exit 1 and says why on stderr" {
	run --separate-stderr bash -c "'$FSPROF' run --help >/dev/full"
	[ "$status" -eq 1 ]
	[ "$stderr" = "fsprof: writing to standard output: No space left on device" ]
}

@test "no arguments prints usage and exits 2" {
	run "$FSPROF"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: fsprof"* ]]
}

@test "--size 0 is refused before anything is created" {
	run "$FSPROF" run --size 0 --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--size"*"zero"* ]]
	scratch_is_empty
}

@test "--size garbage is refused before anything is created" {
	run "$FSPROF" run --size lots --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"'lots' is not a size"* ]]
	scratch_is_empty
}

@test "--size that overflows 64 bits is refused" {
	run "$FSPROF" run --size 99999999999T --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"too large"* ]]
	scratch_is_empty
}

@test "--size larger than the scratch filesystem's free space is refused before anything is created" {
	run "$FSPROF" run --size 500T --scratch "$SCRATCH"
	[ "$status" -eq 3 ]
	[[ "$output" == *"free but the image needs"* ]]
	scratch_is_empty
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}

@test "a read-only scratch directory is refused with a clear error" {
	mkdir "$SCRATCH/ro"
	mount -t tmpfs -o ro,size=1g tmpfs "$SCRATCH/ro"
	run "$FSPROF" run --size 4M --scratch "$SCRATCH/ro"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$SCRATCH/ro is not writable"* ]]
}

@test "a scratch directory that does not exist is refused, naming it" {
	run "$FSPROF" run --size 4M --scratch "$SCRATCH/missing"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$SCRATCH/missing"*"No such file or directory"* ]]
	[ ! -e "$SCRATCH/missing" ]
}

@test "a run without root or capabilities exits 3 naming CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN" {
	chmod 755 "$SCRATCH"
	run setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$FSPROF" run --size 4M --scratch "$SCRATCH"
	[ "$status" -eq 3 ]
	[[ "$output" == *CAP_BPF* ]]
	[[ "$output" == *CAP_PERFMON* ]]
	[[ "$output" == *CAP_SYS_ADMIN* ]]
	scratch_is_empty
}

@test "a results file in a directory that does not exist is refused before the run" {
	run "$FSPROF" run -q --size 4M --scratch "$SCRATCH" --json "$SCRATCH/no/such/dir/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$SCRATCH/no/such/dir"* ]]
	scratch_is_empty
}

@test "a results file where no file can be made (/proc) is refused before the run, as root too" {
	run "$FSPROF" run -q --size 4M --scratch "$SCRATCH" --html /proc/fsprof-results.html
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--html /proc/fsprof-results.html: cannot write in /proc"* ]]
	[ ! -e /proc/fsprof-results.html ]
	scratch_is_empty
}

# the last line of stderr of "fsprof ARGS...", which must exit 2
usage_hint_of() {
	run --separate-stderr "$FSPROF" "$@"
	echo "fsprof $*: status $status, stderr: $stderr"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	hint="${stderr##*$'\n'}"
}

# a bad option value and an unknown option of subcommand SUB both end with
# "see 'fsprof SUB --help'": ARGS... is the bad value, then --frob
assert_usage_hint_names() {
	local sub="$1"
	shift
	usage_hint_of "$sub" "$@"
	[ "$hint" = "see 'fsprof $sub --help'" ]
	usage_hint_of "$sub" --frob
	[ "$hint" = "see 'fsprof $sub --help'" ]
	[[ "$stderr" == *--frob* ]]
}

@test "a usage error of fsprof run points to fsprof run --help" {
	assert_usage_hint_names run --duration 5
}

@test "a usage error of fsprof trace points to fsprof trace --help, not run's" {
	assert_usage_hint_names trace --duration 5 -- true
	usage_hint_of trace --scale huge -- true
	[ "$hint" = "see 'fsprof trace --help'" ]
	usage_hint_of trace
	[ "$hint" = "see 'fsprof trace --help'" ]
}

@test "a usage error of fsprof record points to fsprof record --help, not run's" {
	assert_usage_hint_names record --duration 5 --dir /tmp
	[[ "$stderr" != *"fsprof run --help"* ]]
	usage_hint_of record --dir /tmp --repeat 0
	[ "$hint" = "see 'fsprof record --help'" ]
	usage_hint_of record --dir /tmp --label 'bad label'
	[ "$hint" = "see 'fsprof record --help'" ]
}

@test "a usage error of fsprof report points to fsprof report --help" {
	assert_usage_hint_names report --format nosuch results.json
}

@test "a usage error of fsprof diff points to fsprof diff --help" {
	assert_usage_hint_names diff --alpha 2 a.json b.json
}

@test "a usage error of fsprof runs points to fsprof runs --help" {
	assert_usage_hint_names runs --db
}

@test "a usage error of fsprof phase points to fsprof phase --help" {
	usage_hint_of phase 'two words'
	[ "$hint" = "see 'fsprof phase --help'" ]
	usage_hint_of phase --frob extra
	[ "$hint" = "see 'fsprof phase --help'" ]
}

# a marker after fsprof trace has ended (a background child of the
# command's, a script's last line racing its end): the pipe has no reader.
# SIGPIPE's default action killed fsprof phase silently (exit 141), not
# the error and exit 1 its --help documents
@test "fsprof phase with no fsprof trace reading FSPROF_PHASE_FD any more says so and exits 1, not killed by SIGPIPE" {
	exec {fd}> >(true)
	reader=$!
	wait_for "! kill -0 $reader 2>/dev/null" 5
	run env FSPROF_PHASE_FD="$fd" "$FSPROF" phase late
	exec {fd}>&-
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"phase: write to FSPROF_PHASE_FD $fd: Broken pipe (no fsprof trace reads it: it has ended)"* ]]
}

@test "a usage error of fsprof list points to fsprof list --help" {
	assert_usage_hint_names list probes --frob
}

@test "a usage error of fsprof check points to fsprof check --help" {
	assert_usage_hint_names check --format=yaml
}

@test "a usage error of fsprof cleanup points to fsprof cleanup --help" {
	assert_usage_hint_names cleanup --scratch
}

@test "every subcommand a usage hint names answers --help on stdout with its usage and exits 0" {
	local sub
	for sub in run trace record report diff runs phase list check cleanup; do
		run --separate-stderr "$FSPROF" "$sub" --help
		echo "fsprof $sub --help: status $status"
		[ "$status" -eq 0 ]
		[[ "$output" == *"fsprof $sub"* ]]
		[ -z "$stderr" ]
	done
}

@test "a subcommand's usage lines name only options of its own list, which the option table prints" {
	local sub help synopsis listed opt stray=""
	for sub in trace record report diff runs check cleanup list phase bisect-step; do
		help=$("$FSPROF" "$sub" --help)
		# the usage lines: up to the first empty line
		synopsis=$(sed -n '1,/^$/p' <<<"$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
		# the option list: "  -w, --workload W" / "      --json", one row each
		listed=$(grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]+' <<<"$help" |
			grep -oE -- '--[a-z-]+' | sort -u)
		[ -n "$listed" ] || stray+=" $sub:no-option-list"
		for opt in $synopsis; do
			grep -qxe "$opt" <<<"$listed" || stray+=" $sub:$opt"
		done
	done
	echo "usage lines naming an option their list lacks:$stray"
	[ -z "$stray" ]
}

@test "fsprof trace takes one --device: several are refused before any is opened, pointing to fsprof run --raid" {
	run --separate-stderr "$FSPROF" trace --device /nonexistent/a,/nonexistent/b --scratch "$SCRATCH" -- true
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"2 devices given: fsprof trace takes one"*"fsprof run --raid LEVEL:N"* ]]
	[[ "$stderr" == *"see 'fsprof trace --help'"* ]]
	scratch_is_empty
	run "$FSPROF" trace --help
	[[ "$output" == *"--device DEV "* ]]
	[[ "$output" != *"DEV[,DEV]"* ]]
	run "$FSPROF" run --help
	[[ "$output" == *"--device DEV[,DEV]..."* ]]
}
