#!/bin/bash
# PostgreSQL's source formatting (pgindent) of our C files: pg_bsd_indent
# (Debian's pg-bsd-indent) with PostgreSQL's standard options and our
# typedefs.list, plus the small fix-ups pgindent makes around it (dash-
# protected block comments kept as written, one space before the '*' of a
# function's pointer return type, a tab between run-together comments).
#
#   bash scripts/pgindent.sh [--check] [FILE...]    (default: src/**/*.[ch])
#
# Files listed in scripts/pgindent.exclude are left alone.  --check
# changes nothing: it lists the files whose formatting differs and
# exits 1 if there are any, and checks that typedefs.list is the one
# scripts/typedefs.sh makes of the built tree (the typedef names of our
# objects' debug information and our sources).
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
command -v pg_bsd_indent >/dev/null || {
	echo "pgindent: pg_bsd_indent is missing (apt-get install pg-bsd-indent)" >&2
	exit 2
}
if [ $# = 0 ]; then
	mapfile -t files < <(find src -name '*.[ch]' | sort |
		grep -vxF -f <(grep -v '^#' scripts/pgindent.exclude))
else
	files=("$@")
fi
opts="-bad -bap -bbb -bc -bl -cli1 -cp33 -cdb -nce -d0 -di12 -nfc1 -i4 -l79 -lp -lpl -nip -npro -sac -tpg -ts4"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
typedefs=$PWD/typedefs.list
differ=0
bad=0
if [ $check = 1 ]; then
	# the list checked in must be the one the tree makes
	bash scripts/typedefs.sh "$tmp/typedefs.list" >/dev/null
	if ! cmp -s "$tmp/typedefs.list" typedefs.list; then
		echo "pgindent: typedefs.list is out of date (bash scripts/typedefs.sh):"
		diff typedefs.list "$tmp/typedefs.list" | grep '^[<>]' | head -n 10
		bad=$((bad + 1))
	fi
	typedefs=$tmp/typedefs.list
fi
for f in "${files[@]}"; do
	# a "/* ---" comment keeps its shape; "//" comments become block comments
	perl -pe 's!^([ \t]*)//(.*)$!$1/* $2 */!; s!/\* +---!/*---X_X!g' "$f" >"$tmp/in.c"
	pg_bsd_indent $opts -U"$typedefs" "$tmp/in.c" "$tmp/out.c" 2>"$tmp/err" || true
	if [ -s "$tmp/err" ]; then
		echo "pgindent: $f: $(head -n 3 "$tmp/err")" >&2
		differ=1
		bad=$((bad + 1))
		continue
	fi
	perl -0pe 's!/\*---X_X!/* ---!g; s!\*/(/\*.*\*/)$!*/\t$1!gm; s!^([A-Za-z_]\S*)[ \t]+\*$!$1 *!gm' "$tmp/out.c" >"$tmp/post.c"
	if ! cmp -s "$f" "$tmp/post.c"; then
		if [ $check = 1 ]; then
			echo "pgindent: $f is not formatted (bash scripts/pgindent.sh $f)"
			differ=1
			bad=$((bad + 1))
		else
			cp "$tmp/post.c" "$f"
		fi
	fi
done
[ $check = 1 ] && echo "format: $((${#files[@]} + 1 - bad)) passed, $bad failed"
exit $differ
