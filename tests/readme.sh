#!/bin/sh
# tests/readme.sh UARCHDIFF SRC: the README is a user's guide that works as written.
#
#  - at most 400 lines (the command reference is the man page, developer
#    material is in doc/);
#  - it names no file outside the repository: every relative link and every
#    `doc/...`, `tests/...`, `events/...` path it gives exists in SRC, and no
#    SPEC.md or shared folder, which a clone does not have;
#  - every fenced block marked runnable (```sh runnable) runs: in a fresh
#    folder holding the repository's tests/ and events/ (for the recipes'
#    pastes), with the built uarchdiff first on PATH, each block under
#    'sh -eu', exit status 0, in the README's order (a recipe may use the
#    files an earlier one wrote).  A recipe that stops working fails here;
#  - an excerpt of a recipe's output (```text output-of-recipe N COLUMNS=W)
#    holds only lines that recipe prints at that width.
set -u
ud=$1
src=$2
readme=$src/README.md
fail=0
bad() { echo "FAIL: README: $*"; fail=1; }

lines=$(wc -l <"$readme")
[ "$lines" -le 400 ] || bad "$lines lines, over the 400 a user's guide may have (move reference material to doc/)"

if grep -n -E 'SPEC\.md|shared folder|\.\./shared' "$readme"; then
	bad "names a file outside the repository (above)"
fi
# Relative links, then backquoted paths under the repository's own folders.
{
	grep -o -E '\]\([^)#:]+' "$readme" | sed 's/^](//'
	grep -o -E '`(doc|tests|events|schemas|contrib|scripts|bench|completion)/[^` ]*`' "$readme" | tr -d '`'
} | sort -u | while read -r path; do
	[ -e "$src/$path" ] || echo "$path"
done >"${TMPDIR:-/tmp}/readme-missing.$$"
if [ -s "${TMPDIR:-/tmp}/readme-missing.$$" ]; then
	bad "names paths the repository lacks: $(tr '\n' ' ' <"${TMPDIR:-/tmp}/readme-missing.$$")"
fi
rm -f "${TMPDIR:-/tmp}/readme-missing.$$"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$(cd "$(dirname "$ud")" && pwd)/$(basename "$ud")" "$work/bin/uarchdiff"
ln -s "$src/tests" "$work/tests"
ln -s "$src/events" "$work/events"
# The JSON recipe names Debian's python3-jsonschema; a python3 earlier on PATH (pyenv's) may lack it.
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	ln -s /usr/bin/python3 "$work/bin/python3"
fi
awk -v dir="$work" '
	/^```sh runnable/ { n++; file = sprintf("%s/recipe-%d.sh", dir, n); inside = 1; next }
	/^```/ && inside { inside = 0; close(file); next }
	inside { print > file }' "$readme"
count=0
for recipe in "$work"/recipe-*.sh; do
	[ -e "$recipe" ] || { bad "no block marked runnable: its recipes are tested only when marked"; break; }
	count=$((count + 1))
	if ! (cd "$work" && PATH="$work/bin:$PATH" UARCHDIFF_TEACH_QUICK=1 sh -eu "$recipe" >"$recipe.out" 2>&1); then
		bad "recipe $count failed:"
		sed 's/^/    /' "$recipe"
		tail -20 "$recipe.out" | sed 's/^/  | /'
	fi
done
# A block marked ```text output-of-recipe N COLUMNS=W shows recipe N's output
# at that width: each of its lines must be a line the recipe printed.
awk -v dir="$work" '
	/^```text output-of-recipe / { n++; file = sprintf("%s/excerpt-%d-%s-%s", dir, n, $3, $4); inside = 1; next }
	/^```/ && inside { inside = 0; close(file); next }
	inside { print > file }' "$readme"
for excerpt in "$work"/excerpt-*; do
	[ -e "$excerpt" ] || break
	set -- $(basename "$excerpt" | tr '-' ' ')
	recipe=$work/recipe-$3.sh
	(cd "$work" && env "$4" PATH="$work/bin:$PATH" sh -eu "$recipe" >"$excerpt.out" 2>&1) || true
	missing=$(grep -vxF -f "$excerpt.out" "$excerpt" | head -3)
	[ -z "$missing" ] || bad "the excerpt of recipe $3's output is not what it prints now, e.g.: $missing"
done
[ $fail = 0 ] && echo "README: $lines lines, $count runnable recipes ran"
exit $fail
