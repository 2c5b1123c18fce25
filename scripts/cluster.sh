# shellcheck shell=bash
# Throwaway PostgreSQL cluster helpers.  Source this file, then:
#
#   pgfdw_cluster_start        initdb + start a private cluster as `postgres`;
#                              exports PGHOST/PGPORT/PGUSER/PGDATABASE
#   pgfdw_cluster_stop         stop it and remove its directory (idempotent)
#
# The cluster lives in a fresh `mktemp -d` directory owned by postgres, listens
# only on a Unix socket in that directory (listen_addresses=''), with fsync off.
# pgfdw_cluster_start installs an EXIT trap that stops the cluster unless
# PGFDW_NO_TRAP=1 (then the caller must call pgfdw_cluster_stop itself).
#
# Environment knobs: PGFDW_PORT (default 54329: only names the socket file, so
# it cannot clash with another server), PG_CONFIG (default: PostgreSQL 15's),
# PGFDW_CLUSTER_SETTINGS (postgresql.conf lines added after the defaults, so
# they win; e.g. benchmarks set shared_buffers and jit).

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
[ -x "$PG_CONFIG" ] || PG_CONFIG=$(command -v pg_config || true)

pgfdw_as_postgres() {
	# Run a command as the postgres user from a directory it can enter.
	(cd / && runuser -u postgres -- "$@")
}

pgfdw_cluster_start() {
	local bindir port dir preload
	bindir=$("$PG_CONFIG" --bindir)
	port=${PGFDW_PORT:-54329}
	dir=$(mktemp -d /tmp/parquet_fdw_cluster.XXXXXX)
	chown postgres:postgres "$dir"
	chmod 700 "$dir"
	PGFDW_CLUSTER_DIR=$dir
	PGFDW_BINDIR=$bindir
	if [ "${PGFDW_NO_TRAP:-0}" != 1 ]; then
		trap pgfdw_cluster_stop EXIT
	fi

	echo "cluster: initdb in $dir/data"
	if ! pgfdw_as_postgres "$bindir/initdb" -D "$dir/data" -U postgres -A trust \
		-E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
		cat "$dir/initdb.log" >&2
		echo "cluster: initdb failed" >&2
		return 1
	fi
	preload=parquet_fdw
	[ -f "$("$PG_CONFIG" --pkglibdir)/pg_stat_statements.so" ] && preload="parquet_fdw, pg_stat_statements"
	cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 20
shared_buffers = 256MB
log_min_messages = warning
log_min_error_statement = panic
restart_after_crash = on
# COPY ... WITH (FORMAT parquet) is a hook in the library: load it everywhere;
# pg_stat_statements (contrib) too, so that the key-leakage test can read it
shared_preload_libraries = '$preload'
${PGFDW_CLUSTER_SETTINGS:-}
EOF
	if ! pgfdw_as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null; then
		cat "$dir/server.log" >&2 || true
		echo "cluster: pg_ctl start failed" >&2
		return 1
	fi
	export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
	echo "cluster: running (socket $dir, port $port)"
}

pgfdw_cluster_stop() {
	local dir=${PGFDW_CLUSTER_DIR:-}
	[ -n "$dir" ] || return 0
	PGFDW_CLUSTER_DIR=
	if [ -f "$dir/data/postmaster.pid" ]; then
		pgfdw_as_postgres "$PGFDW_BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 ||
			pgfdw_as_postgres "$PGFDW_BINDIR/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
	echo "cluster: stopped"
}

# Print the server log (for failures).
pgfdw_cluster_log() {
	[ -n "${PGFDW_CLUSTER_DIR:-}" ] && cat "$PGFDW_CLUSTER_DIR/server.log"
}
