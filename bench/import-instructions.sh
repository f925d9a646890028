#!/bin/sh
# Import cost per byte of a `perf stat -I` paste, text and -x CSV, as
# instructions callgrind counts (a figure the machine's load does not move,
# unlike MB/s): the difference between a SMALL and a LARGE generated paste
# (bench/interval-paste.sh, made-up), so start-up and format detection,
# which read a fixed window, cancel.  Target (issue 35): at most 12 a byte,
# which is 500 MB/s at any IPC of 2 or more at 3 GHz.  Asserts nothing.
#
#   [UD=BINARY] bench/import-instructions.sh [SMALL_MB LARGE_MB]   (default 10 20)
set -eu
cd "$(dirname "$0")/.."
ud=${UD:-build/uarchdiff}  # UD=path: another build, to compare
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "needs valgrind (callgrind)" >&2; exit 2; }
small=${1:-10} large=${2:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bench/interval-paste.sh "$small" "$dir/small.txt" "$dir/small.csv"
bench/interval-paste.sh "$large" "$dir/large.txt" "$dir/large.csv"

insn() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$ud" import -o "$dir/p.json" "$1" 2>&1 |
		awk '/ refs:/ { gsub(",", "", $NF); print $NF }'
}

printf '%-6s %14s %14s %12s   (target: <= 12 a byte)\n' format "insn $small MB" "insn $large MB" "insn a byte"
for f in txt csv; do
	a=$(insn "$dir/small.$f") b=$(insn "$dir/large.$f")
	awk -v a="$a" -v b="$b" -v sa="$(stat -c %s "$dir/small.$f")" -v sb="$(stat -c %s "$dir/large.$f")" -v f="$f" \
		'BEGIN { printf "%-6s %14d %14d %12.1f\n", f, a, b, (b - a) / (sb - sa) }'
done
