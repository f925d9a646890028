#!/bin/bash
# The bad-input matrix: every row of cases.tsv is one hostile or careless
# input that uarchdiff must refuse cleanly: exit status 2, exactly one line
# on stderr containing the expected text, nothing on stdout, nothing written
# where -o points, no temporary file or uarchdiff-* directory left behind.
# `stat` exits as perf does instead (error.h): 129 for bad usage, 255 for a
# command it cannot start or an output it cannot create.
#
# usage: run.sh UARCHDIFF [CASES.tsv]     (UD_SHOW=1: print what each case did)
#
# cases.tsv, tab-separated, '#' comments:
#   name    env (VAR=value ..., or -)    arguments after 'uarchdiff'    expected stderr text    [exit status, 2 if none]
# In env and arguments: @F is tests/bad-inputs/files, @G tests/golden (two
# good profiles), @O the output path each case may write (it must not), @T
# a private scratch directory.  Arguments are shell words (quote "" for an
# empty argument).  Each case runs in an empty directory with TMPDIR private
# and stdin /dev/null, under a 30 s limit.
set -u
ud=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cases=${2:-$here/cases.tsv}
golden=$(cd "$here/../golden" && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT

expand() {
	local s=$1
	s=${s//@F/$here/files}
	s=${s//@G/$golden}
	s=${s//@O/$scratch/out/result}
	s=${s//@T/$scratch/t}
	printf '%s' "$s"
}

n=0 failed=0
declare -A seen
while IFS=$'\t' read -r name env args want status; do
	[[ -z $name || $name == \#* ]] && continue
	n=$((n + 1))
	if [[ -n ${seen[$name]:-} ]]; then
		echo "FAIL $name: the name is used twice in $cases"
		failed=$((failed + 1))
		continue
	fi
	seen[$name]=1
	scratch=$work/$n
	mkdir -p "$scratch/out" "$scratch/tmp" "$scratch/t"
	eval "argv=($(expand "$args"))"
	envs=()
	[[ $env != - ]] && eval "envs=($(expand "$env"))"
	(cd "$scratch/out" && env TMPDIR="$scratch/tmp" "${envs[@]}" timeout 30 "$ud" "${argv[@]}" \
		>"$scratch/stdout" 2>"$scratch/stderr" </dev/null)
	rc=$?
	if [[ -n ${UD_SHOW:-} ]]; then
		printf '%s\trc=%d\t%s\n' "$name" "$rc" "$(tr '\n' '|' <"$scratch/stderr")"
	fi
	why=
	lines=$(wc -l <"$scratch/stderr")
	status=${status:-2}
	[[ $rc -ne $status ]] && why+=" exit $rc, want $status;"
	[[ $lines -ne 1 ]] && why+=" $lines lines on stderr, want 1;"
	grep -qF -- "$want" "$scratch/stderr" || why+=" stderr lacks '$want';"
	[[ -s $scratch/stdout ]] && why+=" wrote on stdout;"
	left=$(ls -A "$scratch/out" "$scratch/tmp" | grep -v -e '^$' -e ':$')
	[[ -n $left ]] && why+=" left behind: $(echo $left);"
	if [[ -n $why ]]; then
		echo "FAIL $name:$why stderr: $(head -c 300 "$scratch/stderr")"
		failed=$((failed + 1))
	fi
done <"$cases"
echo "bad inputs: $n cases, $failed failed"
[[ $n -gt 0 && $failed -eq 0 ]]
