#!/usr/bin/env bash
# The Debian packages, installed for real: scripts/build-deb.sh builds
# postgresql-<major>-parquet-fdw for the installed majors from `make dist`'s
# archive; for each, dpkg -i, a fresh cluster (initdb, scripts/cluster.sh),
# CREATE EXTENSION, a query over a file DuckDB wrote compared with DuckDB's
# answer, COPY TO Parquet read back by DuckDB, then dpkg --purge: the
# package's files must be gone.  As root.  Prints "deb: N passed, N failed".
# PARQUET_FDW_DEBS=DIR: the packages in DIR instead of building them.
#
# dpkg -i overwrites the files `make install` put in the same places (the
# later stages use those), and the purge deletes them: they are saved before
# and put back after, byte for byte, and checked.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh

D=$(mktemp -d /tmp/parquet_fdw_deb_test.XXXXXX)
chmod 755 "$D"
SAVED=$D/saved.tar
INSTALLED=
cleanup() {
	pgfdw_cluster_stop >/dev/null 2>&1 || true
	if [ -n "$INSTALLED" ]; then
		dpkg --purge "$INSTALLED" >/dev/null 2>&1 || true
	fi
	if [ -f "$SAVED" ]; then
		tar -C / -xpf "$SAVED" # the make install files, whatever happened
	fi
	rm -rf "$D"
}
trap cleanup EXIT

passed=0
failed=0
check() { # NAME DESCRIPTION GOT WANT
	if [ "$3" = "$4" ]; then
		passed=$((passed + 1))
		echo "PASS $1: $2"
	else
		failed=$((failed + 1))
		echo "FAIL $1: $2"
		diff <(echo "$4") <(echo "$3") | head -n 20 | sed 's/^/    /' || true
	fi
}

# PARQUET_FDW_DEBS=DIR tests packages built before instead.
if [ -n "${PARQUET_FDW_DEBS:-}" ]; then
	mkdir "$D/debs" && cp "$PARQUET_FDW_DEBS"/postgresql-*-parquet-fdw_*.deb "$D/debs/"
elif ! bash scripts/build-deb.sh "$D/debs"; then
	check build "scripts/build-deb.sh" failed ok
	echo "deb: $passed passed, $failed failed"
	exit 1
fi
node test/js/demo_data.mjs "$D/trips.parquet" >/dev/null
mkdir -m 777 "$D/out"
Q="SELECT payment, count(*), sum(fare), max(distance_km) FROM %s WHERE city_id <> 3 GROUP BY payment ORDER BY payment"
# shellcheck disable=SC2059
duck_answer=$(node test/js/duck_sql.mjs "$(printf "$Q" "read_parquet('$D/trips.parquet')")")

for deb in "$D"/debs/postgresql-*-parquet-fdw_*.deb; do
	pkg=$(dpkg-deb -f "$deb" Package)
	major=$(sed -E 's/^postgresql-([0-9]+)-.*/\1/' <<<"$pkg")
	# Save what the package will overwrite (the make install files).
	mapfile -t files < <(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print substr($6, 2)}')
	existing=()
	for f in "${files[@]}"; do
		[ -e "$f" ] && existing+=("${f#/}")
	done
	rm -f "$SAVED"
	tar -C / -cpf "$SAVED" --files-from=/dev/null
	[ ${#existing[@]} = 0 ] || tar -C / -cpf "$SAVED" "${existing[@]}"
	check "$pkg" "the package holds the library, control file and every install/update script" \
		"$(printf '%s\n' "${files[@]}" | grep -cE "/lib/parquet_fdw\.so$|/extension/parquet_fdw(\.control|--0\.1\.sql|--0\.2\.sql|--0\.1--0\.2\.sql)$")" 5

	INSTALLED=$pkg
	dpkg -i "$deb" >"$D/dpkg.log" 2>&1 || cat "$D/dpkg.log"
	check "$pkg" "dpkg -i: installed, files as packaged (dpkg --verify)" \
		"$(dpkg-query -W -f='${Status}' "$pkg") $(dpkg --verify "$pkg" | wc -l)" "install ok installed 0"

	PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config
	pgfdw_cluster_start >/dev/null
	PSQL=("$PGFDW_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -At)
	"${PSQL[@]}" -c 'CREATE EXTENSION parquet_fdw' \
		-c 'CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw' \
		-c "CREATE FOREIGN TABLE trips (trip_id bigint, pickup_at timestamp, city_id int,
		      distance_km numeric(6,1), fare numeric(8,2), payment text)
		    SERVER parquet_srv OPTIONS (filename '$D/trips.parquet')"
	# the C functions the checkout's install script declares
	version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" parquet_fdw.control)
	nfuncs=$(grep -c MODULE_PATHNAME "sql/parquet_fdw--$version.sql")
	check "$pkg" "CREATE EXTENSION on a fresh cluster: version $version, its $nfuncs C functions in the package's library" \
		"$("${PSQL[@]}" -c "SELECT extversion FROM pg_extension WHERE extname = 'parquet_fdw'" \
			-c "SELECT count(*) FROM pg_proc WHERE probin = '\$libdir/parquet_fdw'") $(dpkg -S "$("$PG_CONFIG" --pkglibdir)/parquet_fdw.so" | cut -d: -f1)" \
		"$(printf '%s\n%s %s' "$version" "$nfuncs" "$pkg")"
	# shellcheck disable=SC2059
	check "$pkg" "a query over DuckDB's file gives DuckDB's answer" \
		"$("${PSQL[@]}" -c "$(printf "$Q" trips)")" "$duck_answer"
	"${PSQL[@]}" -c "COPY (SELECT * FROM trips WHERE city_id <> 3) TO '$D/out/copy.parquet' WITH (FORMAT parquet)"
	# shellcheck disable=SC2059
	check "$pkg" "COPY TO Parquet, read by DuckDB: the same answer" \
		"$(node test/js/duck_sql.mjs "$(printf "$Q" "read_parquet('$D/out/copy.parquet')")")" "$duck_answer"
	"${PSQL[@]}" -c "SELECT version()" | sed "s/^/deb: $pkg on /"
	pgfdw_cluster_stop >/dev/null

	dpkg --purge "$pkg" >"$D/dpkg.log" 2>&1 || cat "$D/dpkg.log"
	INSTALLED=
	left=0
	for f in "${files[@]}"; do
		[ -e "$f" ] && left=$((left + 1))
	done
	check "$pkg" "dpkg --purge: unregistered, none of its ${#files[@]} files left" \
		"$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || echo gone) $left" "gone 0"

	# Put back what make install had there, and check it is back
	# (tar --compare: contents, modes, owners, times).
	tar -C / -xpf "$SAVED"
	check "$pkg" "the make install files are back (${#existing[@]} files)" \
		"$(tar -C / --compare -f "$SAVED" 2>&1 | head -n 5)" ""
done

echo "deb: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
