#!/bin/sh
# Builds uarchdiff twice (plain, and with AddressSanitizer + UBSan) and runs
# every test in both.  Tests that need a hardware PMU report themselves
# skipped where there is none; their reasons are printed at the end.  The
# emulated Neoverse N1 test (tests/emulated-arm/run.sh) runs in the plain
# build only: it proves the counting paths, not memory safety, and takes
# minutes.  Then every fuzz target runs for a short fixed budget
# (UD_FUZZ_SECONDS, default 10 s each; fuzz/run.sh), so that they cannot go
# stale: a crash, leak or sanitizer report fails the run.  Where clang is
# missing that step says SKIPPED with the reason.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

for variant in build build-asan; do
	case $variant in
	build) flags="-DUD_EMULATED_ARM=ON" ;;
	build-asan) flags="-DUD_SANITIZE=ON -DUD_EMULATED_ARM=OFF" ;;
	esac
	echo "== $variant"
	cmake -S . -B "$variant" -DUD_WERROR=ON $flags >/dev/null
	cmake --build "$variant" -j "$jobs" >/dev/null
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir "$variant" --output-on-failure -j "$jobs"
	grep -h '^SKIPPED:' "$variant/Testing/Temporary/LastTest.log" || true
done

echo "== fuzz (${UD_FUZZ_SECONDS:-10} s a target)"
if command -v clang >/dev/null 2>&1; then
	fuzz/run.sh "${UD_FUZZ_SECONDS:-10}"
else
	echo "SKIPPED: fuzz: clang not found (Debian: apt-get install clang), the fuzz targets only compiled"
fi
