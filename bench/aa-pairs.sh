#!/bin/sh
# A/A benchmark (issue 33, same-host honesty): PAIRS (20) pairs of profiles
# of this host, the two sides of a pair GAP (5) seconds apart, then `diff
# -f json` on each pair.  Odd pairs are quiet; even pairs are loaded: one
# CPU-burning loop a CPU (BURNERS to change how many) runs during ONE side's
# run only, side A in pairs 2, 6, 10 ..., side B in 4, 8, 12 ..., so that
# each side's samples were taken together under different background load.
# Two profiles of one host must never headline a speedup: every workload's
# verdict should be `same`, or a faster/slower one should be explained as
# utilization ("got more CPU") or noise.
#
# Prints one line a pair (quiet or loaded and which side; each side's
# highest 1-minute load average and lowest CPUs utilized, as its profile's
# noise records them, A/B; each workload's verdict and speedup B over A, a
# claim in capitals; the headline's first sentence), then totals: the pairs
# that headline a speedup (a faster or slower verdict on any workload) and
# those whose reason names neither "more CPU" nor weak evidence, noise or
# drift, the headlines whose geometric mean claims a speedup or that point
# at the kernel path, the comparisons that are `same` (within the noise,
# within a side's own drift), faster/slower (and of those how many name
# utilization, weak evidence or noise, and how many nothing of the kind),
# no-claim, a table per workload, and every faster/slower verdict with its
# p and verdict_reason.  Asserts nothing.
#
# Run options replace the default, a quick set of built-in workloads with 6
# samples each (-w int,pipe,syscall,spawn,branch-sorted -r 6: about 11 s a
# profile, 8-10 minutes for 20 pairs on a 2-CPU VM); --label and -o are
# added by the script.  KEEP=1 keeps the profiles and diffs
# (prof-NN-KIND-A.json, diff-NN-KIND.json) and names their folder.
#
#   bench/aa-pairs.sh [PAIRS] [RUN-OPTIONS...]
#   bench/aa-pairs.sh 4
#   GAP=30 KEEP=1 bench/aa-pairs.sh 10 --suite quick
set -eu
cd "$(dirname "$0")/.."
pairs=20
case ${1:-} in
'' | -*) ;;
*[!0-9]* | 0)
	echo "usage: bench/aa-pairs.sh [PAIRS] [RUN-OPTIONS...]  (PAIRS a whole number from 1)" >&2
	exit 2
	;;
*)
	pairs=$1
	shift
	;;
