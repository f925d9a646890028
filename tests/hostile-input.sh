#!/bin/sh
# Issue 12, the input side: every reproducer that crashed, hung, blew up or
# printed nonsense, run as a user would.  A refusal must exit 2 with one line
# on stderr naming the path and what is wrong, print nothing on stdout, and
# leave the output folder empty (no profile, no report, no .XXXXXX temp
# file).  Every command runs under a timeout: a FIFO or a device that blocks
# fails the test instead of hanging it.
#
#   hostile-input.sh UARCHDIFF REPO_DIR
set -u
ud=$(realpath "$1") repo=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
# A refusal takes well under a second; a hang is caught long before ctest's limit.
limit=20

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# refused NAME MESSAGE COMMAND...: exit 2, one line holding MESSAGE, nothing on stdout, out/ left empty.
refused() {
	name=$1 want=$2
	shift 2
	rm -rf out && mkdir out
	timeout "$limit" "$@" >stdout 2>stderr
	rc=$?
	[ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2 ($(head -c 300 stderr))"
	[ "$(wc -l <stderr)" -eq 1 ] || fail "$name: want one line on stderr, got: $(head -c 500 stderr)"
	grep -qF -- "$want" stderr || fail "$name: '$(cat stderr)' lacks '$want'"
	[ ! -s stdout ] || fail "$name: wrote to stdout: $(head -c 200 stdout)"
	[ -z "$(ls -A out)" ] || fail "$name: left in the output folder: $(ls -A out)"
}

# works NAME COMMAND...: exit 0 within the limit (a FIFO among the data files must not block it).
works() {
	name=$1
	shift
	timeout "$limit" "$@" >stdout 2>stderr
	rc=$?
	[ "$rc" -eq 0 ] || fail "$name: exit $rc, want 0 ($(head -c 300 stderr))"
}

# no_nonsense NAME FILE: no nan, inf or (null) in what was printed.
no_nonsense() {
	if grep -Eqw -- '-?nan|-?inf|infx' "$2" || grep -qF '(null)' "$2"; then
		fail "$1: printed $(grep -Ew -- '-?nan|-?inf|infx|\(null\)' "$2" | head -2)"
	fi
}

profile() { # FILE LABEL SCORE COUNTERS [EXTRA workload fields]
	printf '{"schema": "uarchdiff.profile/1", "host": {"label": "%s"}, "workloads": [{"name": "w", "units": "lps", "higher_is_better": true, "score": {"median": %s, "samples": [%s]}%s, "counters": {%s}}]}\n' \
		"$2" "$3" "$3" "${5:-}" "$4" >"$1"
}
cycles='"cycles": {"status": "counted", "value": 3000000000}, "instructions": {"status": "counted", "value": 6000000000}'
profile a.json A 1000 "$cycles"
profile b.json B 2000 "$cycles"
paste="$repo/tests/data/perf-stat/oci-e5-genoa-fstime.txt"

# ---- 1. crashes: templates, events ----
mkdir deep
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "{{#x}}"; for (i = 0; i < 40000; i++) printf "{{/x}}"; print "" }' \
	>deep/report.txt
refused "template nested 40,000 deep" "deep/report.txt:1: sections nested more than 32 deep" \
	env UARCHDIFF_TEMPLATES_DIR="$work/deep" "$ud" diff -o out/r.txt a.json b.json
mkdir -p dirt/report.txt
refused "template that is a directory" "report.txt: a directory, not a template" \
	env UARCHDIFF_TEMPLATES_DIR="$work/dirt" "$ud" diff -o out/r.txt a.json b.json
mkdir fifot && mkfifo fifot/report.md
refused "template that is a FIFO" "report.md: a FIFO, not a template" \
	env UARCHDIFF_TEMPLATES_DIR="$work/fifot" "$ud" diff -f md -o out/r.md a.json b.json
mkdir noevents
refused "empty events folder" "noevents: no \"generic\" table" \
	env UARCHDIFF_EVENTS_DIR="$work/noevents" "$ud" events

# ---- 3. special files where a file is expected ----
refused "--cpuinfo /dev/urandom" "/dev/urandom: a character device, not a cpuinfo file" \
	"$ud" import --cpuinfo /dev/urandom -o out/p.json "$paste"
refused "--cpuinfo /dev/zero" "/dev/zero: a character device, not a cpuinfo file" \
	"$ud" import --cpuinfo /dev/zero -o out/p.json "$paste"
refused "events --cpuinfo /dev/zero" "/dev/zero: a character device, not a cpuinfo file" \
	"$ud" events --cpuinfo /dev/zero
refused "import of /dev/zero" "/dev/zero: a character device, not a file to import" \
	"$ud" import -o out/p.json /dev/zero
