#!/usr/bin/env bash
# Run fsprof on other kernels: Debian's own 6.1 and 6.12 kernels booted under
# QEMU, one tiny fsprof run on ext4 and on xfs in each, and a check of the
# results on the host (every domain attached, nothing failed, every domain
# that concerns the filesystem counted something).
#
#   scripts/vm-test.sh [options] [KERNEL...]      KERNEL: 6.1 6.12 (default)
#                                                 or an exact package name
#   --fsprof BIN   the fsprof to test (default build/fsprof, brought up to
#                  date with make); its libraries (ldd) go into the guest
#   --fs LIST      filesystems, space separated (default "ext4 xfs")
#   --size S       seqio size in the guest (default 8M)
#   --cache DIR    downloaded and unpacked kernels ($FSPROF_VM_CACHE,
#                  default /var/cache/fsprof-vm)
#   --out DIR      per-kernel results and summary.json (default build/vm)
#   --timeout S    limit for one guest (default 600: a shared machine may
#                  be slow; a hung guest still ends)
#   --jobs N       guests booted at once (default 1; each has one vCPU under
#                  TCG, two under KVM): 2 saves a guest's wall time where
#                  CPU is free (with two vCPUs each, a loaded run once
#                  lost its 6.12 guest, its console not kept)
#   --prepare      install packages, fetch and stage kernels; do not boot
#   --no-kconfig   no /boot/config-<release> in the guest (as in a container
#                  or a minimal system): __kconfig externs must cope
#
# Kernels come from the Debian archive (apt-get download), are unpacked with
# dpkg -x into the cache (never installed into /boot) and booted uncompressed
# (PVH) with a busybox initramfs. Exit: 0 all checks passed, 1 a check failed,
# 3 this machine cannot run the test (no QEMU or kernel packages to be had).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
vmdir=$top/scripts/vm

# Debian packages the VM test needs on the host (with make deps' DEPS)
VM_DEPS="qemu-system-x86 busybox-static xz-utils zstd cpio binutils e2fsprogs xfsprogs jq"
# what the guest loads; their dependencies are found from .modinfo
GUEST_MODULES="crc32c_generic virtio_pci virtio_blk loop fuse ext4 xfs"
# staged with these too, as fsprof run --kernel stages them (one staged
# directory serves both); the guest loads only GUEST_MODULES
STAGED_MODULES="$GUEST_MODULES md_mod raid0 raid1 dm_mod"

fsprof=$top/build/fsprof
fsprof_given=
fslist="ext4 xfs"
size=8M
image_size=320M # mkfs.xfs refuses less than 300 MB
cache=${FSPROF_VM_CACHE:-/var/cache/fsprof-vm}
out=$top/build/vm
timeout_s=600
jobs=1
prepare_only=0
with_kconfig=1
kernels=()

say() { echo "vm-test: $*"; }
cannot_run() {
	echo "vm-test: cannot run here: $*" >&2
	exit 3
}

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 2
}

parse_args() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--fsprof) fsprof=$2; fsprof_given=1; shift ;;
		--fs) fslist=$2; shift ;;
		--size) size=$2; shift ;;
		--cache) cache=$2; shift ;;
		--out) out=$2; shift ;;
		--timeout) timeout_s=$2; shift ;;
		--jobs) jobs=$2; shift ;;
		--prepare) prepare_only=1 ;;
		--no-kconfig) with_kconfig=0 ;;
		-h | --help) usage ;;
		-*) echo "vm-test: unknown option $1" >&2; usage ;;
		*) kernels+=("$1") ;;
		esac
		shift
	done
	[ ${#kernels[@]} -gt 0 ] || kernels=(6.1 6.12)
	[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "vm-test: --jobs takes a whole number from 1, not '$jobs'" >&2; exit 2; }
}

ensure_packages() {
	local p missing=()

	for p in $VM_DEPS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || cannot_run "packages missing (${missing[*]}) and not root to install them"
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } ||
		cannot_run "apt-get install ${missing[*]} failed"
}