esac
[ $# -gt 0 ] || set -- -w int,pipe,syscall,spawn,branch-sorted -r 6
gap=${GAP:-5}
burners=${BURNERS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
ud=build/uarchdiff
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the diffs" >&2; exit 2; }
dir=$(mktemp -d)
load_pids=

stop_load() {
	for p in $load_pids; do
		kill "$p" 2>/dev/null || true
	done
	for p in $load_pids; do
		wait "$p" 2>/dev/null || true
	done
	load_pids=
}
start_load() {
	i=0
	while [ "$i" -lt "$burners" ]; do
		sh -c 'while :; do :; done' &
		load_pids="$load_pids $!"
		i=$((i + 1))
	done
}
finish() {
	stop_load
	if [ -n "${KEEP:-}" ]; then echo "kept $dir" >&2; else rm -rf "$dir"; fi
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# profile SIDE LOADED(0/1) FILE RUN-OPTIONS...: one side of a pair, under load when asked.
profile() {
	side=$1 loaded=$2 file=$3
	shift 3
	[ "$loaded" = 1 ] && start_load
	rc=0
	"$ud" run "$@" --label "$side" -o "$file" >"$dir/run.log" 2>&1 || rc=$?
	stop_load
	if [ "$rc" = 2 ]; then
		cat "$dir/run.log" >&2
		exit 2
	fi
	[ -s "$file" ] || { echo "  side $side wrote no profile (exit $rc):" >&2; tail -3 "$dir/run.log" >&2; }
}

cat >"$dir/read.py" <<'PY'
import glob, json, os, re, statistics, sys

def workloads(d):
    return [w for w in d["workloads"] if not w.get("composite")]

def first_sentence(h):
    m = re.match(r"(.*?\.)(\s|$)", h or "")
    return m.group(1) if m else (h or "")

def side_noise(path):
    """The side's highest 1-minute load average and lowest CPUs utilized over its workloads."""
    try:
        ws = json.load(open(path))["workloads"]
    except (OSError, ValueError):
        return None, None
    loads = [w["noise"]["load_avg"] for w in ws if (w.get("noise") or {}).get("load_avg") is not None]
    cpus = [w["noise"]["cpus_utilized_min"] for w in ws if (w.get("noise") or {}).get("cpus_utilized_min") is not None]
    return (max(loads) if loads else None), (min(cpus) if cpus else None)

def fmt(x, spec):
    return format(x, spec) if x is not None else "-"

def pair_line(path):
    k, load = os.path.basename(path)[5:-5].split("-", 1)
    d = json.load(open(path))
    la, ca = side_noise(path.replace("/diff-", "/prof-")[:-5] + "-A.json")
    lb, cb = side_noise(path.replace("/diff-", "/prof-")[:-5] + "-B.json")
    parts = []
    for w in workloads(d):
        v, s = w["verdict"], w["speedup"]
        word = v if v in ("same", "no-claim") else v.upper()
        parts.append(f"{w['name']} {word} {fmt(s, '.3f')}")
    h = d["summary"]["headline"] or ""
    gap = " [kernel-path gap]" if "a gap that large" in h else ""
    print(f"pair {int(k):2} {load:8} load {fmt(la, '.1f')}/{fmt(lb, '.1f')} cpus {fmt(ca, '.2f')}/{fmt(cb, '.2f')}  "
          + " | ".join(parts) + f" || {first_sentence(h)}{gap}", flush=True)

def totals(dirname, options, gap):
    files = sorted(glob.glob(f"{dirname}/diff-*.json"))
    n = {"quiet": 0, "loaded": 0}
    headline_pairs = {"quiet": 0, "loaded": 0}
    geo_claims = {"quiet": 0, "loaded": 0}
    unexplained_pairs = {"quiet": 0, "loaded": 0}
    geo_claims_explained = geo_claims_all_same = 0
    kernel_gap = 0
    comparisons = same_noise = same_drift = no_claim = 0
    claims = []
    per_wl = {}
    for path in files:
        k, load = os.path.basename(path)[5:-5].split("-", 1)
        kind = "quiet" if load == "quiet" else "loaded"
        n[kind] += 1
        d = json.load(open(path))
        h = first_sentence(d["summary"]["headline"])
        geo = " faster than " in h or " slower than " in h
        geo_claims[kind] += geo
        kernel_gap += "a gap that large" in (d["summary"]["headline"] or "")
        any_claim = any_unexplained = False
        for w in workloads(d):
            comparisons += 1
            v, r, s = w["verdict"], w["verdict_reason"] or "", w["speedup"]
            e = per_wl.setdefault(w["name"], {"same": 0, "faster": 0, "slower": 0, "no-claim": 0, "s": []})
            e[v] += 1
            if s is not None:
                e["s"].append(s)
            if v == "same":
                if "drifted" in r:
                    same_drift += 1
                else:
                    same_noise += 1
            elif v == "no-claim":
                no_claim += 1
            else:
                any_claim = True
                p = (w.get("significance") or {}).get("p")
                claims.append((int(k), load, w["name"], v, s, p, r))
                any_unexplained |= not re.search(r"more CPU|weak evidence|nois|drift", r)
        headline_pairs[kind] += any_claim
        unexplained_pairs[kind] += any_unexplained
        geo_claims_explained += geo and not any_unexplained
        geo_claims_all_same += geo and not any_claim
    total = n["quiet"] + n["loaded"]
    if not total:
        print("no pair was diffed")
        return
    util = [c for c in claims if "more CPU" in c[6]]
    weak = [c for c in claims if c not in util and "weak evidence" in c[6]]
    noise = [c for c in claims if c not in util and c not in weak and re.search(r"nois|drift", c[6])]
    rest = [c for c in claims if c not in util and c not in weak and c not in noise]
    byload = lambda cs: f"quiet {sum(c[1] == 'quiet' for c in cs)}, loaded {sum(c[1] != 'quiet' for c in cs)}"
    print()
    print(f"{total} pairs ({n['quiet']} quiet, {n['loaded']} loaded), {comparisons} workload comparisons; "
          f"run options: {options}; sides {gap} s apart")
    print(f"pairs headlining a speedup (faster/slower on any workload): {headline_pairs['quiet'] + headline_pairs['loaded']}"
          f" of {total} (quiet {headline_pairs['quiet']} of {n['quiet']}, loaded {headline_pairs['loaded']} of {n['loaded']})")
    print(f"pairs with a faster/slower verdict whose reason names no more CPU, weak evidence, noise or drift: "
          f"{unexplained_pairs['quiet'] + unexplained_pairs['loaded']} (quiet {unexplained_pairs['quiet']}, loaded {unexplained_pairs['loaded']})")
    print(f"headlines whose geometric mean claims a speedup (not 'as fast as'): {geo_claims['quiet'] + geo_claims['loaded']}"
          f" (quiet {geo_claims['quiet']}, loaded {geo_claims['loaded']}), {geo_claims_explained} of them where every"
          f" workload is same or explained, {geo_claims_all_same} where every workload is same;"
          f" pointing at the kernel path: {kernel_gap}")
    print(f"same: {same_noise + same_drift} of {comparisons} (within the noise {same_noise}, within a side's drift {same_drift})")
    print(f"faster/slower: {len(claims)} ({byload(claims)}); reason names: more CPU {len(util)}, "
          f"weak evidence {len(weak)}, noise/drift {len(noise)}, none of these {len(rest)} ({byload(rest)})")
    print(f"no-claim: {no_claim}")
    print()
    print(f"{'workload':16} {'same':>5} {'faster':>6} {'slower':>6} {'no-claim':>8}  speedups (min / median / max)")
    for name, e in per_wl.items():
        s = sorted(e["s"])
        rng = f"{s[0]:.3f} / {statistics.median(s):.3f} / {s[-1]:.3f}" if s else "-"
        print(f"{name:16} {e['same']:5} {e['faster']:6} {e['slower']:6} {e['no-claim']:8}  {rng}")
    if claims:
        print()
        print("every faster/slower verdict:")
        for k, load, name, v, s, p, r in claims:
            ps = f"{p:.2g}" if p is not None else "-"
            print(f"  pair {k:2} {load:8} {name:14} {v:6} {s:.3f}x p={ps}: {r}")

if sys.argv[1] == "pair":
    pair_line(sys.argv[2])
else:
    totals(sys.argv[2], sys.argv[3], sys.argv[4])
PY

echo "$pairs pairs of this host's profiles ($*), sides $gap s apart; even pairs with $burners CPU burners during one side"
k=1
while [ "$k" -le "$pairs" ]; do
	load_a=0 load_b=0 kind=quiet
	if [ $((k % 2)) = 0 ]; then
		if [ $((k % 4)) = 2 ]; then load_a=1 kind=loaded-A; else load_b=1 kind=loaded-B; fi
	fi
	base=$(printf '%02d-%s' "$k" "$kind")
	a=$dir/prof-$base-A.json b=$dir/prof-$base-B.json out=$dir/diff-$base.json
	profile A "$load_a" "$a" "$@"
	sleep "$gap"
	profile B "$load_b" "$b" "$@"
	: >"$dir/diff.err"
	if [ -s "$a" ] && [ -s "$b" ] && "$ud" diff -f json -o "$out" "$a" "$b" 2>"$dir/diff.err"; then
		python3 "$dir/read.py" pair "$out"
	else
		printf 'pair %2d %-8s not diffed %s\n' "$k" "$kind" "$(head -1 "$dir/diff.err")"
	fi
	k=$((k + 1))
done
python3 "$dir/read.py" totals "$dir" "$*" "$gap"
