#!/bin/sh
# Time and peak memory to diff two generated (made-up) profiles of N
# workloads each (default 1000), every workload with the default counters
# and 5 samples: first the engine alone in process (build/diff_bench:
# ud_diff_build(), and each report's rendering from the model), then the
# whole command in every format `diff -h` lists, profile parsing included:
# the median wall time of ROUNDS (5) runs, peak RSS and, where valgrind is
# installed, the instructions callgrind counts (the figure a loaded machine
# does not move; wall time on a shared 2-CPU VM is mostly other tenants').
# Prints figures; asserts nothing.  Target (issue 35): the whole command at
# most 100 ms in every format for 1,000 workloads.
#
#   bench/diff-scale.sh [N] [ROUNDS]
set -eu
cd "$(dirname "$0")/.."
n=${1:-1000}
rounds=${2:-5}
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
printf 'profiles (made-up): %d workloads each, %s and %s bytes\n' "$n" "$(stat -c %s "$dir/A.json")" \
	"$(stat -c %s "$dir/B.json")"
# the formats the command itself offers: "usage: uarchdiff diff [-f text|json|md|html] ..."
formats=$("$ud" diff -h | sed -n 's/^usage:.*\[-f \([a-z|]*\)\].*/\1/p' | tr '|' ' ')
[ -n "$formats" ] || formats="text json md html"
callgrind=
command -v valgrind >/dev/null && callgrind=yes
printf '%-8s %9s %-24s %11s %13s  %s\n' format "median ms" "rounds (ms)" "peak RSS KB" instructions "target"
for f in $formats; do
	times=
	for round in $(seq "$rounds"); do
		start=$(date +%s%N)
		/usr/bin/time -f %M -o "$dir/rss" "$ud" diff -f "$f" -o "$dir/out.$f" "$dir/A.json" "$dir/B.json"
		times="$times $(( ($(date +%s%N) - start) / 1000000 ))"
	done
	median=$(printf '%s\n' $times | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
	insn="(no valgrind)"
	if [ -n "$callgrind" ]; then
		insn=$(valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$ud" diff -f "$f" -o "$dir/cg.$f" \
			"$dir/A.json" "$dir/B.json" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,)
		insn=$(awk -v i="$insn" 'BEGIN {printf "%.1f M", i / 1e6}')
	fi
	printf '%-8s %9s %-24s %11s %13s  %s\n' "-f $f" "$median" "$(echo $times | tr ' ' /)" "$(cat "$dir/rss")" \
		"$insn" "at most 100 ms"
done
printf 'report sizes:'
for f in $formats; do printf ' %s %s bytes;' "$f" "$(stat -c %s "$dir/out.$f")"; done
echo
