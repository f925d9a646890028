#!/bin/bash
# tests/perf-selftests.sh UARCHDIFF: `uarchdiff stat` judged by perf's own
# stat tests (issue 34).
#
# What: Debian's linux-perf installs perf's shell tests
# (/usr/lib/perf-core/tests/shell/stat*.sh) and their JSON linter
# (lib/perf_json_output_lint.py).  Each stat*.sh runs twice in a private
# folder: once with the real perf, once with a `perf` first on PATH that sends
# `perf stat ...` (every stat subcommand too: `perf stat record`, `perf stat
# report`) to `UARCHDIFF stat ...` and anything else (perf list, perf bench,
# perf test -w) to the real perf.  A script is judged by its exit status in
# perf's own convention (0 pass, 2 skip, anything else fail) and by its
# subtests, the lines like "Checking CSV output: per thread [Success]" or
# "Basic stat command test [Failed]"; a subtest that starts but prints no
# verdict (a checker failed under `set -e`) failed, and one a run never
# reaches is "not reached" (not passed).  Then a linter matrix: an option
# matrix (matrix below) run by both tools with -j through perf's JSON linter
# and with -x, through perf's CSV field counter (commachecker, taken at run
# time from the installed stat+csv_output.sh so that it follows perf's
# version).  A cell passes for a tool when the tool exits 0, prints something
# and the checker accepts all of it.
#
# Why: perf's tests are the outside definition of "perf stat-compatible";
# they cannot be bent to suit uarchdiff.  The expected numbers (fields per
# line, keys and value types) are perf's, read from the installed files, not
# copied here; the linter flag for each matrix row is the one
# stat+json_output.sh and stat+csv_output.sh give the same aggregation.
#
# The test fails (exit 1) only where uarchdiff fails a script, subtest or
# cell that perf passes on this machine; what perf itself fails here (perf
# 6.1: -r's "variance" JSON key, which the linter does not
# know; --metric-only; -I --summary's unprefixed totals) is printed but not
# judged.  perf's failures are tried again (perf_tries): perf --per-thread -a
# races with processes that exit while it reads /proc.  Nothing is timed: no
# bound on any count or duration (the hang guard only stops a script that
# would never end).  Below the table, each uarchdiff call inside the scripts
# that exited 2 (usage, unknown event) with uarchdiff's reason: a pipeline
# can hide such a refusal from the script (stat+shadow_stat.sh greps the
# output of `perf stat --no-big-num ...` and passes on an empty one).  The
# last line is the figure, e.g. "perf selftests: perf passes 8/10 (2 skip),
# uarchdiff 5/10; subtests: perf 23/26, uarchdiff 10/26; linter cells: perf
# 41/46, uarchdiff 29/46".
#
# Exit 77 (skipped), saying why: no perf, no installed stat tests, no python3,
# or perf stat cannot count here (perf_event_paranoid, no rights).
# PERF_TESTS_DIR=DIR reads the tests from DIR; UD_KEEP=1 keeps the
# temporary folder (each run's log, the shim's call log) and says where.
set -u

skip() {
	echo "SKIP: $*"
	exit 77
}

