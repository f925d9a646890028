#!/bin/sh
# Wall time of `uarchdiff run` for the quick and default suites, and each
# workload's relative 95% confidence interval with the default 5 samples.
# Prints figures; asserts nothing.  Targets: quick <= 10 s with at least 8
# workloads, default <= 60 s, CPU-bound workloads' CI <= 2%.
#
#   bench/run-suites.sh [ROUNDS]     (default 2)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-2}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the profiles" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for suite in quick default; do
	r=1
	while [ "$r" -le "$rounds" ]; do
		start=$(date +%s%N)
		"$ud" run --suite "$suite" -o "$dir/$suite.json" >/dev/null 2>&1 || true
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		python3 - "$dir/$suite.json" "$suite" "$r" "$ms" <<'PY'
import json, sys
path, suite, rnd, ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
p = json.load(open(path))
ws = p["workloads"]
print(f"{suite} round {rnd}: {len(ws)} workloads in {ms / 1000:.1f} s")
for w in ws:
    ci = w["score"]["ci95_rel"] if w["score"] else None
    print(f"  {w['name']:16} CI95 {100 * ci:5.1f}%  {w['outcome']}" if ci is not None else f"  {w['name']:16} {w['outcome']}")
PY
		r=$((r + 1))
	done
done
