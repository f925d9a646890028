#!/bin/bash
# tests/perf-options.sh UARCHDIFF [DOC]: every option `perf stat -h` lists has a
# row in DOC (doc/perf-stat-options.md), and `uarchdiff stat` does with it
# what the row says (issue 34).
#
# What: the options come from the installed perf's own help, so the table
# follows the perf on the machine.  It fails when an option perf lists has
# no row, when a row names one perf does not list (unless its long name is
# marked "(newer perf)" or it is "--no-X" for a listed --X, perf's negated
# form), when a row's verdict is not one of "same", "differs: <how>",
# "refused: <why>", or when uarchdiff disagrees with the verdict: each name
# of the row (short and long) is run as `UARCHDIFF stat <context> NAME
# [SAMPLE] true` (the samples and context below), and a same/differs option
# must exit 0, a refused one must exit nonzero with exactly one line that is
# not "unknown option".
#
# Why: uarchdiff stat claims perf stat's command line; this is the list of
# where that claim stops, kept true by the binary itself.  It checks that an
# option is parsed, not what it does: tests/perf-selftests.sh and
# tests/perf-parity.py judge the output.  Nothing is timed (the hang guard
# only stops a call that would never end).
#
# Exit 77 (skipped) without perf on PATH or when perf stat -h lists nothing.
set -u

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 UARCHDIFF [DOC]" >&2; exit 2; }
ud=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
doc=${2:-$(dirname "$0")/../doc/perf-stat-options.md}
command -v perf >/dev/null || { echo "SKIP: no perf on PATH (Debian: apt-get install linux-perf)"; exit 77; }

# A call that has not ended in this long never will: each runs `true`.
hang_guard_s=60

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ud-perf-options.XXXXXX")
sleep 1000 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
mkfifo "$tmp/ctl.fifo"

# How to give each option (by long name): @ is the option's name (short or
# long), %TMP% a private folder, %PID% a live process of ours; the options
# it needs beside it come with it.  An option that takes an argument must
# have a row here.
declare -A sample=(
	[all-cpus]='@'
	[no-aggr]='-a @'
	[cpu]='@ 0'
	[delay]='@ 1'
	[event]='@ task-clock'
	[cgroup]='-a -e task-clock @ /'
	[interval-print]='@ 100'
	[metrics]='@ TopdownL1'
	[output]='@ %TMP%/out.txt'
	[pid]='@ %PID%'
	[repeat]='@ 2'
	[tid]='@ %PID%'
	[field-separator]='@ ,'
	[append]='-o %TMP%/out.txt @'
	[control]='@ fifo:%TMP%/ctl.fifo'
	[cputype]='@ core'
	[filter]='-e sched:sched_switch @ prev_pid!=0'
	[for-each-cgroup]='-a @ /'
	[interval-clear]='-I 100 @'
	[interval-count]='-I 100 @ 1'
	[log-fd]='@ 2'
	[metric-no-group]='-M TopdownL1 @'
	[metric-no-merge]='-M TopdownL1 @'
	[no-csv-summary]='-x , -I 100 --summary @'
	[per-core]='-a @'
	[per-die]='-a @'
	[per-node]='-a @'
	[per-socket]='-a @'
	[per-thread]='-p %PID% @'
	[post]='@ true'
	[pre]='@ true'
	[summary]='-I 100 @'
	[table]='-r 2 @'
	[td-level]='--topdown @ 1'
	[timeout]='@ 100'
)

failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# perf's options, by long name: the short name ("-" for none) and the
# argument, from lines like "    -C, --cpu <cpu>   ..." and
# "        --iostat[=<default>]".
perf stat -h >"$tmp/help" 2>&1
declare -A perf_short=() perf_arg=()
option_re='^ {4}(-([[:alnum:]]), | {4})--([[:alnum:]-]+)(\[?=?<[^>]*>\]?| <[^>]*>)?'
while IFS= read -r line; do
	[[ $line =~ $option_re ]] || continue
	long=${BASH_REMATCH[3]}
	perf_short[$long]=${BASH_REMATCH[2]:+-${BASH_REMATCH[2]}}
	perf_short[$long]=${perf_short[$long]:--}
	perf_arg[$long]=${BASH_REMATCH[4]# }
done <"$tmp/help"
[ ${#perf_short[@]} -gt 0 ] || { echo "SKIP: perf stat -h listed no options:"; head -3 "$tmp/help"; exit 77; }

# The table, by long name without its dashes: "SHORT|VERDICT" (backticks
# and padding gone); newer[NAME] for those marked "(newer perf)".
declare -A doc_row=() newer=()
while IFS='|' read -r short long verdict; do
	name=${long#--}
	if [[ $name == *" (newer perf)" ]]; then
		name=${name% (newer perf)}
		newer[$name]=1
	fi
	doc_row[$name]="$short|$verdict"
done < <(awk -F'|' '/^\| *(`-|\|)/ && NF >= 6 {
		for (i = 2; i <= 5; i++) { gsub(/`/, "", $i); gsub(/^ +| +$/, "", $i) }
		print ($2 == "" ? "-" : $2) "|" $3 "|" $5 }' "$doc")
[ ${#doc_row[@]} -gt 0 ] || { fail "no option table in $doc"; exit 1; }

for long in $(printf '%s\n' "${!perf_short[@]}" | sort); do
	[ -n "${doc_row[$long]+x}" ] || fail "perf stat lists --$long; $doc has no row for it"
done

# Whether tracefs lists sched:sched_switch, which --filter's sample filters (CI's containers may not mount it).
have_sched_switch() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -r "$d/events/sched/sched_switch/id" ] && return 0
	done
	return 1
}

# Whether a cgroup hierarchy perf can count in is mounted (cgroup2, or v1's perf_event), which -G's and
# --for-each-cgroup's samples name.
have_cgroups() {
	grep -qE '^[^ ]+ [^ ]+ cgroup2 |^[^ ]+ [^ ]+ cgroup [^ ]*perf_event' /proc/mounts
}

# check NAME LONG VERDICT: one name of one row run as the verdict says.
check() {
	local name=$1 long=$2 verdict=$3 template words out rc lines
	template=${sample[$long]:-@}
	if [ "$long" = filter ] && ! have_sched_switch; then
		echo "skipped: --filter: tracefs lists no sched:sched_switch here"
		return
	fi
	if [[ $long == cgroup || $long == for-each-cgroup ]] && ! have_cgroups; then
		echo "skipped: --$long: no cgroup2 or perf_event cgroup hierarchy mounted here"
		return
	fi
	if [ "$template" = @ ] && [ -n "${perf_arg[$long]:-}" ] && [[ ${perf_arg[$long]} != \[* ]]; then
		fail "--$long takes an argument (${perf_arg[$long]}): add a sample to tests/perf-options.sh"
		return
	fi
	words=${template//@/$name}
	words=${words//%TMP%/$tmp}
	words=${words//%PID%/$pid}
	# shellcheck disable=SC2086 # the sample is words
	out=$(cd "$tmp" && timeout -k 5 "$hang_guard_s" "$ud" stat $words true </dev/null 2>&1)
	rc=$?
	lines=$(printf '%s' "$out" | grep -c .)
	case $verdict in
	same|differs:*)
		[ "$rc" = 0 ] || fail "$name ($verdict): uarchdiff stat $words true exits $rc: $(printf '%s\n' "$out" | grep -m1 .)" ;;
	refused:*)
		if [ "$rc" = 0 ]; then
			fail "$name (refused): uarchdiff stat $words true exits 0"
		elif [ "$lines" != 1 ]; then
			fail "$name (refused): uarchdiff stat $words true prints $lines lines, not one reason"
		elif grep -qi 'unknown option' <<<"$out"; then
			fail "$name (refused): uarchdiff says only: $out"
		fi ;;
	esac
}

for name in $(printf '%s\n' "${!doc_row[@]}" | sort); do
	short=${doc_row[$name]%%|*}
	verdict=${doc_row[$name]#*|}
	if [ -z "${perf_short[$name]+x}" ]; then
		if [ -n "${newer[$name]:-}" ]; then
			continue
		elif ! [[ $name == no-* && -n "${perf_short[${name#no-}]+x}" ]]; then
			fail "$doc lists --$name, which perf stat -h does not (mark it '(newer perf)' if a newer perf has it)"
			continue
		fi
	elif [ "$short" != "${perf_short[$name]}" ]; then
		fail "$doc gives --$name the short name '$short'; perf's is '${perf_short[$name]}'"
	fi
	if ! [[ $verdict =~ ^(same|differs:\ .+|refused:\ .+)$ ]]; then
		fail "--$name: '$verdict' is not same, 'differs: <how>' or 'refused: <why>'"
		continue
	fi
	[ "$short" != - ] && check "$short" "$name" "$verdict"
	check "--$name" "$name" "$verdict"
done

echo "perf stat options: ${#perf_short[@]} listed by perf, ${#doc_row[@]} rows in $(basename "$doc"), $failures failures"
[ "$failures" = 0 ]