refused "diff of /dev/zero" "/dev/zero: a character device, not a profile" "$ud" diff -o out/r.txt /dev/zero b.json
refused "diff of a directory" "out: a directory, not a profile" "$ud" diff a.json out
mkfifo pipe.txt
refused "import of a FIFO" "pipe.txt: a FIFO, not a file to import" "$ud" import -o out/p.json pipe.txt
truncate -s 1G sparse.txt
refused "1 GB sparse import" "sparse.txt:1: byte 0x00: binary data, not perf stat output" \
	"$ud" import -o out/p.json sparse.txt
printf 'uarch x\n' >big-spec.spec
head -c 70000 /dev/zero | tr '\0' '#' >>big-spec.spec
mkdir bigspec && mv big-spec.spec bigspec/
refused "spec over its cap" "big-spec.spec: larger than the 64 KiB limit for a spec file" \
	env UARCHDIFF_WORKLOADS_DIR="$work/bigspec" "$ud" workloads
# Directory scans skip what is not a regular file, and do not block on it.
mkdir ev wl
cp "$repo/events/generic" ev/
mkfifo ev/zen9 wl/fifo.spec
ln -s /dev/zero ev/zen8
ln -s /dev/zero wl/zero.spec
mkdir wl/dir.spec
works "a FIFO and a device among the event tables" env UARCHDIFF_EVENTS_DIR="$work/ev" "$ud" events \
	--cpuinfo "$repo/tests/data/cpuinfo/kvm-amd-epyc-family25-model17.txt"
works "a FIFO, a device and a folder named *.spec" env UARCHDIFF_WORKLOADS_DIR="$work/wl" "$ud" workloads

# ---- 9. nonsense printed ----
profile sa.json A 1e-300 "$cycles"
profile sb.json B 1e300 "$cycles"
refused "scores 1e-300 vs 1e300" "workload 'w': scores 1e-300 in sa.json and 1e+300 in sb.json are too far apart" \
	"$ud" diff -o out/r.txt sa.json sb.json
# The kernel's share known on one side only (no sys_ns on B): "n/a", not "nan%".
profile ka.json A 1000 "" ', "elapsed_ns": 1000000000, "user_ns": 100000000, "sys_ns": 100000000'
profile kb.json B 500000 "" ', "elapsed_ns": 1000000000, "user_ns": 1000000000, "sys_ns": null'
for f in text json md html; do
	"$ud" diff -f "$f" ka.json kb.json >"kernel.$f" 2>&1 || fail "share on one side, $f: exit $?"
	no_nonsense "share on one side, $f" "kernel.$f"
done
grep -qF 'w: 50% -> n/a of CPU time in the kernel' kernel.text || fail "share on one side: no 'n/a' line"
# Host facts that are numbers: their number, never (null) nor "unknown"; a fact of the wrong type is
# refused at load by name (the typed host's reader, as every workload field is), not shown as JSON text.
ha='"cpu": {"family": 25.0}, "kernel": "6.1", "vulnerabilities": {"retbleed": "Vulnerable"}'
hb='"cpu": {"family": 26}, "kernel": "6.2", "vulnerabilities": {"retbleed": "Not affected"}'
sed "s/\"label\": \"A\"}/\"label\": \"A\", $ha}/" a.json >ha.json
sed "s/\"label\": \"B\"}/\"label\": \"B\", $hb}/" b.json >hb.json
"$ud" diff ha.json hb.json >host.txt 2>&1 || fail "numeric host facts: exit $?"
no_nonsense "numeric host facts" host.txt
grep -A2 -F 'cpu.family' host.txt | tr -s ' \n' ' ' | grep -qF 'cpu.family A: 25 B: 26' ||
	fail "numeric host facts: no 'cpu.family' with A: 25, B: 26"
grep -qF 'vulnerabilities.retbleed: Vulnerable | Not affected' host.txt || fail "numeric host facts: no retbleed"
sed 's/"label": "A"}/"label": "A", "kernel": 6.1, "vulnerabilities": {"retbleed": true}}/' a.json >hn.json
refused "a number for the kernel" "hn.json: host.kernel: expected a string or null" \
	"$ud" diff -o out/r.txt hn.json hb.json
# A 1,200-byte workload name: the explanation is whole, to its last sentence.
long=$(awk 'BEGIN { for (i = 0; i < 100; i++) printf "verylongword" }')
sed "s/\"name\": \"w\"/\"name\": \"$long\"/" a.json >la.json
sed "s/\"name\": \"w\"/\"name\": \"$long\"/" b.json >lb.json
"$ud" diff -f json la.json lb.json >long.json || fail "long name: exit $?"
python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))["workloads"][0]["explanation"]
sys.exit(0 if e.endswith(".") and sys.argv[2] + " is" in e else 1)' long.json "B" ||
	fail "long name: explanation cut: $(grep -o '"explanation": .\{0,40\}' long.json)"

