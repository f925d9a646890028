#!/bin/sh
# Time and peak memory to compare N generated profiles of the default suite
# (default 50 hosts, its workloads each, the default counters and 5 samples
# per workload): `uarchdiff compare` in each format, profile parsing, the
# groups' median hosts and diffs and the outliers' diffs included.  The hosts
# are of two microarchitectures (two groups) and differ in kernel and in one
# mitigation every few hosts, so the group diffs have something to say.
# Prints figures; asserts nothing.  Targets (issue 26): 1,000 hosts under
# 1 s and 10,000 under 10 s in every format, peak memory under 1 GB at
# 10,000, `-f json` of 1,000 hosts under 10 MB.  ROUNDS=N rounds a format
# (default 3).
#
#   bench/compare-scale.sh [N]
set -eu
cd "$(dirname "$0")/.."
n=${1:-50}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT && echo "kept $dir"
workloads=$("$ud" workloads | awk '$3 == "default" || $4 == "default" { print $1 }' | tr '\n' ' ')

gen() { # SEED FILE
	awk -v seed="$1" -v names="$workloads" 'BEGIN {
		srand(seed)
		nw = split(names, name, " ")
		speed = 0.7 + 0.8 * rand()
		printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"host-%02d\", \"kernel\": \"6.%d.0\", \"cpu\": {\"uarch\": \"%s\"}, \"vulnerabilities\": {\"spec_rstack_overflow\": \"%s\"}}, \"workloads\": [\n", seed, seed % 3, seed % 2 ? "zen4" : "zen5", seed % 4 ? "Mitigation: Safe RET" : "Not affected"
		for (w = 1; w <= nw; w++) {
			s = 1000 * speed * (0.8 + 0.4 * rand())
			printf "%s{\"name\": \"%s\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f, \"samples\": [%.3f, %.3f, %.3f, %.3f, %.3f], \"ci95_rel\": 0.01}, \"work_units\": %d, \"elapsed_ns\": 1250000000, \"user_ns\": 400000000, \"sys_ns\": %d, \"counters\": {", (w > 1 ? ",\n" : ""), name[w], s, s * 0.99, s * 1.01, s, s * 0.99, s * 1.01, s * 1.005, s * 0.995, s * 1.25, int(rand() * 6e8)
			c = 3e9 * (1 + rand()); i = c * (0.5 + 2 * rand())
			printf "\"cycles\": {\"status\": \"counted\", \"value\": %d}, \"instructions\": {\"status\": \"counted\", \"value\": %d}, ", c, i
			printf "\"branches\": {\"status\": \"counted\", \"value\": %d}, \"branch-misses\": {\"status\": \"counted\", \"value\": %d, \"semantics\": \"retired\"}, ", i / 5, i / 500 * rand()
			printf "\"L1-dcache-loads\": {\"status\": \"counted\", \"value\": %d}, \"L1-dcache-load-misses\": {\"status\": \"counted\", \"value\": %d}, ", i / 3, i / 60 * rand()
			printf "\"stalled-cycles-frontend\": {\"status\": \"counted\", \"value\": %d}, \"stalled-cycles-backend\": {\"status\": \"counted\", \"value\": %d}, ", c * rand() / 3, c * rand() / 3
			printf "\"task-clock\": {\"status\": \"counted\", \"value\": %d}, \"context-switches\": {\"status\": \"counted\", \"value\": %d}, ", 9e8 + 1e8 * rand(), 1000 * rand()
			printf "\"cpu-migrations\": {\"status\": \"counted\", \"value\": %d}, \"page-faults\": {\"status\": \"counted\", \"value\": %d}}}", 10 * rand(), 500 * rand()
		}
		printf "\n]}\n"
	}' > "$2"
}
files=
for k in $(seq 1 "$n"); do
	f=$(printf '%s/host-%02d.json' "$dir" "$k")
	gen "$k" "$f"
	files="$files $f"
done
printf 'profiles: %d hosts x %d workloads (%s), %s bytes in all\n' "$n" "$(echo $workloads | wc -w)" \
	"$(echo $workloads | tr ' ' ',')" "$(cat $files | wc -c)"
for f in json text md html; do
	for round in $(seq 1 "${ROUNDS:-3}"); do
		start=$(date +%s%N)
		# shellcheck disable=SC2086 # the file list is meant to split
		/usr/bin/time -f %M -o "$dir/rss" "$ud" compare -f "$f" -o "$dir/out.$f" $files
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		printf 'compare -f %-4s round %d: %4d ms, peak RSS %s KB, report %s bytes\n' "$f" "$round" "$ms" \
			"$(cat "$dir/rss")" "$(stat -c %s "$dir/out.$f")"
	done
done
