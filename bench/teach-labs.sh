#!/bin/sh
# `uarchdiff teach`, all labs, ROUNDS times: each lab's effect ratio, verdict
# and time, the cache lab's knees beside the sysfs sizes, the whole run's
# wall time, each lab's noise figures and warnings (on a quiet machine there
# should be none), then each ratio's spread over the rounds.  Prints figures;
# asserts nothing.  Targets (issue 14): branch ratio >= 5, cache knees within
# 2x of the L1d and L2, ilp ratio (1 -> 4 chains) >= 2, all labs < 60 s,
# one lab < 20 s.  Run it on a quiet machine: the labs time one thread.
#
#   bench/teach-labs.sh [ROUNDS]     (default 3)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the documents" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

r=1
while [ "$r" -le "$rounds" ]; do
	start=$(date +%s%N)
	"$ud" teach -f json -o "$dir/round$r.json" 2>/dev/null
	echo $(( ($(date +%s%N) - start) / 1000000 )) >"$dir/round$r.ms"
	echo "round $r: $(uptime | sed 's/.*load/load/')"
	r=$((r + 1))
done
python3 - "$dir" "$rounds" <<'PY'
import json, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
ratios = {}
for r in range(1, rounds + 1):
    doc = json.load(open(f"{d}/round{r}.json"))
    ms = int(open(f"{d}/round{r}.ms").read())
    print(f"round {r}: all labs in {ms / 1000:.1f} s")
    for lab in doc["labs"]:
        e = lab["effect"]
        ratios.setdefault(lab["name"], []).append(e["ratio"])
        line = (f"  {lab['name']:7} {e['metric']}: {e['a']:.3g} ({e['a_label']}) -> {e['b']:.3g} ({e['b_label']})"
                f" = {e['ratio']:.3g}x  {'shown' if lab['shown'] else 'NOT shown: ' + lab['why_not']}"
                f"  ({lab['seconds']:.1f} s)")
        print(line)
        n = lab["noise"]
        fmt = lambda v, f: "n/a" if v is None else f % v
        print(f"          noise: cpu {fmt(n['cpus_utilized_min'], '%.2f')}, steal {fmt(n['steal_pct'], '%.1f%%')},"
              f" load {fmt(n['load_avg'], '%.1f')}, widest interval {fmt(n['ci95_rel'] and 100 * n['ci95_rel'], '%.1f%%')}"
              f"; {'; '.join(n['warnings']) or 'no warning'}")
        if "knees_kb" in lab:
            s = lab["sysfs_kb"]
            print(f"          knees {lab['knees_kb']} KB; sysfs L1d {s['l1d']}, L2 {s['l2']}, L3 {s['l3']} KB")
for name, v in ratios.items():
    spread = f", stdev {statistics.stdev(v):.3g}" if len(v) > 1 else ""
    print(f"{name:7} ratio: min {min(v):.3g}, median {statistics.median(v):.3g}, max {max(v):.3g}{spread}")
PY