[ $# -eq 1 ] || { echo "usage: $0 UARCHDIFF" >&2; exit 2; }
ud=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$ud" ] || { echo "FAIL: $1 is not an executable" >&2; exit 1; }

real_perf=$(command -v perf) || skip "no perf on PATH (Debian: apt-get install linux-perf)"
tests_dir=
for d in ${PERF_TESTS_DIR:-} /usr/lib/perf-core/tests/shell /usr/libexec/perf-core/tests/shell; do
	if compgen -G "$d/stat*.sh" >/dev/null; then
		tests_dir=$d
		break
	fi
done
[ -n "$tests_dir" ] || skip "no stat*.sh in /usr/lib/perf-core/tests/shell or /usr/libexec/perf-core/tests/shell (perf's shell tests are not installed)"
command -v python3 >/dev/null || skip "no python3: perf's JSON linter and its tests need it"
if ! why=$("$real_perf" stat -e task-clock true 2>&1 >/dev/null); then
	skip "perf stat -e task-clock true fails here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null), uid $(id -u)): $(printf '%s\n' "$why" | grep -m1 .)"
fi
json_lint=$tests_dir/lib/perf_json_output_lint.py

# A script that has not ended in this long never will: perf's stat tests take
# seconds (their longest waits are `sleep 1`).  Not a bound on speed.
hang_guard_s=300
# perf's failures are tried again, up to this many runs in all: perf
# --per-thread -a reads every thread in /proc and fails when one exits
# meanwhile ("Couldn't resolve comm name", "failed to parse CPUs map"), so a
# failure of perf can be the machine's other work; a pass in any try shows
# that perf passes it here, and uarchdiff is then held to it.
perf_tries=5
# The -I rows need a command that outlives a few 100 ms intervals.
interval_cmd="sleep 0.35"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ud-perf-selftests.XXXXXX")
target_pid=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -n "$target_pid" ] && kill "$target_pid" 2>/dev/null
	if [ -n "${UD_KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
cd "$tmp" || exit 1

# The shim: perf's global options (--no-pager, as stat_bpf_counters.sh uses)
# may come before the command.  Each uarchdiff call is logged with its exit
# status, so that what uarchdiff refused inside a pipeline whose status the
# script ignores can be named afterwards.
mkdir shim
cat >shim/perf <<EOF
#!/bin/bash
# perf with "perf stat ..." sent to uarchdiff stat (tests/perf-selftests.sh).
global=()
while [ \$# -gt 0 ]; do
	case \$1 in
	--no-pager|--paginate|-p|-P|--debug=*|--buildid-dir=*) global+=("\$1"); shift ;;
	*) break ;;
	esac
done
if [ "\${1-}" = stat ]; then
	shift
	$(printf '%q' "$ud") stat "\$@"
	rc=\$?
	printf '%s\t%s\n' "\$rc" "\$(printf '%q ' "\$@")" >>$(printf '%q' "$tmp/shim.log")
	exit \$rc
fi
exec $(printf '%q' "$real_perf") "\${global[@]}" "\$@"
EOF
chmod +x shim/perf

# The table: one row per script, subtest and cell.
rows=()
judged_fail=0
declare -A npass=() nitems=() nskip=()

# add KIND ITEM PERF UD UD_WHY PERF_WHY: a row.  uarchdiff not passing what
# perf passes fails the test; what perf fails here is shown, not judged.
add() {
	local kind=$1 item=$2 p=$3 u=$4
	nitems[$kind]=$((${nitems[$kind]:-0} + 1))
	[ "$p" = pass ] && npass[$kind.perf]=$((${npass[$kind.perf]:-0} + 1))
	[ "$u" = pass ] && npass[$kind.ud]=$((${npass[$kind.ud]:-0} + 1))
	[ "$p" = skip ] && nskip[$kind]=$((${nskip[$kind]:-0} + 1))
	rows+=("$(printf '%-62.62s %-12.12s %-12.12s' "$item" "$p" "$u")")
	if [ "$p" = pass ] && [ "$u" != pass ]; then
		judged_fail=1
		rows+=("    FAIL uarchdiff: ${5:0:240}")
	elif [ "$p" != pass ] && [ "$p" != skip ]; then
		rows+=("    not judged, perf: ${6:0:240}")
	fi
}

# script_status RC: perf's convention for a shell test's exit status.
script_status() {
	case $1 in
	0) echo pass ;;
	2) echo skip ;;
	124|137) echo hung ;;
	*) echo "fail($1)" ;;
	esac
}

# first_reason LOG RC: the line of a run that says most: uarchdiff's own
# complaint, a checker's, the last line printed, or the bare exit status.
first_reason() {
	grep -m1 -E 'uarchdiff stat:|wrong number of fields|Error|not printed|\[Failed' "$1" ||
		grep -v '^[[:space:]]*$' "$1" | tail -n 1 | grep . ||
		echo "exit $2, nothing printed"
}