# ---- 10. values no measurement can have ----
mkdir -p neg
sed 's/"value": 3000000000}/"value": -5}/' a.json >neg/a.json
refused "negative count" "neg/a.json: workloads[0].counters.cycles.value: a count cannot be negative" \
	"$ud" diff -o out/r.txt neg/a.json b.json
sed 's/"value": 3000000000}/"value": 5, "enabled_ns": 10, "running_ns": 20}/' a.json >neg/run.json
refused "running > enabled" "neg/run.json: workloads[0].counters.cycles.running_ns: cannot be negative nor exceed enabled_ns" \
	"$ud" diff -o out/r.txt neg/run.json b.json
sed 's/"value": 3000000000}/"value": 5, "running_pct": 150}/' a.json >neg/pct.json
refused "running share 150%" "neg/pct.json: workloads[0].counters.cycles.running_pct: a share must be within 0..100" \
	"$ud" diff -o out/r.txt neg/pct.json b.json
refused "import --score inf" "--score needs a positive number or a list of them, V1,V2,...[:UNITS], not 'inf'" \
	"$ud" import --score inf -o out/p.json "$paste"
printf '{"counter-value" : "5.000000", "unit" : "", "event" : "cycles", "event-runtime" : 1000, "pcnt-running" : 150.00}\n' >pct.json
refused "perf -j share 150%" "pct.json:1: pcnt-running: running share 150%: a share must be within 0..100" \
	"$ud" import -o out/p.json pct.json
printf -- '-5,,cycles,1000,100.00,,\n' >neg.csv
refused "perf -x negative count" "neg.csv:1: '-5': a count cannot be negative" "$ud" import -o out/p.json neg.csv
printf -- '5,,cycles,1000,150.00,,\n' >pct.csv
refused "perf -x share 150%" "pct.csv:1: running share 150%: a share must be within 0..100" \
	"$ud" import -o out/p.json pct.csv
# A spec whose program scores 0 or -5: that workload fails with the reason, not "ok".
mkdir specs
for s in 0 -5; do
	printf 'name = s%s\ncommand = echo score %s\nscore = ^score (-?[0-9.]+)$\nunits = ops\n' "${s#-}" "$s" \
		>"specs/s${s#-}.spec"
done
timeout "$limit" env UARCHDIFF_WORKLOADS_DIR="$work/specs" "$ud" run -w s0,s5 -o run.json >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "spec scores 0 and -5: exit $rc, want 1 (every workload failed)"
for s in 0 5; do
	grep -qF "failed: s$s: its output gives the score ${s#5}" run.json 2>/dev/null ||
		grep -qF "failed: s$s: its output gives the score -5" run.json 2>/dev/null ||
		fail "spec score: s$s not recorded as failed with the reason"
done

# ---- issue 25: names twice, a bad host among good ones ----
# 100,000 workloads, the last named as the first: refused by name, in well under the limit (names are
# hashed; comparing every pair would take 5 billion string comparisons).
awk 'BEGIN { printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"A\"}, \"workloads\": ["
	for (i = 0; i < 100000; i++)
		printf "%s{\"name\": \"w%d\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": 1}}", i ? "," : "", i
	printf ",{\"name\": \"w0\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": 2}}]}\n" }' >many.json
refused "100,000 workloads, one twice" "many.json: workloads[100000].name: the workload 'w0' is workloads[0] too" \
	"$ud" diff -o out/r.txt many.json b.json
# A fleet with one profile cut short, left out by name, and one of another workload, a group of its own
# that shares nothing to compare (said so), the rest compared.
head -c 100 b.json >cut.json
sed 's/"name": "w"/"name": "other"/' b.json >other.json
rm -rf out && mkdir out
timeout "$limit" "$ud" compare -o out/c.txt a.json cut.json b.json other.json >stdout 2>stderr
rc=$?
[ "$rc" -eq 0 ] || fail "fleet with bad hosts: exit $rc, want 0 ($(head -c 300 stderr))"
[ "$(grep -c 'warning: .* left out: ' stderr)" -eq 1 ] || fail "fleet with bad hosts: stderr: $(cat stderr)"
grep -q 'left out: cut.json' out/c.txt || fail "fleet with bad hosts: the report does not name cut.json left out"
grep -q '(other.json)' out/c.txt && grep -q 'not compared: no workload in common' out/c.txt ||
	fail "fleet with bad hosts: the report does not say other.json shares no workload: $(cat out/c.txt)"

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "hostile input: all refused cleanly"
