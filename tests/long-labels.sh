#!/bin/bash
# Issue 36: no sentence is cut at a fixed-size buffer.  A pair of profiles
# whose host labels, first workload and one event are each 5,000 characters
# long goes through diff (text, Markdown, HTML, JSON) and compare: every
# command exits 0, each long name appears whole in every document, and
# wherever one starts it runs to its end, unless a table column or a chart
# label shortens it on purpose with an ellipsis ("..." or "…").  Three
# pairs reach the sentences that hold names: the E5/E6 fixture (evidence,
# headline, per-unit rows), made-up top-down rows (the top-down sentence)
# and a profile without hardware counters (the no-PMU banner).  A fleet of
# five such hosts, one of them 10x the others, reaches compare's outlier
# lines (its moves, its evidence), its distribution rows and its units.
#
#   tests/long-labels.sh UARCHDIFF
set -u
ud=$(realpath "$1")
tests=$(cd "$(dirname "$0")" && pwd)
data=$tests/data
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
failed=0

"$ud" import --label E5 --uarch zen4 -o e5td.0 "$data/perf-stat/made-up-e5-topdown.txt" || exit 1
"$ud" import --label E6 --uarch zen5 -o e6td.0 "$data/perf-stat/made-up-e6-topdown.txt" || exit 1
"$ud" import --label S --uarch zen4 -o sa.0 "$data/perf-stat/made-up-syscall.txt" || exit 1
"$ud" import --label Sb --uarch zen4 -o sb.0 "$data/perf-stat/made-up-syscall-faster.txt" || exit 1
cp "$tests/golden/e5.json" e5.0
cp "$tests/golden/e6.json" e6.0

# lengthen FILE SIDE: the host's label, the first workload's name and a new event on it, 5,000 characters each
lengthen() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
path, side = sys.argv[1], sys.argv[2]
d = json.load(open(path + ".0"))
d["host"]["label"] = "HOST" + side + "START" + "0123456789" * 500 + "ZEND"
w = d["workloads"][0]
w["name"] = "WLSTART" + "abcdefghi-" * 500 + "ZEND"
src = w["counters"].get("page-faults") or w["counters"]["task-clock"]
w["counters"]["EVSTART" + "qwertyuiop" * 500 + "ZEND"] = dict(src, value=src["value"] * (2 if side == "B" else 1))
json.dump(d, open(path + ".json", "w"))
EOF
}

# whole FILE [scores|fleet]: each long name appears whole (the event's not where only scores are compared; a
# fleet's workload and units, not the two hosts'), and every start of one runs to its end or to an ellipsis
whole() {
	python3 - "$@" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
bad = 0
mode = sys.argv[2:]
names = (("WLSTART", "abcdefghi-"), ("HOSTASTART", "0123456789"), ("HOSTBSTART", "0123456789"),
         ("EVSTART", "qwertyuiop"))
if mode == ["fleet"]:
    names = (("WLSTART", "abcdefghi-"), ("UNSTART", "klmnop"))
for start, body in names:
    full = start + body * 500 + "ZEND"
    if full not in text and not (start == "EVSTART" and mode == ["scores"]):
        print(f"{sys.argv[1]}: {start[:-5]} never whole")
        bad += 1
    for m in re.finditer(start, text):
        rest = text[m.end():m.end() + len(full) + 4]
        run = len(re.match("[" + re.escape("".join(sorted(set(body)))) + "]*", rest).group(0))
        after = rest[run:]
        if not (after.startswith("ZEND") or after.startswith("...") or after.startswith("\u2026")):
            print(f"{sys.argv[1]}: {start[:-5]} cut after {run} characters, then {after[:20]!r}")
            bad += 1
sys.exit(1 if bad else 0)
EOF
}

for pair in "e5 e6" "e5td e6td" "sa sb"; do
	set -- $pair
	lengthen "$1" A
	lengthen "$2" B
	for f in text md html json; do
		out=$1.diff.$f
		"$ud" diff -f $f -o "$out" "$1.json" "$2.json"
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "FAIL diff -f $f $1 $2: exit $rc"
			failed=$((failed + 1))
		elif ! whole "$out"; then
			echo "FAIL diff -f $f $1 $2: a long name cut"
			failed=$((failed + 1))
		fi
	done
done
# compare's text table shortens the workload's name to its column (whole in the others)
for f in md html json; do
	"$ud" compare -f $f -o e5.compare.$f e5.json e6.json
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL compare -f $f: exit $rc"
		failed=$((failed + 1))
	elif ! whole e5.compare.$f scores; then
		echo "FAIL compare -f $f: a long name cut"
		failed=$((failed + 1))
	fi
done
# fleet: five hosts of one group, the fifth 10x the others: an outlier whose line names the long workload
python3 - e5.0 <<'EOF'
import json, sys
base = json.load(open(sys.argv[1]))
for k, speed in enumerate([1, 1.1, 1.2, 1.3, 10]):
    d = json.loads(json.dumps(base))
    d["host"]["label"] = "FLEETHOST%d" % k
    d["host"]["kernel"] = "KNSTART" + "rstuvw" * 100 + "ZEND"
    w = d["workloads"][0]
    w["name"] = "WLSTART" + "abcdefghi-" * 500 + "ZEND"
    w["units"] = "UNSTART" + "klmnop" * 500 + "ZEND"
    v = w["score"]["median"] * speed
    w["score"] = {"median": v, "min": v, "max": v, "samples": [v, v, v], "ci95_rel": 0.001}
    src = w["counters"]["task-clock"]
    w["counters"]["EVSTART" + "qwertyuiop" * 500 + "ZEND"] = dict(src, value=src["value"] * speed)
    json.dump(d, open("fleet%d.json" % k, "w"))
