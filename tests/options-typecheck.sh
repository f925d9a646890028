#!/bin/sh
# tests/options-typecheck.sh SOURCE_DIR CC: options.h's rows refuse, at
# compile time, a destination of another type than their kind writes.
#
# A table using every row macro as the builtins do must compile warning-free
# (-Werror); then each case gives one macro the wrong pointer (an int * to
# UD_LONG_OPTION, which writes a long, the memory-corrupting mistake of
# issue 24) and must fail to compile with -Wall -Wextra alone, no -Werror:
# a refusal, not a warning, and for the _Generic selection, not some other
# error.  Run with the build's compiler, then with gcc and clang where they
# are installed, since the check must hold in both.
set -u
src=$1
build_cc=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/rows.c" <<'EOF'
#include <stddef.h>
#include "options.h"

enum colour { RED, GREEN };
static struct {
	bool flag;
	int count, wrong_int;
	long n, wrong_long;
	const char *str;
	char *list;
	enum colour colour;
} a;

static int parse_ok(const char *arg, void *dest, struct ud_err *err)
{
	(void)arg, (void)dest, (void)err;
	return 0;
}

static int parse_wrong(const char *arg, int *dest)
{
	(void)arg, (void)dest;
	return 0;
}

#ifndef BAD
#define BAD 0
#endif

static const struct ud_option rows[] = {
#if BAD == 0
	UD_FLAG_OPTION('j', "json", &a.flag, "a flag"),
	UD_COUNT_OPTION('d', "detailed", &a.count, "counted"),
	UD_STRING_OPTION('o', "output", &a.str, "FILE", "a string"),
	UD_LIST_OPTION('e', "event", &a.list, "EVENTS", "a list"),
	UD_LONG_OPTION('r', "repeat", &a.n, "N", "a number", 1, UD_REPEAT_MAX),
	UD_PARSE_OPTION(0, "colour", UD_OPTION_DEST(&a.colour, enum colour *), "C", "parsed", parse_ok),
#elif BAD == 1
	UD_LONG_OPTION('r', "repeat", &a.wrong_int, "N", "an int * for a long", 1, UD_REPEAT_MAX),
#elif BAD == 2
	UD_COUNT_OPTION('d', "detailed", &a.wrong_long, "a long * for an int"),
#elif BAD == 3
	UD_FLAG_OPTION('j', "json", &a.wrong_int, "an int * for a bool"),
#elif BAD == 4
	UD_STRING_OPTION('o', "output", &a.list, "FILE", "a char ** for a const char **"),
#elif BAD == 5
	UD_LIST_OPTION('e', "event", &a.str, "EVENTS", "a const char ** for a char **"),
#elif BAD == 6
	UD_PARSE_OPTION(0, "colour", UD_OPTION_DEST(&a.wrong_int, enum colour *), "C", "not the enum", parse_ok),
#elif BAD == 7
	UD_PARSE_OPTION(0, "colour", &a.colour, "C", "a parser of another type", parse_wrong),
#endif
};

int rows_used(void);
int rows_used(void)
{
	(void)parse_ok, (void)parse_wrong;
	return rows[0].kind;
}
EOF

# Each compiler once: cc is often gcc under another name.
compilers=$build_cc
seen=$(readlink -f "$(command -v "$build_cc")")
for cc in gcc clang; do
	path=$(command -v "$cc") || continue
	real=$(readlink -f "$path")
	case " $seen " in *" $real "*) continue ;; esac
	seen="$seen $real"
	compilers="$compilers $cc"
done

for cc in $compilers; do
	refused=0
	flags="-std=c11 -Wall -Wextra -fsyntax-only -I$src/src -I$src/src/base"
	# shellcheck disable=SC2086
	if ! "$cc" $flags -Werror "$tmp/rows.c" 2>"$tmp/err"; then
		echo "FAIL: $cc: the well-typed rows do not compile warning-free:"
		cat "$tmp/err"
		fail=1
		continue
	fi
	for bad in 1 2 3 4 5 6 7; do
		what=$(sed -n "/^#elif BAD == $bad\$/{n;p}" "$tmp/rows.c" | sed 's/^[[:space:]]*//')
		# shellcheck disable=SC2086
		if "$cc" $flags -DBAD=$bad "$tmp/rows.c" 2>"$tmp/err"; then
			echo "FAIL: $cc compiled a mistyped row: $what"
			cat "$tmp/err"
			fail=1
		elif ! grep -qi 'generic' "$tmp/err"; then
			echo "FAIL: $cc refused a mistyped row, but not by its type check: $what"
			cat "$tmp/err"
			fail=1
		else
			refused=$((refused + 1))
		fi
	done
	echo "$cc: refused $refused of 7 mistyped rows"
done
exit $fail
