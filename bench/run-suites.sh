#!/bin/sh
# Wall time of `uarchdiff run` for the quick and default suites, and each
# workload's relative 95% interval (of the median), the samples adaptive
# sampling took, its lowest CPUs utilized and its noise warnings.  Prints
# figures; asserts nothing.  Targets: on a quiet host CPU-bound workloads
# reach 2% or carry a warning; no interval above 2% without a warning.
# Each round also prints how many intervals exceed 2% without a warning
# (the target: 0), the samples taken and the sum of their measured times
# (less bound to the host's load than the wall time), and the load average
# at the start (the default suite's goal: under 60 s on a quiet host).
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
		load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
		start=$(date +%s%N)
		"$ud" run --suite "$suite" -o "$dir/$suite.json" >/dev/null 2>&1 || true
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		python3 - "$dir/$suite.json" "$suite" "$r" "$ms" "$load" <<'PY'
import json, sys
path, suite, rnd, ms, load = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
p = json.load(open(path))
ws = p["workloads"]
nsamples = sum(len(w["score"]["samples"]) for w in ws if w["score"])
measured = sum(w.get("elapsed_ns") or 0 for w in ws) / 1e9
print(f"{suite} round {rnd}: {len(ws)} workloads in {ms / 1000:.1f} s (load average {load}); "
      f"{nsamples} samples, {measured:.1f} s measured")
unwarned = 0
for w in ws:
    ci = w["score"]["ci95_rel"] if w["score"] else None
    n = w.get("noise") or {}
    warnings = n.get("warnings") or []
    cpus = n.get("cpus_utilized_min")
    if ci is not None and ci > 0.02 and not warnings:
        unwarned += 1
    ci_s = f"{100 * ci:5.1f}%" if ci is not None else "    -"
    cpu_s = f"{cpus:4.2f}" if cpus is not None else "   -"
    tags = "; ".join(warnings) if warnings else "-"
    print(f"  {w['name']:20} CI95 {ci_s}  samples {n.get('samples_taken', 0):2}  cpus-min {cpu_s}  {w['outcome']}  {tags}")
print(f"  intervals above 2% without a warning: {unwarned}")
PY
		r=$((r + 1))
	done
done
