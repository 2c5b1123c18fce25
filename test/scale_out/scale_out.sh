#!/usr/bin/env bash
# The scale_out stage: N parquet_fdw data nodes and a postgres_fdw
# coordinator (scripts/scale_out_cluster.sh, as scripts/scale-out-demo.sh
# builds them) over a dataset split by region, checked by
# test/js/check_scale_out.mjs against one parquet_fdw table over every file
# and a heap table loaded from DuckDB's CSV of the rows.
#
#   test/scale_out/scale_out.sh [N] [--bucket]
#                          (default 3 data nodes; 8 regions, so nodes hold
#                          3, 3 and 2 regions; --bucket: the nodes read
#                          their regions' objects from one local S3 bucket)
#
# Needs the extension installed (scripts/setup.sh), postgres_fdw (contrib,
# in Debian's postgresql-15) and root (the servers run as postgres).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
N=${1:-3}
REGIONS=8
# shellcheck source=scripts/scale_out_cluster.sh
source scripts/scale_out_cluster.sh
so_init
so_data 200000 "$REGIONS" 2 --csv
so_nodes "$N"
so_coordinator "$N" >/dev/null
echo "scale_out: $N data nodes, coordinator at $SO_WORK/coord"
node test/js/check_scale_out.mjs "$SO_WORK" "$SO_PORT" "$N" "$REGIONS" "${@:2}"
