#!/bin/sh
# Runs inside a guest of fsprof run --kernel (from /init): the host's fsprof
# run, its arguments one a line in /args, on images in the scratch disk,
# each case let run by the host through the gate on the second serial port
# (ttyS1; src/run/case_gate.h).
# Into $1, which the host reads back: kernel (uname -r), btf-modules,
# run.json, run.log (fsprof's output), rc (its exit status).
out=$1

uname -r >"$out/kernel"
ls /sys/kernel/btf >"$out/btf-modules"
set --
while IFS= read -r a; do
	set -- "$@" "$a"
done </args
echo "fsprof-vm: fsprof run $* on $(uname -r)" >/dev/console
/fsprof run "$@" --no-db --scratch /scratch --json "$out/run.json" \
	--case-gate /dev/ttyS1 \
	>"$out/run.log" 2>&1
rc=$?
echo "$rc" >"$out/rc"
echo "fsprof-vm: fsprof run exited $rc" >/dev/console
exit "$rc"