# stage one kernel (KERNEL: 6.1, 6.12 or a package) with kernel-stage.sh,
# the stager fsprof run --kernel uses: its directory on stdout
stage_kernel() {
	local status=0 kdir
	# shellcheck disable=SC2086
	kdir=$(FSPROF_VM_CACHE=$cache "$vmdir/kernel-stage.sh" "$1" $STAGED_MODULES) || status=$?
	case $status in
	0) echo "$kdir" ;;
	2 | 3) cannot_run "kernel $1 cannot be staged (see above)" ;;
	*) return 1 ;;
	esac
}

build_initramfs() {
	local kdir=$1 dst=$2 conf opts=()

	conf=$(dirname "$dst")/vm.conf
	printf 'FSLIST="%s"\nSIZE=%s\nIMAGE_SIZE=%s\n' "$fslist" "$size" \
		"$image_size" >"$conf"
	# as on an installed Debian kernel (libbpf reads it for __kconfig)
	[ "$with_kconfig" -eq 0 ] || opts+=(--kconfig)
	"$vmdir/initramfs.sh" "$kdir" "$fsprof" "$vmdir/guest-run.sh" "$dst" \
		"${opts[@]}" --program mkfs.ext4 --program mkfs.xfs \
		--modules "$GUEST_MODULES" --file "$conf:/vm.conf"
	rm -f "$conf"
}

# KVM only where the CPU really offers it; TCG everywhere else
qemu_accel() {
	if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
		echo "kvm"
	else
		echo "tcg"
	fi
}

# vCPUs: one under TCG, where two race the guest kernel's text patching
# (src/vm/guest.c, GUEST_CPUS_TCG)
qemu_cpus() {
	[ "$(qemu_accel)" = kvm ] && echo 2 || echo 1
}

# boot one kernel; results land in $rdir
boot_kernel() {
	local kdir=$1 rdir=$2 t0 t1 status=0

	rm -rf "$rdir"
	mkdir -p "$rdir/out"
	build_initramfs "$kdir" "$rdir/initrd.cpio"
	truncate -s 1G "$rdir/scratch.img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$rdir/scratch.img"
	truncate -s 64M "$rdir/results.img"
	t0=$(date +%s.%N)
	timeout "$timeout_s" qemu-system-x86_64 -accel "$(qemu_accel)" -cpu max \
		-m 1024 -smp "$(qemu_cpus)" -nodefaults -no-reboot -display none \
		-serial stdio -kernel "$kdir/boot" -initrd "$rdir/initrd.cpio" \
		-append "console=ttyS0 quiet panic=-1 oops=panic rdinit=/init cgroup_no_v1=all" \
		-drive "file=$rdir/scratch.img,if=virtio,format=raw,cache=unsafe" \
		-drive "file=$rdir/results.img,if=virtio,format=raw,cache=unsafe" \
		</dev/null >"$rdir/serial.log" 2>&1 || status=$?
	t1=$(date +%s.%N)
	echo "$status" >"$rdir/qemu_status"
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' >"$rdir/wall_s"
	tar -xf "$rdir/results.img" -C "$rdir/out" 2>/dev/null || true
	rm -f "$rdir/scratch.img" "$rdir/results.img" "$rdir/initrd.cpio"
}

# The same fsprof on this host's kernel is the reference: the domains it
# attaches here must attach in every guest. Without a host run (not root,
# no loop devices), every bpf/<d>.bpf.c is expected.
host_reference() {
	local tmp
	tmp=$(mktemp -d /var/tmp/fsprof-vm-host.XXXXXX)
	# ext4 and xfs: a domain loads only for the filesystems it traces
	if "$fsprof" run -q -w "seqio:size=$size" --fs ext4,xfs \
		--image-size "$image_size" --scratch "$tmp" \
		--json "$out/host.json" >"$out/host.log" 2>&1; then
		jq -c '[.cases[].programs[].domain] | unique' "$out/host.json"
	else
		say "fsprof fails on this host (see $out/host.log); expecting every bpf/*.bpf.c domain" >&2
		for f in "$top"/bpf/*.bpf.c; do
			f=${f##*/}
			f=${f%.bpf.c}
			# the object of all domains, and the phase marker
			[ "$f" = fsprof ] || [ "$f" = marker ] || echo "$f"
		done | jq -R . | jq -sc .
	fi
	rm -rf --one-file-system "$tmp"
}

