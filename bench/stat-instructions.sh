#!/bin/sh
# Instructions `uarchdiff stat` spends around a command that does nothing,
# counted by callgrind (the process itself, not the command it starts):
# a count that the machine's load does not move, where wall time at this
# size is mostly noise.  Beside it /bin/true alone and `perf stat` on the
# same events, and issue 35's target.  Prints figures; asserts nothing.
# Needs valgrind; perf where it is installed (its row is skipped otherwise).
#
#   bench/stat-instructions.sh
set -eu
cd "$(dirname "$0")/.."
ud=build/uarchdiff
# issue 35: a counter tool cheap enough to wrap every exec of a build
target=1000000
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 2; }

# Instructions callgrind counts in "$@", children not followed.
instructions() {
	out=$(mktemp)
	valgrind --tool=callgrind --trace-children=no --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$out" || true
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out"
	rm -f "$out"
}

row() {
	what=$1
	shift
	n=$(instructions "$@")
	printf '%-52s %12s %8s\n' "$what" "$n" "$(awk -v n="$n" -v t="$target" 'BEGIN { printf "%.2f", n / t }')"
}

printf '%-52s %12s %8s\n' command instructions "x target"
row "/bin/true" /bin/true
row "uarchdiff stat -e task-clock -- /bin/true" "$ud" stat -e task-clock -- /bin/true
row "uarchdiff stat -e cycles -- /bin/true (one table)" "$ud" stat -e cycles -- /bin/true
row "uarchdiff stat -- /bin/true (perf's defaults)" "$ud" stat -- /bin/true
if command -v perf >/dev/null; then
	row "perf stat -e task-clock /bin/true" perf stat -e task-clock /bin/true
else
	echo "perf stat: skipped: perf not found (apt-get install linux-perf)"
fi
echo "target for uarchdiff stat -e task-clock: $target instructions"
