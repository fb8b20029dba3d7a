#!/bin/sh
# Runs inside the guest (from /init): what this kernel offers fsprof, then
# one tiny fsprof run per filesystem in /vm.conf. Everything goes into $1,
# which the host reads back: <fs>.json, <fs>.log, status, check.json.
out=$1
. /vm.conf

uname -r >"$out/kernel"
ls /sys/kernel/btf >"$out/btf-modules"
/fsprof check --json >"$out/check.json" 2>"$out/check.log"
for fs in $FSLIST; do
	start=$(cut -d' ' -f1 /proc/uptime)
	/fsprof run -v -w "seqio:size=$SIZE" --fs "$fs" \
		--image-size "$IMAGE_SIZE" --scratch /scratch \
		--json "$out/$fs.json" >"$out/$fs.log" 2>&1
	rc=$?
	end=$(cut -d' ' -f1 /proc/uptime)
	echo "$fs $rc $start $end" >>"$out/status"
	echo "fsprof-vm: fsprof run on $fs exited $rc ($start -> $end s)" >/dev/console
done
