#!/bin/sh
# Time and peak memory of the inputs that once blew up (issue 12), each
# generated here: a perf stat paste of N blocks naming one command (the
# unique-name path), one block of N distinct events, a diff of one workload
# with N counters, a diff of one workload with M samples a side (the rank
# test), a UnixBench log of M index lines, a profile of M workloads whose
# last repeats the first's name (refused: names are hashed, not compared
# pairwise), and a report template nested 40,000 sections deep (refused).  Prints figures; asserts nothing.
# Targets: near-linear, the first five well under a second (they took 67 s,
# 20 s, 19 s, 75 s; the UnixBench log 24 s).
#
#   bench/hostile-scale.sh [N] [M]    (defaults 20000 and 100000)
set -eu
cd "$(dirname "$0")/.."
n=${1:-20000}
m=${2:-100000}
ud=$PWD/build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

timed() { # LABEL COMMAND...: wall and CPU time (user + system: the 2 cores are shared), peak memory, exit status
	label=$1
	shift
	start=$(date +%s%N)
	set +e
	/usr/bin/time -f "%M %U %S" -o "$dir/rss" "$@" >/dev/null 2>"$dir/err"
	rc=$?
	set -e
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	set -- $(tail -1 "$dir/rss")
	printf '%-44s %6d ms wall %6.0f ms CPU %7d KB peak  exit %d\n' "$label" "$ms" \
		"$(awk -v u="$2" -v s="$3" 'BEGIN { print (u + s) * 1000 }')" "$1" "$rc"
}

awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
	printf "\n Performance counter stats for '"'"'./bench'"'"':\n\n         1,000      cycles\n\n       0.001 seconds time elapsed\n" }' > "$dir/blocks.txt"
timed "import: $n blocks of one command" "$ud" import -o "$dir/blocks.json" "$dir/blocks.txt"

awk -v n="$n" 'BEGIN { printf " Performance counter stats for '"'"'./bench'"'"':\n\n"
	for (i = 0; i < n; i++) printf "         %d      ev%d\n", i + 1, i
	printf "\n       1.0 seconds time elapsed\n" }' > "$dir/events.txt"
timed "import: one block of $n distinct events" "$ud" import -o "$dir/events.json" "$dir/events.txt"

for side in a b; do
	awk -v n="$n" -v side="$side" 'BEGIN {
		printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"%s\"}, \"workloads\": [{\"name\": \"w\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": %d, \"samples\": [%d]}, \"counters\": {", side, side == "a" ? 1000 : 2000, side == "a" ? 1000 : 2000
		for (i = 0; i < n; i++)
			printf "%s\"ev%d\": {\"status\": \"counted\", \"value\": %d}", i ? ", " : "", side == "a" ? i : n - 1 - i, i + 1
		printf "}}]}\n"
	}' > "$dir/c$side.json"
done
timed "diff: one workload, $n counters a side" "$ud" diff -f json "$dir/ca.json" "$dir/cb.json"

for side in a b; do
	awk -v m="$m" -v side="$side" 'BEGIN {
		printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"%s\"}, \"workloads\": [{\"name\": \"w\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": 1000, \"samples\": [", side
		for (i = 0; i < m; i++)
			printf "%s%d", i ? "," : "", 1000 + (i % 977) + (side == "b" ? 3 : 0)
		printf "]}, \"counters\": {}}]}\n"
	}' > "$dir/$side.json"
done
timed "diff: one workload, $m samples a side" "$ud" diff -f json "$dir/a.json" "$dir/b.json"

awk -v m="$m" 'BEGIN {
	printf "Benchmark Run: Mon Jan 01 2024 00:00:00 - 00:00:00\n1 CPU in system; running 1 parallel copy of tests\n\n"
	printf "System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
	for (i = 0; i < m; i++)
		printf "Test number %d                                  116700.0   41234567.8   3533.4\n", i
	printf "                                                                   ========\nSystem Benchmarks Index Score                                         3533.4\n"
}' > "$dir/unixbench.txt"
timed "import: UnixBench log of $m index lines" "$ud" import -o "$dir/ub.json" "$dir/unixbench.txt"

awk -v m="$m" 'BEGIN { printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"A\"}, \"workloads\": ["
	for (i = 0; i < m; i++)
		printf "%s{\"name\": \"w%d\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": 1}}", i ? "," : "", i
	printf ",{\"name\": \"w0\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": 2}}]}\n" }' > "$dir/many.json"
timed "diff: $m workloads, one twice (refused)" "$ud" diff "$dir/many.json" "$dir/a.json"

mkdir "$dir/tmpl"
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "{{#x}}"; for (i = 0; i < 40000; i++) printf "{{/x}}"; print "" }' \
	> "$dir/tmpl/report.txt"
timed "diff: template nested 40,000 deep (refused)" env UARCHDIFF_TEMPLATES_DIR="$dir/tmpl" "$ud" diff \
	"$dir/a.json" "$dir/b.json"
