# Overlays over the server's library and share directories, for installing
# builds inside a private mount namespace (unshare -m) while the installed
# extension stays as it was (sourced):
#
#   bench_overlay WORK      upper and work directories under WORK/overlay
#   bench_install BUILD WORK  make install of base (WORK/base_src) or current
# shellcheck shell=bash

bench_overlay() {
	local d o
	for d in "$("$PG_CONFIG" --pkglibdir)" "$("$PG_CONFIG" --sharedir)"; do
		o=$1/overlay/$(basename "$(dirname "$d")")_$(basename "$d")
		mkdir -p "$o/upper" "$o/work"
		mount -t overlay overlay -o "lowerdir=$d,upperdir=$o/upper,workdir=$o/work" "$d"
	done
}

# make install of build BUILD: base is WORK/base_src, current this tree
bench_install() {
	local src=$PWD
	[ "$1" = base ] && src=$2/base_src
	make -s -C "$src" install >/dev/null
}
