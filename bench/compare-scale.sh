#!/bin/sh
# Time and peak memory to compare N generated profiles of the default suite
# (default 50 hosts, its workloads each, the default counters and 5 samples
# per workload): `uarchdiff compare` in each format, profile parsing, the
# groups' median hosts and diffs and the outliers' diffs included.  The hosts
# are of two microarchitectures (two groups) and differ in kernel and in one
# mitigation every few hosts, so the group diffs have something to say.
# They are laid out as the fleet playbook leaves them (doc/fleet.md),
# fleet/HOST/profile.json beside a host.json and a run.log that are not
# profiles, and named both ways a fleet too large for the command line is:
# the folder, and `-` with the profiles' paths on standard input.
# Prints wall seconds, CPU seconds (user + system: the wall includes
# whatever else the machine runs) and peak RSS (/usr/bin/time); asserts
# nothing.
# Targets: 1,000 hosts under 1 s and 10,000 under 10 s in every format,
# peak memory under 1 GB at 10,000, `-f json` of 1,000 hosts under 10 MB
# (issue 26); 100,000 hosts in 20 s and 1 GB (issue 38).  ROUNDS=N rounds
# a format and way (default 3); FORMATS="text json" the formats (default
# all four).
#
#   bench/compare-scale.sh [N]
#   ROUNDS=1 FORMATS="text json" bench/compare-scale.sh 100000
set -eu
cd "$(dirname "$0")/.."
n=${1:-50}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT && echo "kept $dir"
workloads=$("$ud" workloads | awk '$3 == "default" || $4 == "default" { print $1 }' | tr '\n' ' ')

# One awk for every host (a process a host would take minutes at 100,000),
# each host's numbers from srand(its number), as they always were.
awk -v n="$n" -v d="$dir/fleet" 'BEGIN { for (k = 1; k <= n; k++) printf "%s/host-%06d\n", d, k }' | xargs mkdir -p
awk -v n="$n" -v d="$dir/fleet" -v names="$workloads" 'BEGIN {
	nw = split(names, name, " ")
	for (seed = 1; seed <= n; seed++) {
		srand(seed)
		h = sprintf("%s/host-%06d", d, seed)
		f = h "/profile.json"
		speed = 0.7 + 0.8 * rand()
		printf "{\"schema\": \"uarchdiff.profile/1\", \"host\": {\"label\": \"host-%02d\", \"kernel\": \"6.%d.0\", \"cpu\": {\"uarch\": \"%s\"}, \"vulnerabilities\": {\"spec_rstack_overflow\": \"%s\"}}, \"workloads\": [\n", seed, seed % 3, seed % 2 ? "zen4" : "zen5", seed % 4 ? "Mitigation: Safe RET" : "Not affected" > f
		for (w = 1; w <= nw; w++) {
			s = 1000 * speed * (0.8 + 0.4 * rand())
			printf "%s{\"name\": \"%s\", \"units\": \"lps\", \"higher_is_better\": true, \"score\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f, \"samples\": [%.3f, %.3f, %.3f, %.3f, %.3f], \"ci95_rel\": 0.01}, \"work_units\": %d, \"elapsed_ns\": 1250000000, \"user_ns\": 400000000, \"sys_ns\": %d, \"counters\": {", (w > 1 ? ",\n" : ""), name[w], s, s * 0.99, s * 1.01, s, s * 0.99, s * 1.01, s * 1.005, s * 0.995, s * 1.25, int(rand() * 6e8) > f
			c = 3e9 * (1 + rand()); i = c * (0.5 + 2 * rand())
			printf "\"cycles\": {\"status\": \"counted\", \"value\": %d}, \"instructions\": {\"status\": \"counted\", \"value\": %d}, ", c, i > f
			printf "\"branches\": {\"status\": \"counted\", \"value\": %d}, \"branch-misses\": {\"status\": \"counted\", \"value\": %d, \"semantics\": \"retired\"}, ", i / 5, i / 500 * rand() > f
			printf "\"L1-dcache-loads\": {\"status\": \"counted\", \"value\": %d}, \"L1-dcache-load-misses\": {\"status\": \"counted\", \"value\": %d}, ", i / 3, i / 60 * rand() > f
			printf "\"stalled-cycles-frontend\": {\"status\": \"counted\", \"value\": %d}, \"stalled-cycles-backend\": {\"status\": \"counted\", \"value\": %d}, ", c * rand() / 3, c * rand() / 3 > f
			printf "\"task-clock\": {\"status\": \"counted\", \"value\": %d}, \"context-switches\": {\"status\": \"counted\", \"value\": %d}, ", 9e8 + 1e8 * rand(), 1000 * rand() > f
			printf "\"cpu-migrations\": {\"status\": \"counted\", \"value\": %d}, \"page-faults\": {\"status\": \"counted\", \"value\": %d}}}", 10 * rand(), 500 * rand() > f
		}
		printf "\n]}\n" > f
		close(f)
		# what the playbook fetches beside the profile (made-up): not profiles, skipped
		printf "{\"label\": \"host-%02d\", \"hostname\": \"host-%02d\"}\n", seed, seed > (h "/host.json")
		close(h "/host.json")
		printf "made-up run log of host-%02d\n", seed > (h "/run.log")
		close(h "/run.log")
		print f > (d "/../list.txt")
	}
}'
printf 'profiles: %d hosts x %d workloads (%s), %s bytes in all, in %s/fleet\n' "$n" "$(echo $workloads | wc -w)" \
	"$(echo $workloads | tr ' ' ',')" "$(find "$dir/fleet" -name profile.json -printf '%s\n' | awk '{ s += $1 } END { print s }')" "$dir"
for f in ${FORMATS:-json text md html}; do
	for way in folder stdin; do
		for round in $(seq 1 "${ROUNDS:-3}"); do
			if [ "$way" = folder ]; then
				/usr/bin/time -f '%e %M %U %S' -o "$dir/rss" "$ud" compare -f "$f" -o "$dir/out.$f" "$dir/fleet" 2>"$dir/err" ||
					{ cat "$dir/err" >&2; exit 1; }
			else
				/usr/bin/time -f '%e %M %U %S' -o "$dir/rss" "$ud" compare -f "$f" -o "$dir/out.$f" - <"$dir/list.txt" 2>"$dir/err" ||
					{ cat "$dir/err" >&2; exit 1; }
			fi
			read -r secs kb user sys <"$dir/rss"
			# CPU seconds beside the wall: on a shared machine the wall includes others' load
			printf 'compare -f %-4s %-6s round %d: %6s s wall, %6s s CPU, peak RSS %7s MB, report %s bytes\n' "$f" \
				"$way" "$round" "$secs" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" \
				"$(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }')" "$(stat -c %s "$dir/out.$f")"
		done
	done
done
