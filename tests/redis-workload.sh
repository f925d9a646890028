#!/bin/bash
# tests/redis-workload.sh UARCHDIFF: the redis workload (issue 40) runs a
# redis-server of its own on loopback and leaves nothing behind.
#
# What: `run -w redis -r 1` gives a positive score and positive SET and GET
# sub-scores; then no process whose command line names this test's private
# TMPDIR (the server's --dir is a folder under it) is left, and no
# uarchdiff-redis-* folder.  The same after a redis-benchmark that fails
# (a stand-in first on PATH that exits 1), and after a SIGINT sent once the
# second sample's server has started (run exits 1 and keeps its profile, marked
# incomplete).  A killed process may take a moment to go: leftovers are
# looked for until they go, for at most GONE_TRIES tenths of a second,
# which bounds the wait and asserts nothing about how long it took.
#
# Exit 77 (skipped) where redis-server or redis-benchmark is missing.
set -u

[ $# -eq 1 ] || { echo "usage: $0 UARCHDIFF" >&2; exit 2; }
ud=$1
for prog in redis-server redis-benchmark; do
	command -v $prog >/dev/null ||
		{ echo "skipped: $prog is missing (apt-get install redis-server redis-tools; dnf install redis)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ud-redis.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work" "$tmp/bin"
export TMPDIR=$tmp/work
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
GONE_TRIES=300

# Processes of this test's run: those naming $TMPDIR on their command line, and
# those working in a folder under it.  redis-server 7 rewrites its command line
# to "redis-server 127.0.0.1:PORT" (its proc title), so a server is found by
# its working directory, the --dir it was started with.
run_procs() {
	local p cwd
	pgrep -f "$TMPDIR/"
	for p in /proc/[0-9]*; do
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case $cwd in "$TMPDIR"/*) echo "${p#/proc/}" ;; esac
	done
}

# The pid of a redis-server of this test's run, if one runs (by its command
# line: Debian's redis-server is a link to redis-check-rdb, the name its comm shows).
run_server() {
	local p
	for p in $(pgrep -f '^redis-server'); do
		case $(readlink "/proc/$p/cwd" 2>/dev/null) in "$TMPDIR"/*) echo "$p"; return ;; esac
	done
}

# Nothing of a run left: no process naming $TMPDIR or working in it, no workload folder in it.
check_clean() {
	local i left
	for ((i = 0; i < GONE_TRIES; i++)); do
		[ -z "$(run_procs)" ] && break
		sleep 0.1
	done
	left=$(run_procs)
	[ -z "$left" ] || fail "$1: processes of the run still running: $(ps -o pid=,args= -p "$(echo $left | tr ' ' ,)")"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left in TMPDIR: $(ls -A "$TMPDIR")"
}

# The workload's score and the named sub-scores all positive in profile $1.
check_scores() {
	python3 - "$1" <<'EOF'
import json, sys
w = [w for w in json.load(open(sys.argv[1]))["workloads"] if w["name"] == "redis"][0]
assert w["outcome"] == "ok", w["outcome"]
assert w["score"]["median"] > 0, w["score"]
subs = {s["name"]: s["value"] for s in w.get("subscores", [])}
for name in ("SET", "GET", "SET latency p50", "GET latency p50"):
    assert subs.get(name, 0) > 0, (name, subs)
for name in ("client user", "client sys"):
    assert subs.get(name, -1) >= 0, (name, subs)
EOF
}

"$ud" run -w redis -r 1 -o "$tmp/p.json" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "run -w redis failed"; }
check_scores "$tmp/p.json" || fail "run -w redis: score or sub-scores not positive"
check_clean "a finished run"

# A benchmark that fails: the workload fails, the server and its folder go all the same.
printf '#!/bin/sh\necho "made-up failure" >&2\nexit 1\n' >"$tmp/bin/redis-benchmark"
chmod +x "$tmp/bin/redis-benchmark"
PATH=$tmp/bin:$PATH "$ud" run -w redis -r 1 -o "$tmp/f.json" >"$tmp/out" 2>&1 &&
	fail "run -w redis succeeded with a failing redis-benchmark"
grep -q "made-up failure" "$tmp/out" || { cat "$tmp/out"; fail "the benchmark's failure is not reported"; }
check_clean "a failed benchmark"

# SIGINT once a second server runs: run stops, keeps what it has, and leaves nothing.
"$ud" run -w redis -r 50 -o "$tmp/i.json" >"$tmp/out" 2>&1 &
pid=$!
# the second sample's server (another pid): by then one sample is measured and the profile has it to keep
first= seen=no
for ((i = 0; i < 1200; i++)); do
	server=$(run_server)
	[ -n "$server" ] && [ -z "$first" ] && first=$server
	[ -n "$server" ] && [ "$server" != "$first" ] && { seen=yes; break; }
	sleep 0.1
done
[ $seen = yes ] || { cat "$tmp/out"; fail "no second redis-server was seen running"; }
kill -INT $pid
wait $pid
status=$?
[ $status -eq 1 ] || { cat "$tmp/out"; fail "run after SIGINT exited $status, not 1"; }
grep -q '"incomplete": true' "$tmp/i.json" 2>/dev/null || fail "the interrupted profile is not marked incomplete"
check_clean "a SIGINT mid-run"

[ $fails -eq 0 ] && echo "ok: redis ran, scored and left nothing, finished, failed or interrupted"
exit $((fails > 0))
