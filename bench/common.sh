# Set-up shared by the benchmark scripts (sourced, after cd to the repository):
#
#   bench_start NAME WORK_PREFIX [NODE_MODULE ...]
#
# Checks that it runs as root (the cluster runs as postgres, whose backends'
# /proc/<pid>/status some benchmarks read) and that test/js/node_modules holds
# @duckdb/node-api and each NODE_MODULE; makes the work directory WORK
# (/tmp/WORK_PREFIX.XXXXXX, mode 755: the server reads files from it);
# sources scripts/cluster.sh; on exit prints the server log's tail if the
# script failed, stops the cluster and removes WORK (BENCH_KEEP=1 keeps it);
# prints the machine's CPUs, memory, kernel and load.
#
#   bench_need_nginx
#
# Installs Debian's nginx-light with the echo module when missing (the stores
# of bench/nginx_store.mjs).
# shellcheck shell=bash

bench_start() {
	BENCH_NAME=$1
	local prefix=$2 module
	shift 2

	if [ "$(id -u)" != 0 ]; then
		echo "$BENCH_NAME: run as root (the cluster runs as postgres)" >&2
		exit 1
	fi
	for module in @duckdb/node-api "$@"; do
		[ -d "test/js/node_modules/$module" ] || {
			echo "$BENCH_NAME: test/js/node_modules/$module missing; run scripts/setup.sh first" >&2
			exit 1
		}
	done

	WORK=$(mktemp -d "/tmp/$prefix.XXXXXX")
	chmod 755 "$WORK"

	export PGFDW_NO_TRAP=1
	# shellcheck source=scripts/cluster.sh
	source scripts/cluster.sh
	trap bench_cleanup EXIT

	echo "== machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

bench_cleanup() {
	local rc=$?

	if [ $rc -ne 0 ] && [ -n "${PGFDW_CLUSTER_DIR:-}" ]; then
		echo "$BENCH_NAME: failed (exit $rc); server log tail:" >&2
		tail -n 30 "$PGFDW_CLUSTER_DIR/server.log" >&2 || true
	fi
	pgfdw_cluster_stop || true
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "$BENCH_NAME: kept $WORK"
	else
		rm -rf "$WORK"
	fi
}

# policy-rc.d keeps the package from starting Debian's own nginx on port 80
bench_need_nginx() {
	local policy=

	if command -v nginx >/dev/null 2>&1 && [ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ]; then
		return
	fi
	echo "== apt-get install nginx-light libnginx-mod-http-echo"
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod 755 "$policy"
	fi
	flock /run/lock/parquet_fdw-apt.lock apt-get install -y -q --no-install-recommends \
		nginx-light libnginx-mod-http-echo >/dev/null
	[ -z "$policy" ] || rm -f "$policy"
}
