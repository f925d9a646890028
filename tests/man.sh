#!/bin/sh
# tests/man.sh UARCHDIFF MANPAGE: the man page says what --help says.
#
# For every command 'uarchdiff --help' lists, the page has a section
# (".SS CMD" under COMMANDS), and the long options 'uarchdiff CMD --help'
# prints (every --word in it) are the long options of that section, no more
# and no fewer, and so are its short options (-x at the head of a help
# line, and in the option heads after .TP in the section: the page also
# quotes perf's own -x, -r in its prose, which are no options of ours).  --help itself is common to all commands and documented once
# under OPTIONS, which in turn holds the options of 'uarchdiff --help'.
# The page must render without warnings (man --warnings, groff -ww).
set -u
bin=$1
page=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Long options in some text, one a line, sorted; --help left out.
longopts() {
	grep -o -- '--[a-z][a-z-]*' | grep -vx -- '--help' | sort -u
}

# The text of section NAME of the page (.SH or .SS), roff escapes removed.
section() {
	awk -v want="$1" '
		/^\.S[HS] / { name = $2; gsub(/"/, "", name); inside = (name == want); next }
		inside { print }' "$page" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g'
}

# Short options at the head of a help line (continuation lines are indented deeper), -h left out.
help_shortopts() {
	grep -oE '^ {1,8}-[a-zA-Z0-9]([ ,]|$)' | grep -oE -- '-[a-zA-Z0-9]' | grep -vx -- '-h' | sort -u
}

# Short options in the option heads (the line after .TP) of a section's text.
man_shortopts() {
	awk '/^\.TP/ { head = 1; next } head { print; head = 0 }' | grep -oE -- '(^|[ "])-[a-zA-Z0-9]([ ,"]|$)' |
		grep -oE -- '-[a-zA-Z0-9]' | sort -u
}

# The section's text with the roff escapes kept but \- read as -, for man_shortopts' .TP lines.
section_raw() {
	awk -v want="$1" '
		/^\.S[HS] / { name = $2; gsub(/"/, "", name); inside = (name == want); next }
		inside { print }' "$page" | sed -e 's/\\-/-/g'
}

compare() { # what, from-help file, from-man file
	if ! cmp -s "$2" "$3"; then
		echo "FAIL: $1: options differ (< --help, > man page):"
		diff "$2" "$3" | grep '^[<>]'
		fail=1
	fi
}

"$bin" --help >"$tmp/main.help" || { echo "FAIL: $bin --help failed"; exit 1; }
longopts <"$tmp/main.help" >"$tmp/main.opts"
section OPTIONS | longopts >"$tmp/main.man"
compare "uarchdiff (OPTIONS)" "$tmp/main.opts" "$tmp/main.man"

# The commands: the indented lines after "commands:" in the main usage.
commands=$(sed -n '/^commands:/,/^$/s/^ \{1,\}\([a-z][a-z-]*\) .*/\1/p' "$tmp/main.help")
[ -n "$commands" ] || { echo "FAIL: no commands in $bin --help"; exit 1; }
sections=$(awk '/^\.SH / { sh = $2 } /^\.SS / && sh == "COMMANDS" { print $2 }' "$page")
for cmd in $commands; do
	if ! echo "$sections" | grep -qx "$cmd"; then
		echo "FAIL: '$cmd' has no section under COMMANDS in $page"
		fail=1
		continue
	fi
	"$bin" "$cmd" --help >"$tmp/$cmd.help" 2>&1 || { echo "FAIL: $bin $cmd --help failed"; fail=1; }
	longopts <"$tmp/$cmd.help" >"$tmp/$cmd.opts"
	section "$cmd" | longopts >"$tmp/$cmd.man"
	compare "$cmd" "$tmp/$cmd.opts" "$tmp/$cmd.man"
	help_shortopts <"$tmp/$cmd.help" >"$tmp/$cmd.short"
	section_raw "$cmd" | man_shortopts >"$tmp/$cmd.mshort"
	compare "$cmd (short options)" "$tmp/$cmd.short" "$tmp/$cmd.mshort"
done
# A section for a command that does not exist; "help" is the dispatcher's own.
for s in $sections; do
	if [ "$s" != help ] && ! echo "$commands" | grep -qx "$s"; then
		echo "FAIL: $page documents '$s', which 'uarchdiff --help' does not list"
		fail=1
	fi
done

# Rendering: no warning from man or groff.
if command -v man >/dev/null; then
	MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/man.err" >"$tmp/man.txt"
	if [ -s "$tmp/man.err" ] || ! grep -q 'COMMANDS' "$tmp/man.txt"; then
		echo "FAIL: man -l $page:"
		cat "$tmp/man.err"
		fail=1
	fi
else
	echo "FAIL: man is not installed (scripts/install-deps.sh installs man-db)"
	fail=1
fi
groff -ww -man -Tutf8 -z "$page" 2>"$tmp/groff.err"
if [ -s "$tmp/groff.err" ]; then
	echo "FAIL: groff -ww:"
	cat "$tmp/groff.err"
	fail=1
fi

[ $fail -eq 0 ] && echo "man page: $(echo $commands | wc -w) commands, long and short options match --help, renders cleanly"
exit $fail