EOF
for f in text md html json; do
	"$ud" compare -f $f -o fleet.compare.$f fleet0.json fleet1.json fleet2.json fleet3.json fleet4.json
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL compare -f $f fleet: exit $rc"
		failed=$((failed + 1))
	elif ! grep -q "FLEETHOST4" fleet.compare.$f; then
		echo "FAIL compare -f $f fleet: no outlier named"
		failed=$((failed + 1))
	elif ! whole fleet.compare.$f fleet; then
		echo "FAIL compare -f $f fleet: a long name cut"
		failed=$((failed + 1))
	fi
done
# a group named by a long fact's value (--group-by kernel): the name whole
"$ud" compare --group-by kernel -f json -o fleet.kernel.json fleet0.json fleet1.json fleet2.json fleet3.json fleet4.json
if ! python3 - fleet.kernel.json <<'EOF'
import json, sys
kernel = "KNSTART" + "rstuvw" * 100 + "ZEND"
names = [g["name"] for g in json.load(open(sys.argv[1]))["groups"]]
sys.exit(0 if names == [kernel] else f"group names {[n[:40] + '...' + n[-10:] for n in names]}, not the kernel whole")
EOF
then
	echo "FAIL compare --group-by kernel: the group's name cut"
	failed=$((failed + 1))
fi
# import: a made-up paste whose two perf metrics have 160-byte names that differ only in their last byte, in
# perf's text, CSV (-x,) and JSON (-j) forms, imports as two metrics, each name whole
python3 - <<'EOF'
m = ["tma_" + "long_metric_" * 13 + end for end in "ab"]
with open("made-up-long-metrics.txt", "w") as f:
    f.write(" Performance counter stats for './bench':\n\n")
    f.write("     1,000.00 msec task-clock                #    1.000 CPUs utilized\n")
    f.write("   3,000,000,000      cycles                 #   41.5 %%  %s\n" % m[0])
    f.write("   4,000,000,000      instructions           #   58.5 %%  %s\n" % m[1])
    f.write("\n       1.000000000 seconds time elapsed\n")
with open("made-up-long-metrics.csv", "w") as f:
    f.write("1000.00,msec,task-clock,1000000000,100.00,1.000,CPUs utilized\n")
    f.write("3000000000,,cycles,1000000000,100.00,41.5,%%  %s\n" % m[0])
    f.write("4000000000,,instructions,1000000000,100.00,58.5,%%  %s\n" % m[1])
with open("made-up-long-metrics.json", "w") as f:
    f.write('{"counter-value" : "1000.000000", "unit" : "msec", "event" : "task-clock", "event-runtime" : 1000000000, '
            '"pcnt-running" : 100.00, "metric-value" : 1.000000, "metric-unit" : "CPUs utilized"}\n')
    for v, e, name, pct in ((3e9, "cycles", m[0], 41.5), (4e9, "instructions", m[1], 58.5)):
        f.write('{"counter-value" : "%d", "unit" : "", "event" : "%s", "event-runtime" : 1000000000, '
                '"pcnt-running" : 100.00, "metric-value" : %.6f, "metric-unit" : "%%  %s"}\n' % (v, e, pct, name))
EOF
for form in "txt perf-text" "csv perf-csv" "json perf-json"; do
	set -- $form
	"$ud" import --format "$2" --label L --uarch zen4 -o "long-metrics-$1.json" "made-up-long-metrics.$1"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL import --format $2 of long metric names: exit $rc"
		failed=$((failed + 1))
	elif ! python3 - "long-metrics-$1.json" <<'EOF'
import json, sys
m = ["tma_" + "long_metric_" * 13 + end for end in "ab"]
got = json.load(open(sys.argv[1]))["workloads"][0].get("perf_metrics", {})
sys.exit(0 if sorted(k for k in got if k.startswith("tma_")) == m else f"metrics {sorted(k[:20] + '...' + k[-4:] for k in got)}")
EOF
	then
		echo "FAIL import --format $2: two long metric names differing at their end are not two metrics, whole"
		failed=$((failed + 1))
	fi
done
# an error naming a 2,000-byte workload (two sides in other units): the message keeps its start and its reason,
# with a visible "..." where the name gives way, cut at a character's edge (the name is all "é")
python3 - e5.0 <<'EOF'
import json, sys
for side, units in (("a", None), ("b", "made-up-units")):
    d = json.load(open(sys.argv[1]))
    w = d["workloads"][0]
    w["name"] = "WL2K" + "\u00e9" * 998
    if units:
        w["units"] = units
    json.dump(d, open("units-%s.json" % side, "w"))
EOF
"$ud" diff -o units.txt units-a.json units-b.json 2>units.err
rc=$?
if [ $rc -eq 0 ] || ! python3 - units.err <<'EOF'
import sys
msg = open(sys.argv[1], "rb").read().decode("utf-8")  # strict: a name cut mid-character fails here
ok = "WL2K\u00e9" in msg and "..." in msg and "not comparable" in msg
sys.exit(0 if ok else f"message {msg[:60]!r}...{msg[-60:]!r}: its start, a visible cut and its reason expected")
EOF
then
	echo "FAIL diff of a 2,000-byte workload in other units: exit $rc, the error cut silently"
	failed=$((failed + 1))
fi
if [ $failed -ne 0 ]; then
	echo "long-labels: $failed failure(s)"
	exit 1
fi
echo "long-labels: every long name whole in 12 diffs and 8 comparisons"
