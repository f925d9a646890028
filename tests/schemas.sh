#!/bin/sh
# Every document uarchdiff writes, validated against its published schema
# (schemas/, draft 2020-12) by a packaged validator (Debian's
# python3-jsonschema, through tests/schemas.py, which names the file, the
# field and the schema's place of each failure): the goldens, every earlier
# /1 profile form (tests/data/profiles-v1), host and events of every fixture
# and table, profiles from run, stat and the import of every fixture, stat
# -j's lines for every target and aggregation, diffs
# and compares of them in JSON, teach, and the diffs of profiles the fuzzer
# accepted (tests/data/fuzz-accepted).  Then the schemas' closedness: a
# field the schema does not declare fails, naming itself; the documentation's
# validation example as written; the documentation's field lists against the
# schemas (tests/schema_fields.py).
#
#   schemas.sh UARCHDIFF SOURCE_DIR
set -eu
ud=$(realpath "$1") src=$(realpath "$2")

. "$src/tests/jsonschema-python.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$src/tests/data
status=0
checked=0

fail() {
	echo "schemas: $*"
	status=1
}

# check NAME FILE...: each FILE valid against schemas/NAME.schema.json
check() {
	name=$1
	shift
	if ! "$py" "$src/tests/schemas.py" "$src/schemas" "$name" "$@"; then
		fail "documents above do not match schemas/$name.schema.json"
	fi
	checked=$((checked + $#))
}

# run_ud ARGS...: uarchdiff, which must succeed (its output shown when it does not)
run_ud() {
	if ! "$ud" "$@" >"$work/out" 2>&1; then
		cat "$work/out"
		fail "uarchdiff $* failed"
	fi
}

# ud_to FILE ARGS...: the same, its standard output into FILE
ud_to() {
	to=$1
	shift
	if ! "$ud" "$@" >"$to" 2>"$work/out"; then
		cat "$work/out"
		fail "uarchdiff $* failed"
	fi
}

"$py" "$src/tests/schemas.py" "$src/schemas" --check || fail "a schema is not valid draft 2020-12"

# --- the goldens and every earlier /1 profile: within /1 fields are only added
check profile "$src"/tests/golden/e5.json "$src"/tests/golden/e6.json "$src"/tests/golden/g2.json \
	"$src"/tests/golden/g3.json "$data"/profiles-v1/*.json
check diff "$src"/tests/golden/*.diff.json

# --- host and events: this host, every cpuinfo fixture, every table
ud_to "$work/host.json" host --json
for f in "$data"/cpuinfo/*.txt; do
	ud_to "$work/host-$(basename "$f" .txt).json" host --json --cpuinfo "$f"
	ud_to "$work/events-$(basename "$f" .txt).json" events --json --cpuinfo "$f"
done
check host "$work"/host*.json "$data"/host/*.json
ud_to "$work/events-here.json" events --json
for t in "$src"/events/*; do
	case $t in *.md | *.list) continue ;; esac
	ud_to "$work/events-table-$(basename "$t").json" events --json --uarch "$(basename "$t")"
done
ud_to "$work/events-core-power9.json" events --json --uarch power9
check events "$work"/events-*.json

# --- run and stat, on software events here (a PMU adds counted hardware counters, nothing else)
run_ud run -w syscall,int -r 1 --hotspots -o "$work/run-hot-a.json"
run_ud run -w syscall,int -r 1 --hotspots -o "$work/run-hot-b.json"
run_ud run -w syscall -r 4 -o "$work/run-r4-a.json"
run_ud run -w syscall -r 4 -o "$work/run-r4-b.json"
ud_to "$work/run-stdout.json" run -w pipe -r 1 -e task-clock,cycles:u,instructions:k,page-faults --json
# stat: the profile (--profile, or -o FILE.json) beside perf's JSON lines (-j), for every target and aggregation
run_ud stat -o "$work/stat.json" -- /bin/true
run_ud stat -j -o "$work/lines-r3.jsonl" --profile "$work/stat-r3.json" -r 3 -e task-clock,page-faults,cycles:u,instructions \
	-- /bin/true
run_ud stat -j -o "$work/lines-hot.jsonl" --profile "$work/stat-hot.json" --hotspots \
	-- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
run_ud stat -j -o "$work/lines-all.jsonl" --profile "$work/stat-all.json" -a -A -e task-clock,context-switches -- sleep 0.05
run_ud stat -o "$work/stat-all-b.json" -a -e task-clock,context-switches -- sleep 0.05
run_ud stat -j -o "$work/lines-core.jsonl" -a --per-core -e task-clock -- sleep 0.05
run_ud stat -j -o "$work/lines-socket.jsonl" -C 0 --per-socket -e task-clock -- sleep 0.05
run_ud stat -j -o "$work/lines-interval.jsonl" -I 20 --summary -e task-clock,page-faults -- sleep 0.07
sleep 5 &
sleeper=$!
run_ud stat -j -o "$work/lines-pid.jsonl" --profile "$work/stat-pid.json" -p "$sleeper" --per-thread -e task-clock \
	--timeout 50
run_ud stat -j -o "$work/lines-tid.jsonl" --profile "$work/stat-tid.json" -t "$sleeper" -e task-clock --timeout 50
kill "$sleeper" 2>/dev/null || true
# stat record's record: a profile with a stat_record (aggregates, intervals, repeats)
run_ud stat record -o "$work/stat-record-r2.json" -r 2 -- /bin/true
run_ud stat record -o "$work/stat-record-iv.json" -a -A -I 20 --summary -e task-clock,page-faults -- sleep 0.07
kill "$sleeper" 2>/dev/null || true
# every way an event is opened (opened_as): a tracepoint, a PMU by its sysfs name (msr/tsc/ where there is
# one), software/config=N/, the tool's duration_time, a generic event
pmu_events=software/config=1/,duration_time,task-clock
[ -d /sys/bus/event_source/devices/msr ] && pmu_events="$pmu_events,msr/tsc/"
[ -d /sys/bus/event_source/devices/tracepoint ] && pmu_events="$pmu_events,sched:sched_switch"
run_ud stat --profile "$work/stat-opened.json" -e "$pmu_events" -- /bin/true
check profile "$work"/run-*.json "$work"/stat*.json
# ... and every value the resolver can write is one the schemas enumerate
"$py" - "$src" <<'PY' || fail "an opened_as the source writes is missing from a schema's enum"
import json, re, sys, glob
src = sys.argv[1]
written = set()
for f in glob.glob(src + "/src/uarch/*.c"):
    written |= set(re.findall(r'opened_as = "([a-z0-9]+)"', open(f).read()))
for name, path in (("profile", ["$defs", "counter", "properties", "opened_as"]),
                   ("events", ["$defs", "event", "properties", "opened_as"])):
    node = json.load(open(f"{src}/schemas/{name}.schema.json"))
    for k in path:
        node = node.get(k, {}) if isinstance(node, dict) else {}
    missing = written - set(node.get("enum", []))
    if missing:
        print(f"schemas/{name}.schema.json opened_as lacks {sorted(missing)}")
        sys.exit(1)
PY
check stat-line "$work"/lines-*.jsonl

# --- import: every fixture, alone and with what it can be given
i=0
diff_json_lkp=
for f in "$data"/perf-stat/* "$data"/unixbench/* "$data"/perf-report/* "$data"/foreign/*/*.csv "$src"/fuzz/seeds/*; do
	i=$((i + 1))
	run_ud import -o "$work/import-$i.json" "$f"
done
for f in "$data"/lkp/*; do # the robot's tables: each side (target system-wide, derived cycles with their reason)
	for side in base head; do
		i=$((i + 1))
		run_ud import --side "$side" -o "$work/import-$i.json" "$f"
	done
	diff_json_lkp="$diff_json_lkp $work/import-$((i - 1)).json:$work/import-$i.json"
done
run_ud import --label "OCI E5 (Genoa)" --host "$data/host/oci-e5-host.json" -o "$work/import-e5-host.json" \
	"$data/perf-stat/oci-e5-genoa-fstime.txt"
run_ud import --label "OCI E6 (Turin)" --host "$data/host/oci-e6-host.json" -o "$work/import-e6-host.json" \
	"$data/perf-stat/oci-e6-turin-fstime.txt"
run_ud import --cpuinfo "$data/cpuinfo/aws-m6g-graviton2.txt" -o "$work/import-g2-cpuinfo.json" \
	"$data/unixbench/aws-m6g-graviton2.txt"
run_ud import --uarch zen4 --workload bench --score 10.5,10.7,10.4,10.6:ops -o "$work/import-score-a.json" \
	"$data/perf-stat/made-up-r5.txt"
run_ud import --uarch zen4 --workload bench --score 11.5,11.9,11.4,11.6:ops -o "$work/import-score-b.json" \
	"$data/perf-stat/made-up-r5-faster.txt"
run_ud import -o "$work/import-with-report.json" "$data/perf-stat/made-up-syscall.txt" \
	"$data/perf-report/vm-syscall-cpu-clock.txt"
run_ud import --uarch power9 --fact cpufreq.governor=performance --fact cpu.smt=true \
	--fact vulnerabilities.spec_rstack_overflow=Vulnerable -o "$work/import-stated.json" "$data/perf-stat/made-up-r5.txt"
run_ud import -o "$work/import-several.json" "$data/perf-stat/made-up-r5.txt" "$data/perf-stat/made-up-r5.csv" \
	"$data/perf-stat/made-up-r5.json"
check profile "$work"/import-*.json

# --- diff and compare in JSON, over those profiles and across /1 forms
d=0
diff_json() {
	d=$((d + 1))
	run_ud diff -f json -o "$work/diff-$d.json" "$1" "$2"
}
diff_json "$work/import-e5-host.json" "$work/import-e6-host.json"
diff_json "$work/import-g2-cpuinfo.json" "$src/tests/golden/g3.json"
diff_json "$work/import-score-a.json" "$work/import-score-b.json"
diff_json "$work/run-hot-a.json" "$work/run-hot-b.json"
diff_json "$work/run-r4-a.json" "$work/run-r4-b.json"
diff_json "$work/stat.json" "$work/stat-r3.json"
diff_json "$work/stat-all.json" "$work/stat-all-b.json"
diff_json "$data/profiles-v1/run-e3aba48.json" "$work/run-hot-a.json"
diff_json "$data/profiles-v1/stat-28d6064.json" "$work/stat.json"
for pair in made-up-r5:made-up-r5-faster made-up-r5:made-up-r5-same made-up-syscall:made-up-syscall-faster \
	made-up-syscall-r5:made-up-syscall-faster; do
	run_ud import --workload w -o "$work/pair-a.json" "$data/perf-stat/${pair%:*}.txt"
	run_ud import --workload w -o "$work/pair-b.json" "$data/perf-stat/${pair#*:}.txt"
	diff_json "$work/pair-a.json" "$work/pair-b.json"
done
for pair in $diff_json_lkp; do
	diff_json "${pair%%:*}" "${pair#*:}"
done
for f in "$work"/import-*.json; do
	diff_json "$f" "$f"
done
check diff "$work"/diff-*.json
# g2 shares no workload with the others: a group whose median is not diffed (diff_error)
run_ud compare -f json -o "$work/compare-3.json" "$work/import-e5-host.json" "$src/tests/golden/e6.json" \
	"$work/import-e6-host.json" "$src/tests/golden/g2.json"
run_ud compare -f json -o "$work/compare-run.json" "$work/run-hot-a.json" "$work/run-hot-b.json" \
	"$data/profiles-v1/run-bf7ebcd.json"
check compare "$work"/compare-*.json

# --- teach (quick: tiny sizes, the document's shape is the same)
UARCHDIFF_TEACH_QUICK=1 run_ud teach -f json -o "$work/teach.json"
UARCHDIFF_TEACH_QUICK=1 run_ud teach cache -f json -o "$work/teach-cache.json"
# a lab that failed (out of memory; made to by the test's knob) beside the two that finished: exit 1, written
rc=0
UARCHDIFF_TEACH_QUICK=1 UARCHDIFF_TEACH_FAIL=cache "$ud" teach -f json -o "$work/teach-failed.json" 2>"$work/out" || rc=$?
[ "$rc" = 1 ] || { cat "$work/out"; fail "teach with a failed lab exited $rc, not 1"; }
check teach "$work"/teach*.json

# --- profiles the fuzzer accepted: what diff and compare write from them is valid
n=0
for f in "$data"/fuzz-accepted/*; do
	case $f in *.md) continue ;; esac
	n=$((n + 1))
	# a NUL separates the two profiles of a pair (fuzz/fuzz_profile.c); a file holds no NUL
	"$py" -c 'import sys; a, _, b = open(sys.argv[1], "rb").read().partition(b"\0"); open(sys.argv[2], "wb").write(a); open(sys.argv[3], "wb").write(b or a)' \
		"$f" "$work/fuzz-$n-a.json" "$work/fuzz-$n-b.json"
	run_ud diff -f json -o "$work/fuzz-diff-$n.json" "$work/fuzz-$n-a.json" "$work/fuzz-$n-b.json"
	run_ud compare -f json -o "$work/fuzz-compare-$n.json" "$work/fuzz-$n-a.json" "$work/fuzz-$n-b.json"
done
[ "$n" -gt 0 ] || fail "no fuzz-accepted profiles in $data/fuzz-accepted"
check diff "$work"/fuzz-diff-*.json
check compare "$work"/fuzz-compare-*.json

# --- closed documents: a field the schema does not declare fails, and the message says where to declare it
# undeclared NAME FILE PATH_PY FIELD_WORDS PLACE: FILE with a field added at PATH_PY (a Python subscript) must fail
undeclared() {
	"$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); exec("d" + sys.argv[2] + "[\"surprise\"] = 1"); json.dump(d, open(sys.argv[3], "w"))' \
		"$2" "$3" "$work/undeclared.json"
	if "$py" "$src/tests/schemas.py" "$src/schemas" "$1" "$work/undeclared.json" >"$work/undeclared.out"; then
		fail "$1: a field added at $3 validated"
	elif ! grep -q "$4: Additional properties are not allowed ('surprise' was unexpected)" "$work/undeclared.out" ||
		! grep -q "under schemas/$5/properties" "$work/undeclared.out"; then
		cat "$work/undeclared.out"
		fail "$1: the failure for a field added at $3 does not name $4 and schemas/$5"
	fi
}
undeclared profile "$src/tests/golden/e5.json" '["workloads"][0]' 'workloads\[0\]' 'profile.schema.json #/$defs/workload'
undeclared profile "$src/tests/golden/e5.json" '["host"]["cpu"]' 'host.cpu' 'profile.schema.json #/$defs/cpu'
undeclared profile "$work/run-hot-a.json" '["workloads"][0]["noise"]' 'workloads\[0\].noise' 'profile.schema.json #/$defs/noise'
undeclared diff "$src/tests/golden/e5e6.diff.json" '["findings"][0]' 'findings\[0\]' 'diff.schema.json #/$defs/finding'
undeclared diff "$src/tests/golden/e5e6.diff.json" '["workloads"][0]["cpi_stack"]' 'workloads\[0\].cpi_stack' \
	'diff.schema.json #/$defs/workload/properties/cpi_stack'
undeclared compare "$work/compare-3.json" '["groups"][1]["diff"]["summary"]' 'groups\[1\].diff.summary' 'diff.schema.json #/$defs/summary'
undeclared teach "$work/teach.json" '["labs"][0]["effect"]' 'labs\[0\].effect' 'teach.schema.json #/$defs/lab/properties/effect'
undeclared events "$work/events-here.json" '["events"][0]' 'events\[0\]' 'events.schema.json #/$defs/event'
undeclared host "$work/host.json" '["cpufreq"]' 'cpufreq' 'profile.schema.json #/$defs/host/properties/cpufreq'

# --- doc/json.md's example, as written: the installed CLI of python3-jsonschema reads the schema on stdin
if ! "$ud" schema profile | "$py" -m jsonschema -i "$src/tests/golden/e5.json" -i "$src/tests/golden/e6.json" /dev/stdin ||
	! "$ud" schema diff | "$py" -m jsonschema -i "$src/tests/golden/e5e6.diff.json" /dev/stdin ||
	! "$ud" schema compare | "$py" -m jsonschema -i "$work/compare-3.json" /dev/stdin; then
	fail "doc/json.md's 'uarchdiff schema NAME | python3 -m jsonschema' validation fails"
fi

# --- every printed schema alone: saved to a folder of its own, no base URI, every $ref resolves inside it
# and it validates a real document of its kind (a stat-line schema: each line of -j's output)
mkdir "$work/alone"
for kind in profile:"$src/tests/golden/e5.json" diff:"$src/tests/golden/e5e6.diff.json" compare:"$work/compare-3.json" \
	teach:"$work/teach.json" host:"$work/host.json" events:"$work/events-here.json" stat-line:"$work/lines-r3.jsonl"; do
	name=${kind%%:*}
	"$ud" schema "$name" >"$work/alone/$name.json" || fail "uarchdiff schema $name failed"
	(cd "$work/alone" && "$py" - "$name.json" "${kind#*:}") <<'PY' || fail "uarchdiff schema $name does not validate alone"
import json, sys, warnings
from jsonschema import Draft202012Validator
warnings.simplefilter("ignore", DeprecationWarning)
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
def refs(j):
    if isinstance(j, dict):
        for k, v in j.items():
            if k == "$ref":
                yield v
            elif k not in ("const", "enum", "default", "examples"):
                yield from refs(v)
    elif isinstance(j, list):
        for v in j:
            yield from refs(v)
for r in refs(schema):
    assert r.startswith("#"), f"{sys.argv[1]}: $ref {r} points outside the printed schema"
    node = schema
    for part in r[1:].split("/")[1:]:
        node = node[part.replace("~1", "/").replace("~0", "~")]
v = Draft202012Validator(schema)
text = open(sys.argv[2]).read()
lines = [l for l in text.splitlines() if l.strip() and not l.startswith("# started on")]  # perf's header line
docs = [json.loads(l) for l in lines] if sys.argv[2].endswith(".jsonl") else [json.loads(text)]
for d in docs:
    v.validate(d)
PY
	if command -v check-jsonschema >/dev/null 2>&1; then
		case ${kind#*:} in *.jsonl) continue ;; esac
		check-jsonschema --schemafile "$work/alone/$name.json" "${kind#*:}" >"$work/out" 2>&1 ||
			{ cat "$work/out"; fail "check-jsonschema: uarchdiff schema $name does not validate alone"; }
	fi
done
command -v check-jsonschema >/dev/null 2>&1 ||
	echo "schemas: check-jsonschema not installed (pip install check-jsonschema): its part skipped, python3-jsonschema's ran"
if "$ud" schema profile | "$py" -m jsonschema -i "$work/undeclared.json" /dev/stdin 2>/dev/null; then
	fail "python3 -m jsonschema took a host document as a profile"
fi

# --- the documentation's JSON field lists name only fields the schemas declare
"$py" "$src/tests/schema_fields.py" "$src/schemas" "$src/README.md" "$src/doc/commands.md" "$src/doc/json.md" ||
	fail "the documentation names fields the schemas lack"

[ $status = 0 ] && echo "schemas: $checked documents valid"
exit $status
