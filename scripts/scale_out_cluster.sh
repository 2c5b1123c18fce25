# shellcheck shell=bash
# Local scale-out clusters: N parquet_fdw "data nodes" and a postgres_fdw
# coordinator (docs/SCALE_OUT.md).  Used by scripts/scale-out-demo.sh, the
# scale_out test stage and bench/scale_out.sh.  Source this file, then:
#
#   so_init                     work directory $SO_WORK (mode 755), EXIT trap
#                               stopping every cluster (SO_NO_TRAP=1: the
#                               caller calls so_cleanup itself)
#   so_data ROWS REGIONS FILES [--csv]   the dataset in $SO_WORK/data
#                               (test/js/scale_out_data.mjs)
#   so_start NAME PORT          initdb + start a cluster as postgres
#   so_psql NAME [psql args]    psql to it (ON_ERROR_STOP, no psqlrc)
#   so_nodes N                  clusters node1..nodeN, each with a parquet_fdw
#                               foreign table `events` over its regions' files
#   so_coordinator N            cluster coord: table `events` partitioned by
#                               LIST (region) over postgres_fdw foreign tables
#                               on node1..nodeN (async_capable), and
#                               `events_all`, parquet_fdw over every file
#   so_stop NAME                stop one cluster, remove its directory
#   so_cleanup                  stop every cluster, remove $SO_WORK
#
# Region r lives on node (r mod N) + 1: its files are listed by name in that
# node's filename option, and the coordinator's partition for the node holds
# exactly those region values.  Clusters listen on a Unix socket in their own
# directory only (listen_addresses = ''), so ports are names and cannot clash
# with other servers; the coordinator reaches the nodes through those
# sockets.  Knobs: SO_PORT (first port, default 56300), PG_CONFIG,
# SO_SETTINGS (postgresql.conf lines for every cluster).

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
SO_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SO_PORT=${SO_PORT:-56300}
SO_COLUMNS='id bigint, region integer, day date, category text, qty integer,
	price numeric(12,2), score double precision, note text'
SO_CLUSTERS=()

so_as_postgres() {
	(cd / && runuser -u postgres -- "$@")
}

so_init() {
	SO_BINDIR=$("$PG_CONFIG" --bindir)
	SO_WORK=$(mktemp -d /tmp/parquet_fdw_scale_out.XXXXXX)
	chmod 755 "$SO_WORK"
	if [ "${SO_NO_TRAP:-0}" != 1 ]; then
		trap so_cleanup EXIT
	fi
}

so_data() {
	node "$SO_REPO/test/js/scale_out_data.mjs" "$SO_WORK/data" "$@"
	SO_REGIONS=$2
	SO_FILES=$3
}

so_start() { # NAME PORT
	local name=$1 port=$2 dir=$SO_WORK/$1
	mkdir "$dir"
	chown postgres:postgres "$dir"
	chmod 700 "$dir"
	SO_CLUSTERS+=("$name")
	if ! so_as_postgres "$SO_BINDIR/initdb" -D "$dir/data" -U postgres -A trust \
		-E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
		cat "$dir/initdb.log" >&2
		echo "scale-out: initdb of $name failed" >&2
		return 1
	fi
	cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 20
log_min_messages = warning
# COPY ... (FORMAT parquet) is a hook in the library
shared_preload_libraries = 'parquet_fdw'
${SO_SETTINGS:-}
EOF
	if ! so_as_postgres "$SO_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null; then
		cat "$dir/server.log" >&2 || true
		echo "scale-out: pg_ctl start of $name failed" >&2
		return 1
	fi
	echo "$port" >"$SO_WORK/$name.port"
}

so_psql() { # NAME [psql args]
	local name=$1
	shift
	"$SO_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off -h "$SO_WORK/$name" \
		-p "$(cat "$SO_WORK/$name.port")" -U postgres -d postgres "$@"
}

# The files of the regions node I (1-based) of N holds, comma-separated.
so_node_files() { # I N
	local r k files=
	for ((r = $1 - 1; r < SO_REGIONS; r += $2)); do
		for ((k = 0; k < SO_FILES; k++)); do
			files+=${files:+,}$SO_WORK/data/events_r${r}_$k.parquet
		done
	done
	echo "$files"
}

so_node_regions() { # I N
	local r regions=
	for ((r = $1 - 1; r < SO_REGIONS; r += $2)); do
		regions+=${regions:+, }$r
	done
	echo "$regions"
}

so_nodes() { # N
	local i
	for ((i = 1; i <= $1; i++)); do
		so_start "node$i" $((SO_PORT + i)) || return 1
		so_psql "node$i" -v files="$(so_node_files "$i" "$1")" <<SQL || return 1
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
CREATE FOREIGN TABLE events ($SO_COLUMNS)
  SERVER parquet_srv OPTIONS (filename :'files');
SQL
	done
}

so_coordinator() { # N
	local i
	so_start coord "$SO_PORT" || return 1
	{
		cat <<SQL
ALTER SYSTEM SET enable_partitionwise_aggregate = on;
SELECT pg_reload_conf();
CREATE EXTENSION postgres_fdw;
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
CREATE FOREIGN TABLE events_all ($SO_COLUMNS)
  SERVER parquet_srv OPTIONS (filename '$(so_node_files 1 1)');
CREATE TABLE events ($SO_COLUMNS) PARTITION BY LIST (region);
SQL
		for ((i = 1; i <= $1; i++)); do
			cat <<SQL
CREATE SERVER node$i FOREIGN DATA WRAPPER postgres_fdw
  OPTIONS (host '$SO_WORK/node$i', port '$((SO_PORT + i))', dbname 'postgres',
           async_capable 'true', use_remote_estimate 'true', fetch_size '10000');
CREATE USER MAPPING FOR postgres SERVER node$i OPTIONS (user 'postgres');
CREATE FOREIGN TABLE events_node$i PARTITION OF events
  FOR VALUES IN ($(so_node_regions "$i" "$1"))
  SERVER node$i OPTIONS (schema_name 'public', table_name 'events');
SQL
		done
	} | so_psql coord
}

so_stop() { # NAME
	local dir=$SO_WORK/$1
	if [ -f "$dir/data/postmaster.pid" ]; then
		so_as_postgres "$SO_BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 ||
			so_as_postgres "$SO_BINDIR/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir" "$SO_WORK/$1.port"
}

so_cleanup() {
	local name
	[ -n "${SO_WORK:-}" ] || return 0
	for name in "${SO_CLUSTERS[@]}"; do
		so_stop "$name"
	done
	SO_CLUSTERS=()
	rm -rf "$SO_WORK"
	SO_WORK=
}
