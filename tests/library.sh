#!/bin/sh
# tests/library.sh MODE BUILD_DIR SOURCE_DIR: the public library (doc/library.md).
#
#   example  build/diff_two (doc/example/diff_two.c, linked to the shared
#            library) diffs two profiles of tests/data/profiles-v1 and writes
#            the text report `uarchdiff diff` writes, byte for byte.
#   symbols  the shared library exports only the public prefix: every
#            defined dynamic symbol is a uarchdiff_* function or the version
#            node UARCHDIFF_<n> of src/api/uarchdiff.map.
#   install  `cmake --install` into a temporary prefix, then the example
#            compiled with `pkg-config --cflags --libs uarchdiff` alone, run
#            on the installed library and data, and the same report again;
#            then linked to libuarchdiff.a with `pkg-config --static`.
#            Skipped (77) without pkg-config or a C compiler.
set -eu
mode=$1
build=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
data=$src/tests/data/profiles-v1
# Two `run` profiles of the development VM (tests/data/README.md gives their commits).
a=$data/run-e3aba48.json
b=$data/run-bf7ebcd.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The report's width is the terminal's or COLUMNS: fixed, so both sides wrap alike.
COLUMNS=80
export COLUMNS

fail() {
	echo "FAIL: $*"
	exit 1
}

# The binary's report and the program's, compared.
same_report() {
	"$build/uarchdiff" diff "$a" "$b" >"$tmp/binary.txt" || fail "uarchdiff diff"
	cmp "$tmp/binary.txt" "$1" || { diff "$tmp/binary.txt" "$1" | head -20; fail "$2 differs from uarchdiff diff"; }
	echo "ok: $2 writes uarchdiff diff's report ($(wc -l <"$1") lines)"
}

case $mode in
example)
	"$build/diff_two" "$a" "$b" >"$tmp/example.txt" || fail "diff_two"
	same_report "$tmp/example.txt" "diff_two"
	# A paste where a profile goes: the library's error, not a crash.
	if "$build/diff_two" "$src/tests/data/perf-stat/oci-e5-genoa-fstime.txt" "$b" 2>"$tmp/err.txt"; then
		fail "diff_two took a paste as a profile"
	fi
	grep -q "uarchdiff import" "$tmp/err.txt" || { cat "$tmp/err.txt"; fail "no import hint for a paste"; }
	echo "ok: a paste is refused with: $(head -c 120 "$tmp/err.txt")"
	;;
symbols)
	lib=$build/libuarchdiff.so
	nm -D --defined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//' >"$tmp/syms"
	[ -s "$tmp/syms" ] || fail "no symbols read from $lib"
	if grep -Ev '^(uarchdiff_[a-z0-9_]+|UARCHDIFF_[0-9]+)$' "$tmp/syms" >"$tmp/private"; then
		head -20 "$tmp/private"
		fail "$(wc -l <"$tmp/private") private symbols exported from $lib"
	fi
	grep -q '^uarchdiff_diff_new$' "$tmp/syms" || fail "uarchdiff_diff_new not exported"
	echo "ok: $(wc -l <"$tmp/syms") symbols exported, all public"
	;;
install)
	command -v pkg-config >/dev/null || { echo "skipped: pkg-config not installed (scripts/install-deps.sh)"; exit 77; }
	command -v cc >/dev/null || { echo "skipped: no C compiler (cc)"; exit 77; }
	unset UARCHDIFF_EVENTS_DIR UARCHDIFF_TEMPLATES_DIR
	cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
		{ cat "$tmp/install.log"; fail "cmake --install"; }
	pc=$(find "$tmp/prefix" -name uarchdiff.pc)
	[ -n "$pc" ] || fail "no uarchdiff.pc installed"
	PKG_CONFIG_PATH=$(dirname "$pc")
	export PKG_CONFIG_PATH
	flags=$(pkg-config --cflags --libs uarchdiff) || fail "pkg-config --cflags --libs uarchdiff"
	echo "pkg-config --cflags --libs uarchdiff: $flags"
	libdir=$(pkg-config --variable=libdir uarchdiff)
	[ -f "$libdir/libuarchdiff.so" ] && [ -f "$libdir/libuarchdiff.a" ] || fail "libuarchdiff not in $libdir"
	# A sanitizer build's library needs its runtime first in the program (UD_SANITIZE's flags, CMakeLists.txt).
	san=
	if ldd "$libdir/libuarchdiff.so" | grep -q libasan; then
		san="-fsanitize=address,undefined"
	fi
	# Only the installed header and library: the example is copied out of the tree first.
	cp "$src/doc/example/diff_two.c" "$tmp/"
	(cd "$tmp" && cc -std=c11 -Wall -Wextra -Werror $san diff_two.c $flags -o diff_two) || fail "example did not build"
	LD_LIBRARY_PATH=$libdir "$tmp/diff_two" "$a" "$b" "$tmp/prefix/share/uarchdiff" >"$tmp/example.txt" ||
		fail "installed diff_two"
	same_report "$tmp/example.txt" "the installed example"
	# The static library holds every stage it needs: linked with --static's flags, no libuarchdiff.so at run time.
	static=$(pkg-config --static --libs uarchdiff) || fail "pkg-config --static --libs uarchdiff"
	# its dependencies without the library itself, which a linker that does not drop unused libraries
	# (a sanitizer's link) would otherwise record as needed, shared, after the archive
	static=$(printf '%s\n' "$static" | sed 's/-luarchdiff\b//g')
	(cd "$tmp" && cc -std=c11 -Wall -Wextra -Werror $san diff_two.c $(pkg-config --cflags uarchdiff) \
		-L"$libdir" -Wl,-Bstatic -luarchdiff -Wl,-Bdynamic $static -o diff_two_static) ||
		fail "example did not build against libuarchdiff.a"
	"$tmp/diff_two_static" "$a" "$b" "$tmp/prefix/share/uarchdiff" >"$tmp/example.txt" || fail "diff_two_static"
	same_report "$tmp/example.txt" "the example linked statically"
	;;
*)
	fail "unknown mode $mode"
	;;
esac
