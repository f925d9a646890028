#!/bin/sh
# Import throughput and peak memory on generated `perf stat -I` interval
# files (made-up data, written to a temporary directory and deleted): text
# and the same data as -x CSV, at each size given (MB), so the peak memory
# of a 1 GB paste prints beside that of a 100 MB one; then a file past the
# size limit, refused.  Asserts nothing.
# Targets (issue 35): >= 500 MB/s on text and CSV; peak memory the same at
# every size (a paste over 4 MiB is streamed through a fixed buffer).
# MB/s is given on wall time and on user CPU time: on a shared, loaded host
# the second is the steadier.
#
#   [UD=BINARY] bench/import-throughput.sh [MEGABYTES...]    (default: 100 1000; 1000 MB
# is the largest under the 1 GiB limit)
set -eu
cd "$(dirname "$0")/.."
ud=${UD:-build/uarchdiff}  # UD=path: another build, to compare
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
[ $# -gt 0 ] || set -- 100 1000
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# 12 counters an interval, as perf stat -I 1000 -d prints them (bench/interval-paste.sh).
generate() {
	bench/interval-paste.sh "$1" "$dir/interval.txt" "$dir/interval.csv"
}

printf '%-14s %9s %8s %10s %10s %12s   (target: >= 500 MB/s; peak RSS flat across sizes)\n' \
	file MB seconds "MB/s wall" "MB/s user" "peak RSS KB"
for mb in "$@"; do
	generate "$mb"
	for f in "$dir/interval.txt" "$dir/interval.csv"; do
		size=$(stat -c %s "$f")
		/usr/bin/time -f "%e %U %M" -o "$dir/time" "$ud" import -o "$dir/p.json" "$f" 2>/dev/null
		read -r wall user rss < "$dir/time"
		awk -v s="$size" -v w="$wall" -v u="$user" -v rss="$rss" -v name="$(basename "$f")" 'BEGIN {
			mb = s / 1048576; if (w <= 0) w = 0.01; if (u <= 0) u = 0.01
			printf "%-14s %9.1f %8.2f %10.1f %10.1f %12d\n", name, mb, w, mb / w, mb / u, rss }'
	done
	rm -f "$dir/interval.txt" "$dir/interval.csv" "$dir/p.json"
done

# Past import's size limit (UD_CAP_IMPORT, 1 GiB): refused on one line
# before a byte is read.
truncate -s 1025M "$dir/huge.txt"
status=0
/usr/bin/time -f "%M" -o "$dir/rss" "$ud" import -o "$dir/huge.json" "$dir/huge.txt" 2>"$dir/err" || status=$?
printf '%-14s %9d MB refused (exit %d, %d line, peak RSS %d KB): %s\n' huge.txt 1025 "$status" \
	"$(wc -l < "$dir/err")" "$(tail -n 1 "$dir/rss")" "$(cat "$dir/err")"
