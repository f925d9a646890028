#!/bin/sh
# Whether two builds import alike: every file under tests/data (whatever
# its format) and any pastes given, imported by both; the profiles, the
# messages and the exit status must be byte-identical.  For changes to the
# importers' speed (issue 35), which must change no output.
#
#   bench/import-identical.sh OLD_BINARY NEW_BINARY [EXTRA_FILE...]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [FILE...]" >&2; exit 2; }
old=$1 new=$2
shift 2
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
files=0 differ=0
for f in $(find tests/data -type f | sort) "$@"; do
	for b in old new; do
		eval bin=\$$b
		status=0
		"$bin" import -o "$dir/$b.json" "$f" >"$dir/$b.out" 2>"$dir/$b.err" || status=$?
		echo "$status" >>"$dir/$b.out"
		[ -f "$dir/$b.json" ] || : >"$dir/$b.json"
	done
	files=$((files + 1))
	for k in json out err; do
		if ! cmp -s "$dir/old.$k" "$dir/new.$k"; then
			echo "differs: $f ($k)"
			differ=$((differ + 1))
			break
		fi
	done
	rm -f "$dir/old.json" "$dir/new.json"
done
echo "$files files imported by both builds, $differ differ"
[ "$differ" -eq 0 ]
