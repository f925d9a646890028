#!/bin/sh
# What `run --hotspots` costs: the quick suite run ROUNDS times without and
# with sampling, interleaved so that drift in the machine's load hits both,
# then per workload the median score and the median CPU time (task-clock) per
# unit of work with sampling over without.  CPU time per unit is the steadier
# figure on a shared VM: it does not count the time other tenants take.
# Prints figures; asserts nothing.  Goal: a cost under 2%.
#
#   bench/hotspots-overhead.sh [ROUNDS]     (default 5)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-5}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the profiles" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

r=1
while [ "$r" -le "$rounds" ]; do
	# Which goes first alternates, so a machine getting busier or quieter favours neither.
	if [ $((r % 2)) = 1 ]; then
		"$ud" run --suite quick -o "$dir/plain-$r.json" >/dev/null 2>&1 || true
		"$ud" run --suite quick --hotspots -o "$dir/sampled-$r.json" >/dev/null 2>&1 || true
	else
		"$ud" run --suite quick --hotspots -o "$dir/sampled-$r.json" >/dev/null 2>&1 || true
		"$ud" run --suite quick -o "$dir/plain-$r.json" >/dev/null 2>&1 || true
	fi
	r=$((r + 1))
done
python3 - "$dir" "$rounds" <<'PY'
import glob, json, math, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])

def collect(kind):
    out = {}
    for path in sorted(glob.glob(f"{d}/{kind}-*.json")):
        for w in json.load(open(path))["workloads"]:
            tc = (w.get("counters", {}).get("task-clock") or {}).get("value")
            units = w.get("work_units")
            e = out.setdefault(w["name"], {"score": [], "cpu": [], "samples": 0, "hz": None})
            if w["score"] and w["score"]["median"]:
                e["score"].append(w["score"]["median"])
            if tc and units:
                e["cpu"].append(tc / units)
            s = w.get("sampling")
            if s:
                e["samples"] += s.get("samples") or 0
                e["hz"] = s.get("frequency_hz")
    return out

plain, sampled = collect("plain"), collect("sampled")
print(f"{rounds} rounds of the quick suite, without and with --hotspots (interleaved)")
print(f"{'workload':16} {'score x':>8} {'cpu/unit x':>10} {'samples':>8}  (x = with / without, medians; higher score and lower cpu are better)")
cost_score, cost_cpu = [], []
for name, p in plain.items():
    s = sampled.get(name)
    if not s or not p["score"] or not s["score"]:
        continue
    rs = statistics.median(s["score"]) / statistics.median(p["score"])
    rc = statistics.median(s["cpu"]) / statistics.median(p["cpu"]) if p["cpu"] and s["cpu"] else float("nan")
    cost_score.append(math.log(rs))
    if not math.isnan(rc):
        cost_cpu.append(math.log(rc))
    print(f"{name:16} {rs:8.3f} {rc:10.3f} {s['samples']:8.0f}")
if cost_score:
    g = math.exp(sum(cost_score) / len(cost_score))
    print(f"geomean score with/without: {g:.4f}  -> cost {100 * (1 - g):+.2f}%")
if cost_cpu:
    g = math.exp(sum(cost_cpu) / len(cost_cpu))
    print(f"geomean CPU time per unit with/without: {g:.4f}  -> cost {100 * (g - 1):+.2f}%")
PY
