#!/bin/bash
# typedefs.list for scripts/pgindent.sh: the typedef names in the debug
# information of our built objects (PostgreSQL's types we use, ours) and
# those our sources declare, as PostgreSQL's buildfarm makes its list.
# Run after make; writes typedefs.list (or the file given).
set -euo pipefail
out=${1:-typedefs.list}
cd "$(dirname "$0")/.."
{
	find src -name '*.o' -print0 | xargs -0 -n 50 objdump -W 2>/dev/null |
		awk '/DW_TAG_typedef/ { t = 1; next } t && /DW_AT_name/ { print $NF; t = 0 }'
	grep -rhoE '^\} *[A-Za-z_][A-Za-z0-9_]*;|^typedef [^;(]* \**[A-Za-z_][A-Za-z0-9_]*;' \
		--include='*.[ch]' src | grep -oE '[A-Za-z_][A-Za-z0-9_]*;$' | tr -d ';'
	grep -rhoE '^typedef [^;]*\(\*[A-Za-z_][A-Za-z0-9_]*\)' --include='*.[ch]' src |
		grep -oE '\(\*[A-Za-z_0-9]+\)' | tr -d '(*)'
	echo bool
} | grep -vxE 'ANY|FD_SET|U|abs|allocfunc|boolean|date|digit|ilist|interval|iterator|other|pointer|printfunc|reference|string|timestamp|type|wrap' |
	LC_ALL=C sort -u >"$out"
wc -l <"$out" | sed "s|^|$out: |; s/\$/ names/"
