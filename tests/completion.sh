#!/bin/bash
# tests/completion.sh UARCHDIFF COMPLETION_FILE: the bash completion loads in
# a plain bash (no bash-completion package needed) and completes commands,
# options and their values.
#
# Each case is "expected words | the command line, the last word being
# completed": the completion must offer exactly the expected words, or with
# a leading '~', at least them.
set -u
bin=$1
file=$2
fail=0

# shellcheck source=/dev/null
source "$file" || { echo "FAIL: $file does not load"; exit 1; }
[[ $(complete -p uarchdiff 2>/dev/null) == *_uarchdiff* ]] || { echo "FAIL: no completion registered for uarchdiff"; exit 1; }

check() {
	local want=$1 line=$2 got
	read -r -a COMP_WORDS <<<"$line"
	[[ $line == *' ' ]] && COMP_WORDS+=("")
	COMP_WORDS[0]=$bin
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_uarchdiff 2>/dev/null
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
	if [[ $want == '~'* ]]; then
		local w
		for w in ${want#\~}; do
			[[ " $got " == *" $w "* ]] || { echo "FAIL: '$line<TAB>': no '$w' in: $got"; fail=1; }
		done
	elif [[ $got != "$want" ]]; then
		echo "FAIL: '$line<TAB>': got '$got', want '$want'"
		fail=1
	fi
}

check "diff"                          "uarchdiff d"
check "~run stat import diff compare events host workloads teach schema" "uarchdiff "
check "--help --version"              "uarchdiff --"
check "--repeat"                      "uarchdiff run --rep"
check "~-w --workloads --suite -r --repeat -o --output --label --exact --json" "uarchdiff run -"
check "~--field-separator --json --event --exact --all-cpus --pid --per-thread --profile" "uarchdiff stat --"
check "duration_time"                 "uarchdiff stat -e dur"
check "task-clock,dTLB-load-misses task-clock,dTLB-loads" "uarchdiff stat -e task-clock,dTLB-lo"
check "~1"                            "uarchdiff stat -p "
check "~0"                            "uarchdiff stat -C "
check ""                              "uarchdiff stat -I "
check ""                              "uarchdiff stat --timeout "
check "--format"                      "uarchdiff diff --f"
check "html"                          "uarchdiff diff -f h"
check "md"                            "uarchdiff compare --format m"
check "~--group-by --baseline --all-hosts --pairs" "uarchdiff compare --"
check "median"                        "uarchdiff compare --baseline m"
check "kernel,cpu.uarch"              "uarchdiff compare --group-by kernel,cpu.ua"
check "compare"                       "uarchdiff co"
check "quick"                         "uarchdiff run --suite q"
check "syscall"                       "uarchdiff run -w sys"
check "int,syscall"                   "uarchdiff run -w int,sys"
check "~branch-random branch-sorted"  "uarchdiff run --workloads branch-"
check "~zen1 zen2 zen3 zen4 zen5"     "uarchdiff events --uarch zen"
check "neoverse-n1 neoverse-n2"       "uarchdiff import --uarch neoverse-n"
check "perf-csv perf-json perf-report perf-text" "uarchdiff import --format perf-"
check "lkp"                           "uarchdiff import --format l"
check "base head"                     "uarchdiff import --side "
check "head"                          "uarchdiff import --side h"
check "cpufreq.governor= cpufreq.max_khz=" "uarchdiff import --fact cpuf"
# the cores without a table come from the tables' folder (here the source tree's)
UARCHDIFF_EVENTS_DIR=$(cd "$(dirname "$file")/../events" && pwd) check "~power9 power10" "uarchdiff import --uarch pow"
check "--hotspots"                    "uarchdiff run --hot"
check "--hotspots"                    "uarchdiff stat --hot"
check "cycles"                        "uarchdiff stat -e cyc"
check "~true"                         "uarchdiff stat -r 2 -- tru"
check "events"                        "uarchdiff help ev"
check "cache"                         "uarchdiff teach c"
check "branch cache ilp"              "uarchdiff teach -f html "
check "html"                          "uarchdiff teach --format h"
check ""                              "uarchdiff run -r "
check "profile"                       "uarchdiff schema pro"
check "compare diff events host profile stat-line teach" "uarchdiff schema "
check "--list"                        "uarchdiff schema --l"
check "stat-line"                     "uarchdiff schema --path st"

# Every long option a command's --help lists is offered for "CMD --".
for cmd in $("$bin" --help | sed -n '/^commands:/,/^$/s/^ \{1,\}\([a-z][a-z-]*\) .*/\1/p'); do
	opts=$("$bin" "$cmd" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ')
	check "~$opts" "uarchdiff $cmd --"
done

# Files elsewhere: a profile argument completes from the working directory.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/e5-profile.json" "$tmp/e6-profile.json"
(cd "$tmp" && check "e5-profile.json e6-profile.json" "uarchdiff diff e" && [[ $fail -eq 0 ]]) || fail=1
(cd "$tmp" && check "e6-profile.json" "uarchdiff compare e5-profile.json e6" && [[ $fail -eq 0 ]]) || fail=1

[[ $fail -eq 0 ]] && echo "bash completion: commands, options, workloads, uarchs, schemas, values and files complete"
exit $fail
