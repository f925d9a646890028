#!/bin/sh
# The property over the fuzz targets' seed corpora (issue 36): every input
# the tool accepts gives a profile that validates against
# schemas/profile.schema.json and re-reads, and the re-read profile writes
# byte-identically: write(read(write(x))) == write(x).
#
# The corpora are fuzz/run.sh's seeds of its two profile-making targets:
#   fuzz_import   every paste of tests/data/perf-stat, tests/data/unixbench
#                 and fuzz/seeds in each format the target picks (auto,
#                 perf-text, perf-csv, perf-json, unixbench), and the robot's
#                 tables of tests/data/lkp (auto --side base, lkp --side base
#                 and head), and tests/data/foreign's other tools' summaries
#                 (those and perfspect, topdown-tool, uprof-pcm): through
#                 `uarchdiff import --format F -o`;
#   fuzz_profile  the goldens it is seeded with and the profiles the fuzzer
#                 accepted (tests/data/fuzz-accepted, a pair split at its
#                 NUL): through the profile reader (tests/ud-resave.c).
# An input the tool refuses (exit 2, one line on stderr) is counted, not a
# failure; any other exit, an invalid document, a reader refusing what the
# writer wrote or a second write that differs fails, naming the input.
# Validation is tests/schemas.py's (python3-jsonschema), as schemas_valid's.
#
# Then every other document, made from what was accepted: a diff of each
# with the one accepted before it and with itself, one compare of them all (named on
# standard input), host facts from each cpuinfo of tests/data, each event
# table's mapping, teach's quick labs, and one `stat --profile` and one
# `run` here: each read back by the JSON reader every input goes through
# (ud-resave --document) and validated against its own schema.
#
#   fuzz-roundtrip.sh UARCHDIFF UD_RESAVE SOURCE_DIR
set -eu
ud=$(realpath "$1") resave=$(realpath "$2") src=$(realpath "$3")

. "$src/tests/jsonschema-python.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$src/tests/data
status=0 accepted=0 refused=0 n=0

fail() {
	echo "fuzz-roundtrip: $*"
	status=1
}

# import WHAT FILE ARGS...: FILE through `uarchdiff import ARGS -o`; its profile in $work/w1-N.json when accepted
import() {
	what=$1 f=$2
	shift 2
	n=$((n + 1))
	rc=0
	"$ud" import "$@" -o "$work/w1-$n.json" "$f" >/dev/null 2>"$work/err" || rc=$?
	case $rc in
	0)
		accepted=$((accepted + 1))
		echo "$what $f" >"$work/what-$n"
		;;
	2) refused=$((refused + 1)) ;;
	*)
		cat "$work/err"
		fail "import $* $f exited $rc (neither written nor refused)"
		;;
	esac
}

# profile WHAT FILE: FILE through the profile reader, written again to $work/w1-N.json when accepted
profile() {
	n=$((n + 1))
	rc=0
	"$resave" "$2" "$work/w1-$n.json" 2>"$work/err" || rc=$?
	case $rc in
	0)
		accepted=$((accepted + 1))
		echo "$1 $2" >"$work/what-$n"
		;;
	1) refused=$((refused + 1)) ;;
	*)
		cat "$work/err"
		fail "profile $2: ud-resave exited $rc"
		;;
	esac
}

# --- fuzz_import's seeds (fuzz/run.sh: the first byte's formats and sides)
for f in "$data"/perf-stat/* "$data"/unixbench/* "$src"/fuzz/seeds/*; do
	for fmt in auto perf-text perf-csv perf-json unixbench; do
		import "import --format $fmt" "$f" --format "$fmt"
	done
done
for f in "$data"/foreign/*/*.csv; do
	for fmt in auto perf-text perf-csv perf-json unixbench perfspect topdown-tool uprof-pcm; do
		import "import --format $fmt" "$f" --format "$fmt"
	done
