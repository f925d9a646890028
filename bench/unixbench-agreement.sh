#!/bin/sh
# Each unixbench-* workload's score beside the same UnixBench program run
# directly the way UnixBench's Run scores it: the program timed from start
# to exit, its last COUNT|total|timebase|units line read, and the score
# total / (elapsed / timebase), or the total itself for timebase 0.  Both
# are run ROUNDS times; the medians and their ratio are printed.  Prints
# figures; asserts nothing.  Target: every ratio within the noise.
#
#   UNIXBENCH_DIR=/path/to/UnixBench bench/unixbench-agreement.sh [ROUNDS]   (default 3)
#
# UNIXBENCH_DIR is a built UnixBench (its pgms/ holds dhry2reg, pipe, ...);
# without it the script says it is skipped and why, and exits 0.
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
ud=build/uarchdiff
if [ -z "${UNIXBENCH_DIR:-}" ]; then
	echo "skipped: UNIXBENCH_DIR is not set (point it at a built UnixBench, the folder holding pgms/)"
	exit 0
fi
if [ ! -d "$UNIXBENCH_DIR/pgms" ]; then
	echo "skipped: $UNIXBENCH_DIR/pgms is missing: UnixBench is not built there (run make in it)"
	exit 0
fi
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the profiles" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# One direct run as Run makes it: UB_BINDIR set, the clock around the program.
direct() {
	start=$(date +%s%N)
	(cd "$dir/tmp" && UB_BINDIR="$UNIXBENCH_DIR/pgms" UB_TMPDIR="$dir/tmp" "$@" >"$dir/out" 2>&1)
	ns=$(( $(date +%s%N) - start ))
	grep '^COUNT|' "$dir/out" | tail -n 1 | awk -F'|' -v ns="$ns" \
		'{ s = ns / 1e9; print ($3 > 0 ? $2 / (s / $3) : $2) }'
}

mkdir "$dir/tmp"
printf '%-22s %14s %14s %7s\n' workload uarchdiff direct ratio
for spec in workloads/unixbench-*.spec; do
	name=$(sed -n 's/^name = //p' "$spec")
	cmd=$(sed -n 's/^command = //p' "$spec" | sed "s|\${UNIXBENCH_DIR}|$UNIXBENCH_DIR|g; s|\${TMPDIR}|$dir/tmp|g")
	if [ ! -x "${cmd%% *}" ]; then
		printf '%-22s not built: %s\n' "$name" "${cmd%% *}"
		continue
	fi
	"$ud" run -w "$name" -r "$rounds" -o "$dir/$name.json" >/dev/null 2>&1 || true
	: >"$dir/direct"
	r=1
	while [ "$r" -le "$rounds" ]; do
		# shellcheck disable=SC2086 # the spec's command is words
		direct $cmd >>"$dir/direct"
		r=$((r + 1))
	done
	python3 - "$dir/$name.json" "$dir/direct" "$name" <<'PY'
import json, statistics, sys
path, direct, name = sys.argv[1:4]
try:
    w = json.load(open(path))["workloads"][0]
    ours = w["score"]["median"] if w["outcome"] == "ok" else None
except (OSError, ValueError, IndexError, KeyError, TypeError):
    ours = None
vals = [float(x) for x in open(direct).read().split()]
theirs = statistics.median(vals) if vals else None
ratio = f"{ours / theirs:7.3f}" if ours and theirs else "      -"
fmt = lambda v: f"{v:14.1f}" if v is not None else f"{'failed':>14}"
print(f"{name:22} {fmt(ours)} {fmt(theirs)} {ratio}")
PY
done
