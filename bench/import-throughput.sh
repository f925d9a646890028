#!/bin/sh
# Import throughput on a large generated `perf stat -I` interval file (text),
# and the same data as -x CSV: prints MB/s and peak memory; then a file past
# the size limit, refused; asserts nothing.
# Target: 100 MB/s or better.
#
#   bench/import-throughput.sh [MEGABYTES]    (default 200)
set -eu
cd "$(dirname "$0")/.."
mb=${1:-200}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# 12 counters an interval, as perf stat -I 1000 -d prints them.
awk -v mb="$mb" 'BEGIN {
	split("cycles instructions branches branch-misses L1-dcache-loads L1-dcache-load-misses stalled-cycles-frontend context-switches cpu-migrations page-faults LLC-loads", ev, " ")
	printf "#           time             counts unit events\n"
	bytes = 0; t = 0
	while (bytes < mb * 1048576) {
		t++
		line = sprintf("%6d.%09d %18.2f msec task-clock                       #    0.998 CPUs utilized\n", t, 1234567, 1000.12 + t % 7)
		bytes += length(line); printf "%s", line
		for (i = 1; i <= 11; i++) {
			v = (t * 7919 + i * 104729) % 1000000000 + 1000000
			line = sprintf("%6d.%09d %'"'"'18d      %-32s #    1.234 GHz                      (85.%02d%%)\n", t, 1234567, v, ev[i], t % 100)
			bytes += length(line); printf "%s", line
		}
	}
}' > "$dir/interval.txt"
awk '!/^#/ { gsub(/,/, ""); n = split($0, f, " "); unit = (f[3] == "msec") ? "msec" : ""; e = unit ? f[4] : f[3];
	printf "%s,%s,%s,%s,100.00,,\n", f[1], f[2], unit, e }' "$dir/interval.txt" > "$dir/interval.csv"

for f in "$dir/interval.txt" "$dir/interval.csv"; do
	size=$(stat -c %s "$f")
	start=$(date +%s%N)
	/usr/bin/time -f "%M" -o "$dir/rss" "$ud" import -o "$dir/p.json" "$f"
	ns=$(( $(date +%s%N) - start ))
	awk -v s="$size" -v ns="$ns" -v rss="$(cat "$dir/rss")" -v name="$(basename "$f")" 'BEGIN {
		printf "%-14s %8.1f MB in %6.3f s: %7.1f MB/s, peak RSS %d KB\n", name, s / 1048576, ns / 1e9, s / 1048576 / (ns / 1e9), rss }'
done

# Past import's size limit (IMPORT_MAX_FILE_BYTES, 1 GiB): refused on one line
# before a byte is read, so memory stays bounded whatever the file's size.
truncate -s 1025M "$dir/huge.txt"
status=0
/usr/bin/time -f "%M" -o "$dir/rss" "$ud" import -o "$dir/huge.json" "$dir/huge.txt" 2>"$dir/err" || status=$?
printf '%-14s %8d MB refused (exit %d, %d line, peak RSS %d KB): %s\n' huge.txt 1025 "$status" \
	"$(wc -l < "$dir/err")" "$(tail -n 1 "$dir/rss")" "$(cat "$dir/err")"
