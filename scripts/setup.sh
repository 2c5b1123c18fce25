#!/usr/bin/env bash
# Install what parquet_fdw needs on Debian 12 (as root), build and install the
# extension, and install the JavaScript test tools (test/js, from its
# package-lock.json). Idempotent: apt runs only when a package is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
	echo "setup: run as root (apt-get, make install, runuser)" >&2
	exit 1
fi

pkgs=(postgresql-15 postgresql-server-dev-15 build-essential pg-bsd-indent libsnappy-dev libzstd-dev
	liblz4-dev libbrotli-dev libxxhash-dev libssl-dev zlib1g-dev libcurl4-openssl-dev openssl
	libroaring-dev # Delta deletion vectors, Iceberg v3 deletion vectors (roaring bitmaps)
	libavro-dev # Iceberg manifest lists and manifests (Avro)
	postgresql-15-postgis-3 # PostGIS only for the PostGIS tests: nothing links to it
	clang libclang-rt-14-dev) # the fuzz targets (libFuzzer)
# Node.js only if there is none (Debian 12's nodejs 18 + npm 9 are enough).
if ! command -v node >/dev/null 2>&1; then
	pkgs+=(nodejs npm)
elif ! command -v npm >/dev/null 2>&1; then
	pkgs+=(npm)
fi

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: apt-get install ${missing[*]}"
	# one apt at a time: .ci/run builds other majors meanwhile (pg-build.sh)
	flock /run/lock/parquet_fdw-apt.lock apt-get update -q
	flock /run/lock/parquet_fdw-apt.lock \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
else
	echo "setup: apt packages already installed"
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 18 ]; then
	echo "setup: Node.js >= 18 required, found $(node --version)" >&2
	exit 1
fi
echo "setup: node $(node --version), npm $(npm --version), $("$PG_CONFIG" --version)"

echo "setup: make -j2 && make install"
make -j2 PG_CONFIG="$PG_CONFIG"
make install PG_CONFIG="$PG_CONFIG" >/dev/null

echo "setup: npm ci (test/js)"
(cd test/js && npm ci --no-audit --no-fund --loglevel=error)
echo "setup: done"
