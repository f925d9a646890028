#!/bin/bash
# tests/http-gateway-workload.sh UARCHDIFF: the http-gateway workload (issue
# 40) runs two nginx servers of its own on loopback (a gateway proxying to an
# upstream), loads the gateway with wrk, and leaves nothing behind.
#
# What: `run -w http-gateway -r 1` gives a positive score in requests/s,
# positive latency sub-scores (p50, p90, p99) and request count, the
# client's CPU time apart, and the gateway's own counters (task-clock,
# counted: software events, which every host has) and user and kernel
# times.  Then no process whose command line names this test's private
# TMPDIR (nginx's -p and wrk's script are under it) is left, and no folder.
# The same after a wrk that fails (a stand-in first on PATH that exits 1),
# and after a SIGINT sent once the second sample's gateway has started (run
# exits 1 and keeps its profile, marked incomplete).  A killed process may
# take a moment to go: leftovers are looked for until they go, for at most
# GONE_TRIES tenths of a second, which bounds the wait and asserts nothing
# about how long it took.
#
# Exit 77 (skipped) where nginx or wrk is missing.
set -u

[ $# -eq 1 ] || { echo "usage: $0 UARCHDIFF" >&2; exit 2; }
ud=$1
# nginx lives in sbin, which a user's PATH may lack; the workload looks there too
PATH=$PATH:/usr/sbin
for prog in nginx wrk; do
	command -v $prog >/dev/null ||
		{ echo "skipped: $prog is missing (apt-get install nginx-light wrk; dnf install nginx wrk)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ud-gateway.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work" "$tmp/bin"
export TMPDIR=$tmp/work
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
GONE_TRIES=300

# Nothing of a run left: no process naming $TMPDIR, no workload folder in it.
check_clean() {
	local i
	for ((i = 0; i < GONE_TRIES; i++)); do
		pgrep -f "$TMPDIR/" >/dev/null || break
		sleep 0.1
	done
	pgrep -af "$TMPDIR/" && fail "$1: a process naming $TMPDIR is still running"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left in TMPDIR: $(ls -A "$TMPDIR")"
}

# The score, latency sub-scores and the gateway's counters in profile $1.
check_scores() {
	python3 - "$1" <<'PY'
import json, sys
w = [w for w in json.load(open(sys.argv[1]))["workloads"] if w["name"] == "http-gateway"][0]
assert w["outcome"] == "ok", w["outcome"]
assert w["units"] == "requests/s", w["units"]
assert w["score"]["median"] > 0, w["score"]
subs = {s["name"]: s for s in w.get("subscores", [])}
for name in ("latency p50", "latency p90", "latency p99"):
    assert subs.get(name, {}).get("value", 0) > 0 and subs[name]["units"] == "ms", (name, subs)
assert subs["requests"]["value"] > 0, subs
for name in ("client user", "client sys", "socket errors"):
    assert subs.get(name, {}).get("value", -1) >= 0, (name, subs)
tc = w["counters"]["task-clock"]
assert tc["status"] == "counted" and tc["value"] > 0, tc
assert w["user_ns"] + w["sys_ns"] > 0, (w["user_ns"], w["sys_ns"])
assert w["binary"]["path"].endswith("nginx"), w.get("binary")
PY
}

"$ud" run -w http-gateway -r 1 -o "$tmp/p.json" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "run -w http-gateway failed"; }
check_scores "$tmp/p.json" || fail "run -w http-gateway: score, sub-scores or counters missing"
check_clean "a finished run"

# A load generator that fails: the workload fails, the servers and their folder go all the same.
printf '#!/bin/sh\necho "made-up failure" >&2\nexit 1\n' >"$tmp/bin/wrk"
chmod +x "$tmp/bin/wrk"
PATH=$tmp/bin:$PATH "$ud" run -w http-gateway -r 1 -o "$tmp/f.json" >"$tmp/out" 2>&1 &&
	fail "run -w http-gateway succeeded with a failing wrk"
grep -q "made-up failure" "$tmp/out" || { cat "$tmp/out"; fail "wrk's failure is not reported"; }
check_clean "a failed wrk"

# SIGINT once a second gateway runs: run stops, keeps what it has, and leaves nothing.
"$ud" run -w http-gateway -r 50 -o "$tmp/i.json" >"$tmp/out" 2>&1 &
pid=$!
# the second sample's gateway (another pid): by then one sample is measured and the profile has it to keep
first= seen=no
for ((i = 0; i < 1200; i++)); do
	gateway=$(pgrep -f "nginx.*$TMPDIR/.*gateway.conf" | head -n 1)
	[ -n "$gateway" ] && [ -z "$first" ] && first=$gateway
	[ -n "$gateway" ] && [ "$gateway" != "$first" ] && { seen=yes; break; }
	sleep 0.1
done
[ $seen = yes ] || { cat "$tmp/out"; fail "no second gateway nginx was seen running"; }
kill -INT $pid
wait $pid
status=$?
[ $status -eq 1 ] || { cat "$tmp/out"; fail "run after SIGINT exited $status, not 1"; }
grep -q '"incomplete": true' "$tmp/i.json" 2>/dev/null || fail "the interrupted profile is not marked incomplete"
check_clean "a SIGINT mid-run"

[ $fails -eq 0 ] && echo "ok: http-gateway ran, scored, counted the gateway and left nothing, finished, failed or interrupted"
exit $((fails > 0))