done
for f in "$data"/lkp/*; do
	import "import --side base" "$f" --side base
	for side in base head; do
		import "import --format lkp --side $side" "$f" --format lkp --side "$side"
	done
done

# --- fuzz_profile's seeds: the goldens, and every profile the fuzzer accepted (a pair's two)
for f in "$src"/tests/golden/e5.json "$src"/tests/golden/e6.json "$src"/tests/golden/g2.json; do
	profile profile "$f"
done
for f in "$data"/fuzz-accepted/*; do
	b=$(basename "$f")
	"$py" -c 'import sys; a, nul, b = open(sys.argv[1], "rb").read().partition(b"\0"); open(sys.argv[2], "wb").write(a); nul and open(sys.argv[3], "wb").write(b)' \
		"$f" "$work/in-$b-a.json" "$work/in-$b-b.json"
	for half in "$work/in-$b"-*.json; do
		profile "profile (from $b)" "$half"
	done
done

# --- each accepted document: valid, re-read, written again byte for byte
i=0 roundtripped=0
set --
while [ $i -lt $n ]; do
	i=$((i + 1))
	[ -f "$work/what-$i" ] || continue
	set -- "$@" "$work/w1-$i.json"
	what=$(cat "$work/what-$i")
	if ! "$resave" "$work/w1-$i.json" "$work/w2-$i.json" 2>"$work/err"; then
		cat "$work/err"
		fail "$what: the profile written does not re-read"
	elif ! cmp -s "$work/w1-$i.json" "$work/w2-$i.json"; then
		diff -u "$work/w1-$i.json" "$work/w2-$i.json" | head -20
		fail "$what: the re-read profile writes differently"
	else
		roundtripped=$((roundtripped + 1))
	fi
done
[ $# -gt 0 ] || fail "no input accepted: the seed corpora are missing"
if [ $# -gt 0 ] && ! "$py" "$src/tests/schemas.py" "$src/schemas" profile "$@" >"$work/invalid"; then
	# schemas.py names each document by its file; say which input made it
	sed "s|$work/w1-\([0-9]*\)\.json|w1-\1.json|" "$work/invalid"
	grep -o 'w1-[0-9]*\.json' "$work/invalid" | sort -u | while read -r w; do
		k=${w#w1-}
		echo "  $w: $(cat "$work/what-${k%.json}")"
	done
	fail "documents above do not match schemas/profile.schema.json"
fi

echo "fuzz-roundtrip: $n inputs: $accepted accepted, $refused refused, $roundtripped round-tripped," \
	"$# validated against schemas/profile.schema.json"

# --- every other document the tool writes, made from the same inputs
# (issue 36): each one read back by the reader all JSON input goes through
# (ud-resave --document), then validated against its own schema.
profiles=$work/profiles
printf '%s\n' "$@" >"$profiles"
d=0 drefused=0

# document SCHEMA WHAT ARGS...: `uarchdiff ARGS` writes $work/d-N.json (its -o, else its standard
# output); exit 2 is a refusal
document() {
	schema=$1 what=$2
	shift 2
	d=$((d + 1))
	rc=0
	"$ud" "$@" >"$work/stdout" 2>"$work/err" || rc=$?
	case $rc in
	0)
		[ -e "$work/d-$d.json" ] || mv "$work/stdout" "$work/d-$d.json"
		if ! "$resave" --document "$work/d-$d.json" 2>>"$work/err"; then
			cat "$work/err"
			fail "$what: the document written does not re-read"
		fi
		echo "$work/d-$d.json" >>"$work/docs-$schema"
		echo "$what" >"$work/what-d-$d"
		;;
	2) drefused=$((drefused + 1)) ;;
	*)
		cat "$work/err"
		fail "$what exited $rc (neither written nor refused)"
		;;
	esac
}

previous=$src/tests/golden/e5.json
while read -r p; do
	# the same paste read in another format, or the next paste: the pairs that share workloads diff
	document diff "diff of $(cat "$work/what-$(basename "$p" .json | sed 's/^w1-//')") with the one before" \
		diff -f json -o "$work/d-$((d + 1)).json" "$previous" "$p"
	document diff "diff of itself" diff -f json -o "$work/d-$((d + 1)).json" "$p" "$p"
	previous=$p
done <"$profiles"
document compare "compare of every accepted profile" compare -f json -o "$work/d-$((d + 1)).json" - <"$profiles"
for f in "$data"/cpuinfo/*; do
	document host "host --cpuinfo $f" host --json --cpuinfo "$f"
done
for f in "$src"/events/*; do
	case $f in */README.md | */cores.list) continue ;; esac
	document events "events --uarch $(basename "$f")" events --json --uarch "$(basename "$f")"
done
UARCHDIFF_TEACH_QUICK=1 document teach "teach (quick)" teach -f json -o "$work/d-$((d + 1)).json"
document profile "stat --profile" stat -e task-clock --quiet --profile "$work/d-$((d + 1)).json" -- true
document profile "run -w syscall" run -w syscall -r 1 -o "$work/d-$((d + 1)).json"

validated=0
for schema in diff compare host events teach profile; do
	[ -s "$work/docs-$schema" ] || { fail "no $schema document was written"; continue; }
	# shellcheck disable=SC2046 # one path a line, no blanks (mktemp's)
	if ! "$py" "$src/tests/schemas.py" "$src/schemas" "$schema" $(cat "$work/docs-$schema") >"$work/invalid"; then
		sed "s|$work/||" "$work/invalid"
		grep -o 'd-[0-9]*\.json' "$work/invalid" | sort -u | while read -r w; do
			k=${w#d-}
			echo "  $w: $(cat "$work/what-d-${k%.json}")"
		done
		fail "documents above do not match schemas/$schema.schema.json"
	fi
	validated=$((validated + $(wc -l <"$work/docs-$schema")))
done
echo "fuzz-roundtrip: $d other documents: $validated written, read back and validated, $drefused refused"
exit $status
