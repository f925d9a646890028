#!/bin/sh
# Writes a made-up `perf stat -I 1000 -d` interval paste of about MB
# megabytes to TEXT (12 counters an interval) and the same rows as -x CSV
# to CSV.  Shared by bench/import-throughput.sh and bench/import-instructions.sh.
#
#   bench/interval-paste.sh MB TEXT CSV
set -eu
[ $# -eq 3 ] || { echo "usage: $0 MB TEXT CSV" >&2; exit 2; }
awk -v mb="$1" 'BEGIN {
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
}' > "$2"
awk '!/^#/ { gsub(/,/, ""); n = split($0, f, " "); unit = (f[3] == "msec") ? "msec" : ""; e = unit ? f[4] : f[3];
	printf "%s,%s,%s,%s,100.00,,\n", f[1], f[2], unit, e }' "$2" > "$3"
