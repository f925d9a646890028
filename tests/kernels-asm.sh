#!/bin/sh
# The teaching kernels are what they claim in the machine code the compiler
# made (x86-64): ud_branch_sum keeps a conditional jump on the byte and no
# conditional move or vector blend; ud_chains keeps its multiplies scalar,
# one imul a chain a round (1 + 2 + ... + 8 = 36 in all), none vectorized.
# Exit 77 (skipped) on other architectures, without objdump, or on a build
# the compiler did not optimise (Debug, or none named): the claims are about
# what the optimiser does to the kernels, and -O0 keeps loops it would unroll.
#
#   tests/kernels-asm.sh KERNELS_OBJECT [BUILD_TYPE]   (the build's kernels.c.o)
set -eu
obj=$1
case "${2-Release}" in
Release | RelWithDebInfo | MinSizeRel) ;;
*) echo "SKIPPED: kernels-asm: a ${2:-unnamed} build is not optimised"; exit 77 ;;
esac
command -v objdump >/dev/null || { echo "SKIPPED: kernels-asm: no objdump"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "SKIPPED: kernels-asm: the check reads x86-64 code"; exit 77; }
[ -f "$obj" ] || { echo "FAIL: $obj: no such object"; exit 1; }
fn() {
	objdump -d --no-show-raw-insn "$obj" | awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on'
}
branch=$(fn ud_branch_sum)
chains=$(fn ud_chains)
fail=0
echo "$branch" | grep -q -E '\bj(s|ns|l|ge|b|ae)\b' || { echo "FAIL: ud_branch_sum has no conditional jump"; fail=1; }
if echo "$branch" | grep -q -E '\b(cmov[a-z]*|v?pblendv?b|v?blendv?p[sd]|v?pmaxub)\b'; then
	echo "FAIL: ud_branch_sum was if-converted or vectorized:"
	echo "$branch" | grep -E 'cmov|blend|pmax'
	fail=1
fi
n=$(echo "$chains" | grep -c -E '\bimul\b' || true)
[ "$n" -ge 36 ] || { echo "FAIL: ud_chains has $n scalar imul, want 36 (one a chain a round, k = 1..8)"; fail=1; }
if echo "$chains" | grep -q -E '\bv?pmul'; then
	echo "FAIL: ud_chains was vectorized"
	fail=1
fi
[ $fail -eq 0 ] && echo "kernels: a real branch in ud_branch_sum, $n scalar imul in ud_chains"
exit $fail
