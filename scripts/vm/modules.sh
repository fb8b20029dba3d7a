#!/usr/bin/env bash
# Stage kernel modules for a guest that has no modprobe:
#   modules.sh MODDIR OUTDIR MODULE...
# MODDIR is an unpacked lib/modules/<release>. Every MODULE and what it
# depends on (the depends= line of its .modinfo) is decompressed into
# OUTDIR/<name>.ko, and the load order is printed, one name per line,
# dependencies first. A module built into this kernel (modules.builtin) is
# left out; one that is neither built in nor shipped is an error.
set -euo pipefail

moddir=$1
outdir=$2
shift 2

declare -A path_of=() builtin=() state=()
order=()

modname() {
	local base=${1##*/}
	base=${base%%.ko*}
	echo "${base//-/_}"
}

index_modules() {
	local f
	while IFS= read -r f; do
		path_of[$(modname "$f")]=$f
	done < <(find "$moddir" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz')
	if [ -r "$moddir/modules.builtin" ]; then
		while IFS= read -r f; do
			builtin[$(modname "$f")]=1
		done <"$moddir/modules.builtin"
	fi
}

# decompress one module into OUTDIR/<name>.ko
stage_module() {
	local name=$1 src=${path_of[$1]} dst=$outdir/$1.ko
	case "$src" in
	*.ko.xz) xz -dc "$src" >"$dst" ;;
	*.ko.zst) zstd -qdc "$src" >"$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$dst" ;;
	*) cp "$src" "$dst" ;;
	esac
}

module_depends() {
	local info
	info=$(mktemp)
	objcopy -O binary --only-section=.modinfo "$outdir/$1.ko" "$info"
	tr '\0' '\n' <"$info" | sed -n 's/^depends=//p' | tr ',' ' '
	rm -f "$info"
}

# depth first: a module is appended after everything it depends on
visit() {
	local name=$1 dep
	case "${state[$name]:-}" in
	staged) return 0 ;;
	active)
		echo "modules: dependency cycle through $name" >&2
		return 1
		;;
	esac
	if [ -z "${path_of[$name]:-}" ]; then
		if [ -n "${builtin[$name]:-}" ]; then
			state[$name]=staged
			return 0
		fi
		echo "modules: $name is neither a module in $moddir nor built in" >&2
		return 1
	fi
	state[$name]=active
	stage_module "$name"
	# depends= names a module as its file is named (raid0: md-mod)
	for dep in $(module_depends "$name"); do
		visit "$(modname "$dep")"
	done
	state[$name]=staged
	order+=("$name")
}

mkdir -p "$outdir"
index_modules
for m in "$@"; do
	visit "$(modname "$m")"
done
printf '%s\n' "${order[@]}"
