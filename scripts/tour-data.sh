#!/usr/bin/env bash
# Write the sample files of README.md's tour and the docs' examples (DuckDB,
# from test/js) into DIR, /tmp/parquet_tour by default, readable by the
# server.  Needs scripts/setup.sh to have run once (Node.js and test/js).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=${1:-/tmp/parquet_tour}
if [ ! -d test/js/node_modules/@duckdb ]; then
	echo "tour-data: run scripts/setup.sh first (it installs DuckDB for Node.js)" >&2
	exit 1
fi
node test/js/tour_data.mjs "$DIR"
