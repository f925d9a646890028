#!/bin/sh
# Time and peak memory to diff two generated profiles of N workloads each
# (default 1000), every workload with the default counters and 5 samples:
# first the engine alone in process (build/diff_bench: ud_diff_build(), and
# each report's rendering from the model), then the whole command in every
# format (json, text, md, html), profile parsing included.
# Prints figures; asserts nothing.  Targets: the diff under 100 ms for
# 1,000; the whole command under 70 ms in every format, as -f json.
#
#   bench/diff-scale.sh [N]
set -eu
cd "$(dirname "$0")/.."
n=${1:-1000}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT && echo "kept $dir"

gen() { # SEED LABEL UARCH
	awk -v n="$n" -v seed="$1" -v label="$2" -v uarch="$3" 'BEGIN {
		srand(seed)
		printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"%s\", \"kernel\": \"6.%d\", \"cpu\": {\"uarch\": \"%s\"}, \"vulnerabilities\": {\"retbleed\": \"%s\"}}, \"workloads\": [\n", label, seed, uarch, seed == 1 ? "Mitigation: IBRS" : "Not affected"
		for (w = 0; w < n; w++) {
			s = 1000 * (1 + rand())
			printf "%s{\"name\": \"workload-%d\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f, \"samples\": [%.3f, %.3f, %.3f, %.3f, %.3f], \"ci95_rel\": 0.01}, \"work_units\": null, \"elapsed_ns\": 1000000000, \"user_ns\": 400000000, \"sys_ns\": %d, \"counters\": {", w ? ",\n" : "", w, s, s * 0.99, s * 1.01, s, s * 0.99, s * 1.01, s * 1.005, s * 0.995, int(rand() * 6e8)
			c = 3e9 * (1 + rand()); i = c * (0.5 + 2 * rand())
			printf "\"cycles\": {\"status\": \"counted\", \"value\": %.0f}, \"instructions\": {\"status\": \"counted\", \"value\": %.0f}, ", c, i
			printf "\"branches\": {\"status\": \"counted\", \"value\": %.0f}, \"branch-misses\": {\"status\": \"counted\", \"value\": %.0f, \"semantics\": \"retired\"}, ", i / 5, i / 500 * rand()
			printf "\"L1-dcache-loads\": {\"status\": \"counted\", \"value\": %.0f}, \"L1-dcache-load-misses\": {\"status\": \"counted\", \"value\": %.0f, \"running_pct\": %.2f}, ", i / 3, i / 60 * rand(), 40 + 60 * rand()
			printf "\"task-clock\": {\"status\": \"counted\", \"value\": %.0f}, \"stalled-cycles-backend\": {\"status\": \"not_supported\", \"value\": null}}}", 9e8 + 1e8 * rand()
		}
		printf "\n]}\n"
	}' > "$dir/$2.json"
}
build/diff_bench "$n"
echo
gen 1 A zen4
gen 2 B zen5
printf 'profiles: %d workloads each, %s and %s bytes\n' "$n" "$(stat -c %s "$dir/A.json")" "$(stat -c %s "$dir/B.json")"
for f in json text md html; do
	for round in 1 2 3; do
		start=$(date +%s%N)
		/usr/bin/time -f %M -o "$dir/rss" "$ud" diff -f "$f" -o "$dir/out.$f" "$dir/A.json" "$dir/B.json"
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		printf 'diff -f %-4s round %d: %4d ms, peak RSS %s KB, report %s bytes\n' "$f" "$round" "$ms" \
			"$(cat "$dir/rss")" "$(stat -c %s "$dir/out.$f")"
	done
done