# summary of one kernel as JSON (also printed as text by report_kernel)
judge_kernel() {
	local pkg=$1 rdir=$2 expected=$3 fs rc boot_s end_s files=()

	boot_s=$(sed -n 's/.*fsprof-vm: init started.* uptime=\([0-9.]*\).*/\1/p' "$rdir/serial.log" | head -n1)
	end_s=$(sed -n 's/.*fsprof-vm: test finished.* uptime=\([0-9.]*\).*/\1/p' "$rdir/serial.log" | head -n1)
	for fs in $fslist; do
		rc=$(awk -v fs="$fs" '$1 == fs { print $2 }' "$rdir/out/status" 2>/dev/null || true)
		jq -n --arg fs "$fs" --argjson rc "${rc:-255}" \
			--argjson expected "$expected" \
			--slurpfile run <(cat "$rdir/out/$fs.json" 2>/dev/null) \
			--slurpfile hostrun <(cat "$out/host.json" 2>/dev/null) \
			-f "$vmdir/check-results.jq" >"$rdir/judge-$fs.json"
		files+=("$rdir/judge-$fs.json")
	done
	jq -s --arg pkg "$pkg" --arg release "$(cat "$rdir/out/kernel" 2>/dev/null)" \
		--arg boot "${boot_s:-}" --arg done_s "${end_s:-}" \
		--arg wall "$(cat "$rdir/wall_s")" \
		--arg qemu "$(cat "$rdir/qemu_status")" --arg limit "$timeout_s" \
		--arg btf "$(cat "$rdir/out/btf-modules" 2>/dev/null | tr '\n' ' ')" '{
		package: $pkg, release: $release,
		boot_s: ($boot | tonumber? // null),
		guest_s: ($done_s | tonumber? // null),
		wall_s: ($wall | tonumber),
		btf: ($btf | split(" ") | map(select(. != ""))),
		runs: .,
		problems: (if $qemu == "124" then ["the guest was stopped after \($limit) s (--timeout): see serial.log"] else [] end
			+ if $release == "" then ["the guest did not come up or wrote no results: see serial.log"] else [] end
			+ if $release == "" then [] else [.[].problems[]] end)
	}' "${files[@]}" >"$rdir/summary.json"
}

report_kernel() {
	local rdir=$1
	jq -r '
		"\(.package): Linux \(.release), boot \(.boot_s) s to /init, guest done at \(.guest_s) s, qemu wall \(.wall_s) s",
		"  module BTF: \(.btf | join(" "))",
		(.runs[] | .fs as $fs | .domains | to_entries[] |
			"  \($fs) \(.key): attached \(.value.attached | join(" ") | if . == "" then "-" else . end)" +
			(if (.value.missing | length) > 0 then "; missing \(.value.missing | join(", "))" else "" end) +
			(if (.value.failed | length) > 0 then "; FAILED \(.value.failed | join(", "))" else "" end) +
			(if (.value.vs_host.not_here + .value.vs_host.only_here | length) > 0 then
				"; vs host: \(.value.vs_host.only_here | map("+" + .) | join(" ")) \(.value.vs_host.not_here | map("-" + .) | join(" "))"
			else "" end) +
			(if .value.checked then (if .value.nonzero then "; counts ok" else "; counted nothing" end) +
				(if .key != "block" then " (metrics non-zero: \(.value.metrics_nonzero))" else "" end)
			else "" end)),
		(.problems[] | "  PROBLEM: \(.)")
	' "$rdir/summary.json"
	# a guest that wrote no results: how its console ended says why
	if [ -z "$(jq -r '.release' "$rdir/summary.json")" ]; then
		echo "  qemu exit status $(cat "$rdir/qemu_status"); the end of its serial console:"
		grep -v '^[[:space:]]*$' "$rdir/serial.log" | tail -n 15 | cut -c1-160 | sed 's/^/    /'
	fi
}

# stage one kernel in the background: its kernel directory goes into $2,
# the job's status (3: cannot run here) into $2.rc
kernel_ready() {
	local status=0
	(stage_kernel "$1" >"$2") || status=$?
	echo "$status" >"$2.rc"
}

main() {
	local i k all=() failed=0 t0 status ref_pid='' expected
	local pkgs=() kdirs=() rdirs=() pids=()

	parse_args "$@"
	[ "$(uname -m)" = x86_64 ] || cannot_run "the VM test boots amd64 kernels; this is $(uname -m)"
	ensure_packages
	# the default binary is rebuilt when stale; a given one is used as is
	if [ "$prepare_only" -eq 0 ] && [ -z "$fsprof_given" ]; then
		make -C "$top" --no-print-directory build/fsprof >/dev/null ||
			{ echo "vm-test: make build/fsprof failed" >&2; exit 1; }
	fi
	[ "$prepare_only" -eq 1 ] || [ -x "$fsprof" ] ||
		{ echo "vm-test: $fsprof is not an executable" >&2; exit 1; }
	fsprof=$(readlink -f "$fsprof")
	mkdir -p "$out"
	t0=$(date +%s)
	# the host's own run, the reference, goes on while the guests boot:
	# only judging them needs it
	if [ "$prepare_only" -eq 0 ]; then
		host_reference >"$out/expected" &
		ref_pid=$!
	fi
	# every kernel downloaded and unpacked at once (network, then xz)
	for k in "${kernels[@]}"; do
		pkgs+=("$k")
		kernel_ready "$k" "$out/kdir.${#pkgs[@]}" &
		pids+=($!)
	done
	for i in "${!pkgs[@]}"; do
		wait "${pids[i]}" || true
		status=$(cat "$out/kdir.$((i + 1)).rc" 2>/dev/null || echo 1)
		if [ "$status" -ne 0 ]; then
			# the reference run ends on its own in seconds: not left behind
			[ -z "${ref_pid:-}" ] || wait "$ref_pid" || true
			[ "$status" -ne 3 ] || exit 3
			echo "vm-test: ${pkgs[i]} could not be staged" >&2
			exit 1
		fi
		kdirs+=("$(cat "$out/kdir.$((i + 1))")")
		pkgs[i]=$(cat "${kdirs[i]}/source")
		rm -f "$out/kdir.$((i + 1))" "$out/kdir.$((i + 1)).rc"
		[ "$prepare_only" -eq 0 ] || say "${pkgs[i]} ready in ${kdirs[i]}"
	done
	[ "$prepare_only" -eq 1 ] && return 0
	# the guests, --jobs at a time: a TCG guest waits on its disks and
	# timers for much of its boot, and the other uses that CPU
	pids=()
	for i in "${!kdirs[@]}"; do
		if [ "${#pids[@]}" -ge "$jobs" ]; then
			wait "${pids[0]}" || true
			pids=("${pids[@]:1}")
		fi
		rdirs+=("$out/$(cat "${kdirs[i]}/release")")
		say "booting ${pkgs[i]} ($(qemu_accel))"
		boot_kernel "${kdirs[i]}" "${rdirs[i]}" &
		pids+=($!)
	done
	for i in "${pids[@]}"; do
		wait "$i" || true
	done
	wait "$ref_pid" || true
	expected=$(cat "$out/expected")
	rm -f "$out/expected"
	say "host $(uname -r) attaches domains $expected"
	for i in "${!kdirs[@]}"; do
		judge_kernel "${pkgs[i]}" "${rdirs[i]}" "$expected"
		report_kernel "${rdirs[i]}"
		jq -e '.problems == []' "${rdirs[i]}/summary.json" >/dev/null || failed=1
		all+=("${rdirs[i]}/summary.json")
	done
	jq -s '{kernels: ., ok: (map(.problems == []) | all)}' "${all[@]}" >"$out/summary.json"
	say "$(( $(date +%s) - t0 )) s for ${#kernels[@]} kernels; $([ $failed -eq 0 ] && echo "all checks passed" || echo "CHECKS FAILED") ($out/summary.json)"
	return $failed
}

main "$@"
