#!/usr/bin/env bash
# Build the Debian packages postgresql-<major>-parquet-fdw, as root on
# Debian 12, for every PostgreSQL major whose server headers are installed
# (postgresql-server-dev-<major>), from the release archive `make dist`
# makes of the committed HEAD: what is not committed is not packaged.
#
#   scripts/build-deb.sh [OUTDIR]     .deb files to OUTDIR (default build/deb)
#
# Installs missing build dependencies with apt (debhelper,
# postgresql-server-dev-all, the compression/crypto headers); the build
# itself is pg_buildext's (debian/rules), for the majors given to it in
# PG_SUPPORTED_VERSIONS, with debian/control regenerated for them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd)
OUTDIR=$(realpath -m "${1:-$REPO/build/deb}")
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
	echo "build-deb: run as root (apt-get)" >&2
	exit 1
fi

pkgs=(debhelper dpkg-dev postgresql-server-dev-all git unzip libsnappy-dev
	libzstd-dev liblz4-dev libbrotli-dev libxxhash-dev libssl-dev zlib1g-dev
	libcurl4-openssl-dev)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "build-deb: apt-get install ${missing[*]}"
	# one apt at a time: .ci/run builds other majors meanwhile (pg-build.sh)
	flock /run/lock/parquet_fdw-apt.lock apt-get update -q
	flock /run/lock/parquet_fdw-apt.lock \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The majors to build for: Debian's PostgreSQL with its server headers.
majors=()
for pgc in /usr/lib/postgresql/*/bin/pg_config; do
	[ -x "$pgc" ] || continue
	m=$(basename "$(dirname "$(dirname "$pgc")")")
	[ -f "$("$pgc" --includedir-server)/postgres.h" ] && majors+=("$m")
done
if [ ${#majors[@]} = 0 ]; then
	echo "build-deb: no PostgreSQL server headers in /usr/lib/postgresql/*" >&2
	exit 1
fi
echo "build-deb: PostgreSQL majors ${majors[*]}"

WORK=$(mktemp -d /tmp/parquet_fdw_deb.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
make -s dist >/dev/null
archive=$(ls -t parquet_fdw-*.zip | head -n 1)
echo "build-deb: $archive (HEAD $(git rev-parse --short HEAD))"
unzip -q "$archive" -d "$WORK"
src=$(echo "$WORK"/parquet_fdw-*)

export PG_SUPPORTED_VERSIONS="${majors[*]}"
(
	cd "$src"
	pg_buildext updatecontrol
	dpkg-buildpackage -b -us -uc -j2
) >"$WORK/build.log" 2>&1 || {
	tail -n 60 "$WORK/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed" >&2
	exit 1
}
mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/postgresql-*-parquet-fdw_*.deb
for m in "${majors[@]}"; do
	deb=$(ls "$WORK"/postgresql-"$m"-parquet-fdw_*.deb)
	cp "$deb" "$OUTDIR/"
	echo "build-deb: $OUTDIR/$(basename "$deb")"
done
