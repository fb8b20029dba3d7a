# Judge one guest run: jq -n --arg fs ext4 --argjson rc N
#   --argjson expected '["block",...]' --slurpfile run <fs>.json
#   --slurpfile hostrun host.json (the same fsprof on the host, for vs_host)
# Prints {fs, rc, domains: {<d>: {attached, missing, failed, vs_host,
# checked, nonzero, metrics_nonzero}}, absent, problems}. A problem is:
# fsprof failed, a domain never reached the attach report (its open or load
# failed), a program failed to attach, a domain that attached and concerns
# this filesystem counted nothing at all, or the block domain saw less IO
# than seqio did.

# ext4/jbd2 only see ext*, xfs only xfs; everything else sees every filesystem
def concerns($d; $fs):
	if $d == "ext4" or $d == "jbd2" then ($fs | test("^ext[34]"))
	elif $d == "xfs" then $fs == "xfs"
	elif $d == "btrfs" then $fs == "btrfs"
	else true end;

def counted($case; $d):
	if $d == "block" then
		[$case.phases[].block.total.ios, $case.spill.block.total.ios // 0] | add
	else
		[($case.phases[] | .metrics[$d], .histograms[$d]),
		 ($case.spill | .metrics[$d], .histograms[$d])
		 | .. | numbers] | add // 0
	end;

# "n of m": how many of the domain's named metrics are non-zero in the case
def metrics_nonzero($case; $d):
	[($case.phases[], $case.spill) | .metrics[$d] // {} | to_entries[]]
	| group_by(.key) | map(map(.value) | add)
	| "\(map(select(. != 0)) | length) of \(length)";

# seqio's write phase puts at least its bytes on the device, and its cold
# read phase reads at least its bytes from it (CO-RE reads of the request
# size and op are right on this kernel) but for a few pages: drop_caches
# leaves a folio that a CPU's LRU batch still holds a reference to, and
# readahead reads around it (6.1, xfs: 8,355,840 of 8,388,608 bytes, one
# hole of 32 KiB, in 1 of ~8 runs). A wrong CO-RE read is off by far more.
def read_slack: 16 * 4096;
def block_short($case):
	[$case.phases[] | select(.name == "write" or .name == "read")
	 | .name as $p | (.block.classes[$p].bytes // 0) as $dev
	 | select($dev < .workload.bytes - (if $p == "read" then read_slack else 0 end))
	 | "block: the \($p) phase saw \($dev) bytes \($p == "write" | if . then "written to" else "read from" end) the device, less than the workload's \(.workload.bytes)"];

($run[0] // {cases: []}) as $r
| ($r.cases[0] // {programs: [], phases: []}) as $case
| ($case.programs | map(.domain) | unique) as $present
| ([$expected[] | select(concerns(.; $fs))] - $present) as $absent
| (reduce $present[] as $d ({};
	.[$d] = {
		attached: [$case.programs[] | select(.domain == $d and .state == "attached") | .program],
		missing: [$case.programs[] | select(.domain == $d and .state == "missing") | "\(.program) (\(.event))"],
		failed: [$case.programs[] | select(.domain == $d and .state == "failed") | "\(.program) (\(.event)): \(.reason)"]
	}
	| .[$d].vs_host = (
		[$hostrun[0].cases[]?.programs[]? | select(.domain == $d and .state == "attached") | .program] as $h
		| {not_here: ($h - .[$d].attached), only_here: (.[$d].attached - $h)})
	| .[$d].checked = ((.[$d].attached | length) > 0 and concerns($d; $fs))
	| .[$d].nonzero = (counted($case; $d) > 0)
	| .[$d].metrics_nonzero = metrics_nonzero($case; $d)
)) as $domains
| {
	fs: $fs,
	rc: $rc,
	domains: $domains,
	absent: $absent,
	problems: (
		(if $rc != 0 then ["fsprof run on \($fs) exited \($rc)"] else [] end)
		+ (if ($r.cases | length) == 0 then ["no results JSON from the run on \($fs)"] else [] end)
		+ [$absent[] | "domain \(.) is not in the attach report (open or load failed: see \($fs).log)"]
		+ [$domains | to_entries[] | .key as $d | .value.failed[] | "\($d): \(.) failed to attach"]
		+ [$domains | to_entries[] | select(.value.checked and (.value.nonzero | not))
		   | "\(.key): attached but counted nothing on \($fs)"]
		+ (if $domains.block.checked then block_short($case) else [] end)
	)
}