# The subtests of one script, both runs side by side: one line
# "LABEL<TAB>PERF<TAB>UD<TAB>UD_WHY<TAB>PERF_WHY" each.  The labels come from the script
# itself: `echo -n "LABEL"` (a verdict follows on that line) and `echo
# "LABEL"` lines that have an `echo "LABEL [...]"` verdict; for the scripts
# that loop over perf list ("Testing $m"), the "Testing X" lines printed.
subtests() {
	python3 - "$@" <<'PY'
import re, sys

script, perf_log, perf_rc, ud_log, ud_rc = sys.argv[1:6]
src = open(script, errors='replace').read()
labels = []
for m in re.finditer(r'echo -n "([^"$\[]*?)\s*"', src):
    labels.append(m.group(1))
for m in re.finditer(r'^\s*echo "([^"$\[]*?)"\s*$', src, re.M):
    if f'echo "{m.group(1)} [' in src:
        labels.append(m.group(1))
labels = sorted(set(labels), key=lambda l: src.index(l))
dynamic = 'echo "Testing $' in src
VERDICT = re.compile(r'\[(Success|Failed[^\]]*|Skip[^\]]*)\]')

def lines_of(path):
    text = open(path, errors='replace').read()
    # echo -n leaves a label and whatever follows (a checker's complaint,
    # the next label) on one line: cut before every label.
    if labels:
        alt = '|'.join(map(re.escape, sorted(labels, key=len, reverse=True)))
        text = re.sub(r'(?<=[^\n])(?=' + alt + ')', '\n', text)
    return text.split('\n')

def judge(path, rc):
    out, order, start = {}, [], {}
    lines = lines_of(path)
    for i, line in enumerate(lines):
        label = max((l for l in labels if line.startswith(l)), key=len, default=None)
        if label is None and dynamic and line.startswith('Testing '):
            label = line
        if label is None:
            continue
        if label not in out:
            order.append(label)
            out[label] = []
            start[label] = i
        rest = line[len(label):].strip()
        m = VERDICT.match(rest)
        if m:
            word = m.group(1)
            status = 'pass' if word == 'Success' else 'skip' if word.startswith('Skip') else 'fail'
            if status == 'fail':
                # The tool's own complaint, printed since the subtest began.
                said = [l for l in lines[start.get(label, i):i] if 'uarchdiff stat:' in l]
                rest = ' '.join([rest] + said[:1])
            out[label].append((status, rest))
            continue
        after = [l for l in lines[i + 1:] if l.strip()]
        if label.startswith('Testing '):
            printed = any(re.search(r"'%s' not printed in" % re.escape(label[8:]), l) for l in lines)
            later = any(l.startswith('Testing ') for l in after)
            ok = not printed and (later or rc == '0')
            out[label].append(('pass' if ok else 'fail', rest or (after[0] if after else 'no output')))
        else:
            out[label].append(('no-verdict', rest or (after[0] if after else 'no output')))
    result = {}
    for label, seen in out.items():
        verdicts = [s for s in seen if s[0] != 'no-verdict']
        if not verdicts:
            result[label] = ('fail', seen[0][1])
            continue
        for status in ('fail', 'skip', 'pass'):
            hit = [s for s in verdicts if s[0] == status]
            if hit:
                result[label] = hit[0]
                break
    return result, order

perf, porder = judge(perf_log, perf_rc)
ud, uorder = judge(ud_log, ud_rc)
unreached = ('not reached', 'the script stopped before it')
for label in dict.fromkeys([l for l in labels if l in perf or l in ud] + porder + uorder):
    p, u = perf.get(label, unreached), ud.get(label, unreached)
    print('\t'.join([label, p[0], u[0], ' '.join(u[1].split()), ' '.join(p[1].split())]))
PY
}

# run_script SCRIPT TOOL: the script in its own folder, perf's shim first on
# PATH for uarchdiff; the log holds stdout and stderr merged, as perf test -v
# shows them.
run_script() {
	local script=$1 tool=$2 name dir path=$PATH
	name=$(basename "$script" .sh)
	dir=$tmp/$tool/$name
	mkdir -p "$dir"
	[ "$tool" = uarchdiff ] && path=$tmp/shim:$PATH
	(cd "$dir" && PATH=$path timeout -k 10 "$hang_guard_s" "$script" </dev/null >"$dir.log" 2>&1)
	echo $?
}

# refusals NAME: the uarchdiff calls of one script that exited 2 (usage, an
# unknown event, a command that cannot run), each with uarchdiff's reason,
# got again by the same call: exit 2 happens before anything runs.
refusals() {
	local rc args reason
	while IFS=$'\t' read -r rc args; do
		[ "$rc" = 2 ] || continue
		reason=$(eval "\"\$ud\" stat $args" </dev/null 2>&1 >/dev/null | grep -m1 .)
		printf '    uarchdiff refused: stat %s-> %s\n' "${args:0:90}" "$reason"
	done <"$1" | sort -u
}

