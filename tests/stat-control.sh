#!/bin/bash
# tests/stat-control.sh UARCHDIFF TESTCHILD: perf stat's --control, -D -1 and
# -r 0 in `uarchdiff stat` (issue 34).
#
# What: the test child makes a known number of getpid() system calls, which
# the syscalls:sys_enter_getpid tracepoint counts exactly; it sends
# "disable" before 1000 of them and "enable" after, waiting for perf's
# acknowledgement ("ack\n" and its NUL) each time, so that the count is
# the same child's without --control less exactly 1000, whatever the load.
# Through descriptors (fd:) and FIFOs (fifo:), with -D -1 (counting starts
# at "enable"), one event by its name, and -D -1 with no enable (every
# counter <not counted>, as perf prints).  -r 0 runs a command that appends
# a line to a file each run until SIGINT, sent once three runs have left
# their line: the series ends after that run, each reported without user
# and sys times (perf's), with exit status 130.
#
# Exit 77 (skipped) where the tracepoint cannot be counted here.
set -u

[ $# -eq 2 ] || { echo "usage: $0 UARCHDIFF TESTCHILD" >&2; exit 2; }
ud=$1
child=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ud-stat-control.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
tp=syscalls:sys_enter_getpid

# The tracepoint's count in -x's rows, or what stands there (<not counted>, <not supported>).
count() { grep ",$tp," "$1" | cut -d, -f1; }

"$ud" stat -x, -e $tp -- "$child" control - - 1000 50 2>"$tmp/ref" ||
	{ cat "$tmp/ref"; fail "the reference run failed"; }
ref=$(count "$tmp/ref")
case $ref in
'' | *[!0-9]*) echo "skipped: $tp cannot be counted here: $(head -n 1 "$tmp/ref")"; exit 77 ;;
esac
want=$((ref - 1000))

mkfifo "$tmp/ctl" "$tmp/ack"
# read-write ends held here: nothing blocks on an open, and a FIFO has a reader for perf's write-only ack open
exec 5<>"$tmp/ctl" 6<>"$tmp/ack"

# expect NAME FILE STATUS WANTED: the run's exit status, and its count where WANTED is given
expect() {
	[ "$3" -eq 0 ] || { cat "$2"; fail "$1: exit $3"; return; }
	[ -z "${4:-}" ] || [ "$(count "$2")" = "$4" ] || { cat "$2"; fail "$1: counted $(count "$2"), not $4"; }
}

"$ud" stat -x, -e $tp --control fd:5,6 -- "$child" control 5 6 disable 1000 enable 50 2>"$tmp/fd"
expect "fd:" "$tmp/fd" $? $want
grep -qx "Events disabled" "$tmp/fd" && grep -qx "Events enabled" "$tmp/fd" || fail "fd: perf's messages missing"

"$ud" stat -x, -e $tp --control "fifo:$tmp/ctl,$tmp/ack" -- "$child" control "$tmp/ctl" "$tmp/ack" disable 1000 enable 50 2>"$tmp/fifo"
expect "fifo:" "$tmp/fifo" $? $want

"$ud" stat -x, -e $tp -D -1 --control fd:5,6 -- "$child" control 5 6 1000 enable 50 ping 2>"$tmp/delay"
expect "-D -1 then enable" "$tmp/delay" $? $want
grep -qx "Events disabled" "$tmp/delay" || fail "-D -1: no 'Events disabled'"

"$ud" stat -x, -e $tp,task-clock --control fd:5,6 -- \
	"$child" control 5 6 "disable $tp" 1000 "enable $tp" 50 "disable nosuch" 2>"$tmp/one"
expect "disable NAME" "$tmp/one" $? $want
grep -qx "Event $tp disabled" "$tmp/one" && grep -qx "failed: can't find 'nosuch' event" "$tmp/one" ||
	fail "disable NAME: perf's messages missing"

"$ud" stat -D -1 -e $tp,task-clock -- "$child" control - - 50 2>"$tmp/never"
expect "-D -1 alone" "$tmp/never" $?
[ "$(grep -c '<not counted>' "$tmp/never")" -eq 2 ] || { cat "$tmp/never"; fail "-D -1 alone: not every counter <not counted>"; }

# --interval-count's last interval, printed at a control switch (as perf's), ends a count of CPUs:
# it once waited on for nothing.  The command waits in the FIFO before stat starts; its ack is never
# read, so this comes after every run whose child awaits acks.
printf 'disable\n' >&5
timeout 60 "$ud" stat -x, -a -e task-clock -I 100 --interval-count 1 --control fd:5,6 2>"$tmp/count"
status=$?
[ $status -eq 0 ] && grep -qx "Events disabled" "$tmp/count" ||
	{ cat "$tmp/count"; fail "the last interval at a control switch: exit $status"; }

# -r 0: job control on, so that the background run's SIGINT is not ignored as a script's jobs' is
set -m
"$ud" stat -r 0 -e task-clock -- sh -c "echo run >> '$tmp/runs'" 2>"$tmp/forever" &
pid=$!
# (a run that ended, refusing -r 0, leaves no lines to wait for)
while kill -0 $pid 2>/dev/null && [ "$(cat "$tmp/runs" 2>/dev/null | wc -l)" -lt 3 ]; do sleep 0.1; done
kill -INT $pid
wait $pid
status=$?
set +m
runs=$(cat "$tmp/runs" 2>/dev/null | wc -l)
[ $status -eq 130 ] || fail "-r 0: exit $status after SIGINT, not 130"
[ "$(grep -c 'Performance counter stats' "$tmp/forever")" -eq "$runs" ] ||
	{ cat "$tmp/forever"; fail "-r 0: not one report for each of $runs runs"; }
! grep -q "seconds user" "$tmp/forever" || fail "-r 0: user and sys times printed (perf's -r 0 prints none)"

[ $fails -eq 0 ] && echo "ok: --control (fd:, fifo:, NAME), -D -1 and -r 0"
[ $fails -eq 0 ]
