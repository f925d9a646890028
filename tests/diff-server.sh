#!/bin/sh
# tests/diff-server.sh UARCHDIFF DATA: the diff of two real server profiles
# (tests/data/server-profiles/README.md: http-gateway and redis, run on the
# development VM) says, for each server workload, where the counted server's
# CPU time went per request, user and kernel, and the uncounted client's
# beside it (issue 40).  It checks that the lines are there, in the text and
# Markdown reports; their values are the VM's load and are not asserted.
set -u
[ $# -eq 2 ] || { echo "usage: $0 UARCHDIFF DATA" >&2; exit 2; }
ud=$1 data=$2/server-profiles
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fails=0

for format in text md; do
	"$ud" diff --format "$format" "$data/vm-a.json" "$data/vm-b.json" >"$out" 2>&1 ||
		{ cat "$out"; echo "FAIL: diff --format $format failed"; fails=$((fails + 1)); continue; }
	# a report wraps its lines: read it as one line of words
	text=$(tr -s ' \n' '  ' <"$out")
	for workload in http-gateway redis; do
		echo "$text" | grep -Eq "(==|##) $workload: " ||
			{ echo "FAIL ($format): no section for $workload"; fails=$((fails + 1)); }
	done
	n=$(echo "$text" | grep -o "CPU time per request: user [^;]* -> [^;]*, kernel [^;]* -> [^;]*;[^;]*; the client's, uncounted on the same CPUs: user [^,]* -> [^,]*, kernel" | wc -l)
	[ "$n" -eq 2 ] || { cat "$out"; echo "FAIL ($format): $n server workloads, not 2, with the server's and the client's time per request"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] && echo "ok: a server diff splits the server's CPU time per request and names the client's"
exit $((fails > 0))
