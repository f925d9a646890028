#!/bin/sh
# Whether two builds of uarchdiff write the same `compare` reports, byte for
# byte, in every format: for the fleets the tests read (tests/data's
# profiles) and for any fleet folders given (a generated one: KEEP=1
# bench/compare-scale.sh 2000 keeps its fleet).  For a change meant to
# make compare faster without changing what it says (issue 38).  Prints
# each case's verdict; exits 1 if any differs.
#
#   bench/compare-identical.sh OLD_BINARY NEW_BINARY [FLEET_DIR...]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [FLEET_DIR...]" >&2; exit 2; }
old=$1 new=$2
shift 2
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bad=0
check() { # name, then compare's arguments
	name=$1
	shift
	for f in text json md html; do
		"$old" compare -f "$f" -o "$dir/old" "$@" >"$dir/old.err" 2>&1 || echo "exit $?" >>"$dir/old.err"
		"$new" compare -f "$f" -o "$dir/new" "$@" >"$dir/new.err" 2>&1 || echo "exit $?" >>"$dir/new.err"
		touch "$dir/old" "$dir/new"
		if cmp -s "$dir/old" "$dir/new" && cmp -s "$dir/old.err" "$dir/new.err"; then
			echo "same:    $name -f $f"
		else
			echo "DIFFERS: $name -f $f"
			bad=1
		fi
		rm -f "$dir/old" "$dir/new"
	done
}
check "tests/data (every profile)" $(find tests/data -name '*.json' -path '*profile*' | sort) tests/data/aa
check "tests/data/aa --all-hosts --pairs" --all-hosts --pairs tests/data/aa
check "tests/data/real" tests/data/real
check "tests/data/profiles-v1" tests/data/profiles-v1
for fleet in "$@"; do
	check "$fleet" "$fleet"
	check "$fleet --baseline first --all-hosts" --baseline first --all-hosts "$fleet"
	check "$fleet --group-by kernel" --group-by kernel "$fleet"
done
exit $bad