notes=()
for script in "$tests_dir"/stat*.sh; do
	name=$(basename "$script" .sh)
	for _ in $(seq "$perf_tries"); do
		prc=$(run_script "$script" perf)
		[ "$(script_status "$prc")" = pass ] || [ "$prc" = 2 ] && break
	done
	: >"$tmp/shim.log"
	urc=$(run_script "$script" uarchdiff)
	mv "$tmp/shim.log" "$tmp/uarchdiff/$name.calls"
	plog=$tmp/perf/$name.log
	ulog=$tmp/uarchdiff/$name.log
	add script "$name.sh" "$(script_status "$prc")" "$(script_status "$urc")" \
		"$(first_reason "$ulog" "$urc")" "$(first_reason "$plog" "$prc")"
	while IFS=$'\t' read -r label p u uwhy pwhy; do
		add subtest "  $label" "$p" "$u" "$uwhy" "$pwhy"
	done < <(subtests "$script" "$plog" "$prc" "$ulog" "$urc")
	mapfile -t refused < <(refusals "$tmp/uarchdiff/$name.calls")
	[ ${#refused[@]} -gt 0 ] && notes+=("$name.sh:" "${refused[@]}")
done

# The linter matrix.  Each row: perf stat options|the linter flag that
# stat+json_output.sh and stat+csv_output.sh give that aggregation (empty:
# none, the linter then checks keys and values only)|the command counted.
# %PID% is a live process of ours (a sleep).
matrix=(
	"|--no-args|true"
	"-e task-clock,page-faults|--event|true"
	"-e cpu-clock|--event|true"
	"-d|--no-args|true"
	"-r 2|--no-args|true"
	"--no-merge|--no-args|true"
	"--metric-only||true"
	"-a|--system-wide|true"
	"-C 0|--system-wide|true"
	"-A -a|--system-wide-no-aggr|true"
	"-A -a --no-merge|--system-wide-no-aggr|true"
	"-C 0 -A|--system-wide-no-aggr|true"
	"--per-core -a|--per-core|true"
	"--per-socket -a|--per-socket|true"
	"--per-die -a|--per-die|true"
	"--per-node -a|--per-node|true"
	"--per-thread -a|--per-thread|true"
	"--per-thread -p %PID%|--per-thread|$interval_cmd"
	"--per-thread -t %PID%|--per-thread|$interval_cmd"
	"-p %PID%|--no-args|$interval_cmd"
	"-I 100|--interval|$interval_cmd"
	"--interval-count 2 -I 100|--interval|$interval_cmd"
	"-I 100 --summary|--interval|$interval_cmd"
)

# commachecker, perf's CSV field counter, read out of the installed
# stat+csv_output.sh (it exits 1 on the first line with the wrong count).
commachecker_src=$(sed -n '/^function commachecker()/,/^}/p' "$tests_dir/stat+csv_output.sh" 2>/dev/null)
if [ -n "$commachecker_src" ]; then
	eval "$commachecker_src"
else
	notes+=("CSV cells not run: no commachecker function in $tests_dir/stat+csv_output.sh")
fi

# run_cell TOOL FORMAT OPTIONS CMD BASE: one tool's output in BASE.out, its
# exit status in BASE.rc; stdout and stderr merged, as the scripts merge them.
run_cell() {
	local bin=$real_perf
	[ "$1" = uarchdiff ] && bin=$ud
	# shellcheck disable=SC2086 # the options and the command are words
	"$bin" stat "$2" $3 $4 </dev/null >"$5.out" 2>&1
	echo $? >"$5.rc"
}

# lint_cells BASE...: each cell's verdict into verdict[BASE], "pass" or
# "fail: why" (BASE.fmt holds -j or -x,, BASE.flag the linter flag).  The
# JSON linter runs for all of them in one python3, by runpy, its own code
# fresh each time: a python3 start takes a second on a busy machine, and
# there are dozens of cells.
declare -A verdict=()
lint_cells() {
	local base b v flag json=()
	for base in "$@"; do
		flag=$(cat "$base.flag")
		# shellcheck disable=SC2086 # no flag is no argument
		if [ "$(cat "$base.rc")" != 0 ]; then
			verdict[$base]="fail: exit $(cat "$base.rc"): $(grep -m1 . "$base.out")"
		elif ! grep -q . "$base.out"; then
			verdict[$base]="fail: printed nothing"
		elif [ "$(cat "$base.fmt")" = -j ]; then
			json+=("$base")
		elif (set +u && commachecker $flag <"$base.out") >"$base.why" 2>&1; then
			verdict[$base]=pass
		else
			verdict[$base]="fail: $(tail -n 1 "$base.why")"
		fi
	done
	[ ${#json[@]} -gt 0 ] || return 0
	while IFS=$'\t' read -r b v; do
		verdict[$b]=$v
	done < <(printf '%s\n' "${json[@]}" | python3 -c '
import contextlib, io, runpy, sys
lint = sys.argv[1]
for base in sys.stdin.read().split():
    sys.argv = [lint] + open(base + ".flag").read().split()
    try:
        with open(base + ".out") as sys.stdin, contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(lint, run_name="__main__")
        v = "pass"
    except SystemExit as e:
        v = "fail: linter exit %s" % e.code if e.code else "pass"
    except Exception as e:
        v = "fail: %s: %s" % (type(e).__name__, " ".join(str(e).split()))
    print(base + "\t" + v)
' "$json_lint")
}

sleep 1000 &
target_pid=$!
mkdir cells
cells=()
for row in "${matrix[@]}"; do
	IFS='|' read -r opts flag cmd <<<"$row"
	opts=${opts//%PID%/$target_pid}
	for format in -j "-x,"; do
		[ "$format" = -x, ] && [ -z "$commachecker_src" ] && continue
		c=cells/${#cells[@]}
		cells+=("$c")
		printf '%s\n' "stat $format $opts${flag:+ (lint $flag)}" >"$c.name"
		for tool in perf uarchdiff; do
			printf '%s\n' "$format" >"$c.$tool.fmt"
			printf '%s\n' "$flag" >"$c.$tool.flag"
			run_cell "$tool" "$format" "$opts" "$cmd" "$c.$tool"
		done
		printf '%s\n' "$format" "$opts" "$cmd" >"$c.args"
	done
done
all=()
for c in "${cells[@]}"; do all+=("$c.perf" "$c.uarchdiff"); done
lint_cells "${all[@]}"

# perf's failures tried again (see perf_tries).
for _ in $(seq 2 "$perf_tries"); do
	again=()
	for c in "${cells[@]}"; do
		[ "${verdict[$c.perf]}" = pass ] && continue
		{ read -r format; read -r opts; read -r cmd; } <"$c.args"
		run_cell perf "$format" "$opts" "$cmd" "$c.perf"
		again+=("$c.perf")
	done
	[ ${#again[@]} -gt 0 ] && lint_cells "${again[@]}"
done

for c in "${cells[@]}"; do
	p=${verdict[$c.perf]} u=${verdict[$c.uarchdiff]}
	add cell "$(cat "$c.name")" "${p%%:*}" "${u%%:*}" "${u#fail: }" "${p#fail: }"
done

printf '%-62s %-12s %-12s\n' "script / subtest / linter cell" perf uarchdiff
printf '%s\n' "${rows[@]}"
if [ ${#notes[@]} -gt 0 ]; then
	echo
	echo "Refusals inside the scripts (their status may be hidden by a pipeline):"
	printf '%s\n' "${notes[@]}"
fi
echo
printf 'perf selftests: perf passes %d/%d (%d skip), uarchdiff %d/%d; subtests: perf %d/%d, uarchdiff %d/%d; linter cells: perf %d/%d, uarchdiff %d/%d\n' \
	"${npass[script.perf]:-0}" "${nitems[script]:-0}" "${nskip[script]:-0}" "${npass[script.ud]:-0}" "${nitems[script]:-0}" \
	"${npass[subtest.perf]:-0}" "${nitems[subtest]:-0}" "${npass[subtest.ud]:-0}" "${nitems[subtest]:-0}" \
	"${npass[cell.perf]:-0}" "${nitems[cell]:-0}" "${npass[cell.ud]:-0}" "${nitems[cell]:-0}"
exit $judged_fail
