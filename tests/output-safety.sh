#!/bin/bash
# Issue 12's output, process and terminal reproducers, one check each: the
# exit status, the one-line message, and that nothing was written or left
# behind (no .NAME.XXXXXX temporary beside an output, no uarchdiff-* folder
# in TMPDIR, no helper process).  The refusals that need no setup (spec
# fields, -o "", stat -x "", raw codes, runs/copies, -w x,x, ...) are rows
# of tests/bad-inputs/cases.tsv.
#
#   tests/output-safety.sh UARCHDIFF
set -u
ud=$(realpath "$1")
golden=$(cd "$(dirname "$0")/golden" && pwd)
data=$(cd "$(dirname "$0")/data" && pwd)
perf=$data/perf-stat/oci-e5-genoa-fstime.txt
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
export TMPDIR=$dir/tmp
mkdir -p "$TMPDIR"
cd "$dir"
failed=0
esc=$'\e'
rlo=$'\xe2\x80\xae'

fail() {
	echo "FAIL $*"
	failed=$((failed + 1))
}

# status WANT: the last command's exit status ($rc) is WANT.
# oneline TEXT: err holds exactly one line, containing TEXT.
# clean: no temporary beside the outputs, nothing in TMPDIR.
status() { [[ $rc -eq $1 ]] || fail "$name: exit $rc, want $1; stderr: $(head -c 300 err)"; }
oneline() {
	[[ $(wc -l <err) -eq 1 ]] || fail "$name: want one line on stderr, got: $(cat err)"
	grep -qF -- "$1" err || fail "$name: stderr lacks '$1': $(cat err)"
}
clean() {
	local left
	left=$(ls -A "$dir" | grep -E '^\..*\.[A-Za-z0-9]{6}$')
	[[ -z $left ]] || fail "$name: temporary left: $left"
	[[ -z $(ls -A "$TMPDIR") ]] || fail "$name: left in TMPDIR: $(ls -A "$TMPDIR")"
}

# --- 4: stat -o FIFO: the reader gets the report; no reader is refused, not waited for
name=stat-fifo-reader
mkfifo fifo
timeout 10 cat fifo >got &
timeout 10 "$ud" stat -o fifo -- true 2>err
rc=$?
wait
status 0
grep -q "Performance counter stats for 'true'" got || fail "$name: the reader got: $(cat got)"
clean
name=stat-fifo-no-reader
timeout 10 "$ud" stat -o fifo -- true 2>err
rc=$?
status 1
oneline "fifo: cannot write: a FIFO with no reader"
rm -f fifo got
clean

# --- 15: a failed write names the path, status 1 in every command
for cmd in "stat -o /dev/full -- true" "diff -o /dev/full $golden/e5.json $golden/e6.json" \
	"compare -o /dev/full $golden/e5.json $golden/e6.json" "import -o /dev/full $perf"; do
	name="write-failed: ${cmd%% *}"
	$ud $cmd >out 2>err
	rc=$?
	status 1
	oneline "/dev/full: write failed: No space left on device"
done
name=stdout-full
"$ud" workloads >/dev/full 2>err
rc=$?
status 1
oneline "uarchdiff workloads: standard output: write failed"
rm -f out

# --- 7: -o keeps an existing file's mode, refuses a read-only one, writes through a symlink
# (its permission bits: a set-user-ID bit is not carried over, issue 25)
for modes in 600:600 4755:755; do
	name="keeps-mode ${modes%:*}"
	echo old >private.json
	chmod "${modes%:*}" private.json
	"$ud" import -o private.json "$perf" 2>err
	rc=$?
	status 0
	[[ $(stat -c %a private.json) == "${modes#*:}" ]] || fail "$name: mode became $(stat -c %a private.json)"
	clean
done
name=read-only-refused
echo old >ro.json
chmod 444 ro.json
"$ud" import -o ro.json "$perf" 2>err
rc=$?
status 2
oneline "ro.json: read-only file: not replaced"
[[ $(cat ro.json) == old ]] || fail "$name: the read-only file was replaced"
clean
name=symlink-written-through
echo old >target.json
ln -s target.json link.json
"$ud" import -o link.json "$perf" 2>err
rc=$?
status 0
[[ -L link.json ]] || fail "$name: the symlink was replaced by a file"
grep -q uarchdiff.profile/1 target.json || fail "$name: the target was not written"
clean
name=dangling-symlink-refused
ln -s nowhere.json dangling.json
"$ud" import -o dangling.json "$perf" 2>err
rc=$?
status 2
oneline "dangling.json: a symbolic link to a file that does not exist"
[[ ! -e nowhere.json ]] || fail "$name: wrote the link's target"
clean
rm -f private.json ro.json target.json link.json dangling.json

# --- 8: run --json -o FILE writes FILE, not stdout
name=run-json-output
"$ud" run -w int --suite quick -r 1 --json -o run.json >out 2>err
rc=$?
status 0
[[ ! -s out ]] || fail "$name: wrote on stdout"
grep -q '"schema": "uarchdiff.profile/1"' run.json || fail "$name: run.json is not the profile"
clean
rm -f run.json out

# --- 6: a workload whose temporary directory cannot be made fails alone
name=no-tmpdir
TMPDIR=$dir/missing "$ud" run -w int,fp --suite quick -r 1 -o p.json >out 2>err
rc=$?
status 1
[[ $(grep -c '"outcome": "failed: .*cannot make a temporary directory' p.json) -eq 2 ]] ||
	fail "$name: both workloads should be recorded as failed: $(grep outcome p.json)"
clean
rm -f p.json out

# Specs for the process checks: a slow one to signal, one that reads stdin,
# one that leaves a setsid() helper behind.
mkdir specs
cat >slow.sh <<'EOF'
#!/bin/sh
echo started >>"$1.slow"
sleep 3
echo "score 1"
EOF
cat >reader.sh <<'EOF'
#!/bin/sh
read -r line
echo "score 1"
EOF
cat >daemon.sh <<'EOF'
#!/bin/sh
setsid sleep 300 >/dev/null 2>&1 &
echo $! >"$1"
echo "score 1"
EOF
chmod +x slow.sh reader.sh daemon.sh
for s in slow reader daemon; do
	printf 'name = %s\ncommand = %s/%s.sh ${PIDFILE}\nscore = ^score ([0-9]+)$\nunits = x\ntimeout = 5\n' \
		"$s" "$dir" "$s" >specs/$s.spec
done
export UARCHDIFF_WORKLOADS_DIR=$dir/specs PIDFILE=$dir/helper.pid

# --- 5: SIGTERM, SIGHUP (and SIGINT) save what was measured, marked incomplete.
# Rounds are shuffled: the signal comes when slow starts its second sample,
# so the first round, int's sample included, is over.
for sig in TERM HUP INT USR1 ALRM XCPU PIPE; do
	name=run-sig$sig
	rm -f "$PIDFILE.slow"
	"$ud" run -w int,slow,fp --suite quick -r 2 -o sig.json >out 2>err &
	pid=$!
	for _ in $(seq 100); do
		[ "$(cat "$PIDFILE.slow" 2>/dev/null | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
	sleep 0.3
	kill -$sig $pid
	wait $pid
	rc=$?
	status 1
	grep -qF "interrupted (SIG$sig): saving the" err || fail "$name: $(cat err)"
	grep -q '"incomplete": true' sig.json || fail "$name: the profile is not marked incomplete"
	grep -q '"name": "int"' sig.json || fail "$name: the measured workload was lost"
	pgrep -f "$dir/slow.sh" >/dev/null && fail "$name: the workload's program survived"
	clean
	rm -f sig.json out
done

# ----- issue 25's signals, saves and children -----
cat >wait.sh <<'EOF'
#!/bin/sh
echo started >>"$1.wait"
sleep 1000
EOF
chmod +x wait.sh
printf 'name = waiter\ncommand = %s/wait.sh ${PIDFILE}\nscore = ^score ([0-9]+)$\nunits = x\ntimeout = 20\n' "$dir" \
	>specs/waiter.spec
# wait_started: until wait.sh has started (5 s at most)
wait_started() {
	for _ in $(seq 50); do
		[ -s "$PIDFILE.wait" ] && return
		sleep 0.1
	done
}

# 2: `run 2>&1 | head -1`: SIGPIPE at the next line stops the run like SIGINT, the profile saved, nothing left
name=run-sigpipe
mkdir pipe && cd pipe || exit 1
"$ud" run -w int,slow --suite quick -r 1 2>&1 | head -1 >/dev/null
rc=${PIPESTATUS[0]}
cd "$dir" || exit 1
status 1
prof=$(ls pipe/*.json 2>/dev/null | head -1)
[[ -n $prof ]] || fail "$name: no profile saved: $(ls -A pipe)"
[[ -n $prof ]] && { grep -q '"incomplete": true' "$prof" || fail "$name: the profile is not marked incomplete"; }
clean
rm -rf pipe

# 3: a stop before anything was measured writes nothing: an existing profile is left as it was
for target in keep.json ""; do
	name="run-nothing-measured${target:+ -o $target}"
	rm -f "$PIDFILE.wait"
	cp "$golden/e5.json" keep.json
	mkdir nm && cd nm || exit 1
	"$ud" run -w waiter -r 1 ${target:+-o ../$target} >../out 2>../err &
	pid=$!
	cd "$dir" || exit 1
	wait_started
	kill -INT $pid
	wait $pid
	rc=$?
	status 1
	grep -qF "interrupted (SIGINT) before any workload was measured: no profile written${target:+ (../keep.json is left as it was)}" err ||
		fail "$name: $(cat err)"
	cmp -s keep.json "$golden/e5.json" || fail "$name: the existing profile was replaced"
	[[ -z $(ls -A nm) ]] || fail "$name: wrote $(ls -A nm)"
	pgrep -f "$dir/wait.sh" >/dev/null && fail "$name: the workload's program survived"
	clean
	rm -rf nm keep.json out
done

# 13: SIGKILL of run: its children die with it (the spec's program too), the guard removes TMPDIR's folders
name=run-sigkill
rm -f "$PIDFILE.wait"
"$ud" run -w waiter -r 1 -o k.json >out 2>err &
pid=$!
wait_started
[[ -n $(ls -A "$TMPDIR") ]] || fail "$name: the workload's folder was not made"
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 50); do
	pgrep -f "$dir/wait.sh" >/dev/null || [[ -n $(ls -A "$TMPDIR") ]] || break
	sleep 0.1
done
pgrep -f "$dir/wait.sh" >/dev/null && fail "$name: the spec's program outlived run (its 20 s timeout too)"
pkill -f "$dir/wait.sh"
clean
rm -f k.json out

# 13b: SIGKILL of run while its spec's program has a setsid() helper: the helper dies too (issue 36)
name=run-sigkill-setsid
cat >waitd.sh <<'EOF'
#!/bin/sh
setsid sleep 301 >/dev/null 2>&1 &
echo $! >"$1.helper"
echo started >>"$1.wait"
sleep 1000
EOF
chmod +x waitd.sh
printf 'name = waiterd\ncommand = %s/waitd.sh ${PIDFILE}\nscore = ^score ([0-9]+)$\nunits = x\ntimeout = 20\n' \
	"$dir" >specs/waiterd.spec
rm -f "$PIDFILE.wait" "$PIDFILE.helper"
"$ud" run -w waiterd -r 1 -o k.json >out 2>err &
pid=$!
wait_started
helper=$(cat "$PIDFILE.helper" 2>/dev/null)
[[ -n $helper ]] || fail "$name: the helper did not start"
kill -KILL $pid
wait $pid 2>/dev/null
# the parent-death signal and the kills after it take a moment: waited for (20 s at most), not a bound on speed
for _ in $(seq 200); do
	[[ -n $helper ]] && kill -0 "$helper" 2>/dev/null || break
	sleep 0.1
done
if [[ -n $helper ]] && kill -0 "$helper" 2>/dev/null; then
	fail "$name: the setsid() helper $helper outlived a SIGKILL of run"
	kill "$helper"
fi
pkill -f "$dir/waitd.sh"
for _ in $(seq 50); do [[ -n $(ls -A "$TMPDIR") ]] || break; sleep 0.1; done
clean
rm -f k.json out "$PIDFILE.helper"

# 4: -o on a full disk: the summary is printed and the profile goes to a named file in TMPDIR
name=run-enospc
"$ud" run -w int --suite quick -r 1 -o /dev/full >out 2>err
rc=$?
status 1
grep -qF "/dev/full: write failed: No space left on device; the profile was saved in $TMPDIR/uarchdiff-profile-" err ||
	fail "$name: $(cat err)"
saved=$(sed -n 's/.*saved in \(.*\) instead$/\1/p' err)
if [[ -n $saved ]]; then
	grep -q '"name": "int"' "$saved" || fail "$name: the fallback $saved does not hold the profile"
	grep -qF "profile: $saved" out || fail "$name: the summary does not name the fallback"
	rm -f "$saved"
fi
grep -q "^int " out || fail "$name: the summary was not printed: $(cat out)"
clean
name=run-enospc-no-fallback
TMPDIR=$dir/missing "$ud" run -w int --suite quick -r 1 -o /dev/full >out 2>err
rc=$?
status 1
grep -qF "/dev/full: write failed: No space left on device; nor could it go to TMPDIR ($dir/missing/uarchdiff-profile-" err ||
	fail "$name: $(cat err)"
grep -qF "the profile of 1 workload is lost" err || fail "$name: the message does not say what was lost: $(cat err)"
grep -q "^int " out || fail "$name: the summary was not printed"
rm -f out

# the default name replaces nothing, and a hostname can neither make it a path nor drive the terminal
if [[ $(id -u) -eq 0 ]] && command -v unshare >/dev/null; then
	name=run-default-name
	mkdir dn && cd dn || exit 1
	# hostname(1) refuses such a name; the kernel takes any bytes
	unshare --uts sh -c "printf '../ev${esc}[31m${rlo}\\377' >/proc/sys/kernel/hostname && '$ud' run -w int --suite quick -r 1" \
		>../out 2>../err
	rc=$?
	cd "$dir" || exit 1
	status 0
	grep -q "$esc" out && fail "$name: a raw ESC from the hostname reached the terminal"
	grep -q "$rlo" out && fail "$name: a raw U+202E from the hostname reached the terminal"
	made=$(ls dn)
	[[ $made == _._ev__31m____-*.json ]] || fail "$name: the file is named '$made'"
	# a byte that is not UTF-8 (\377) must not cost the profile its label
	grep -q '"label": "../ev\\u001B\[31m\\u202E?"' dn/*.json || fail "$name: label: $(grep '"label"' dn/*.json)"
	rm -rf dn out
else
	echo "SKIPPED: run-default-name: needs root and unshare to set a hostname"
fi
name=run-default-name-taken
mkdir dn2 && cd dn2 || exit 1
"$ud" run -w int --suite quick -r 1 >/dev/null 2>&1
first=$(ls)
echo precious >"$first"
"$ud" run -w int --suite quick -r 1 >../out 2>../err
rc=$?
cd "$dir" || exit 1
status 0
[[ $(cat "dn2/$first") == precious ]] || fail "$name: a second run replaced $first"
[[ $(ls dn2 | wc -l) -eq 2 ]] || fail "$name: $(ls dn2)"
rm -rf dn2 out

# 14: spec programs: ${TMPDIR} with a blank is one argument, a relative TMPDIR works, signals are
# named, partial numbers refused, endless output stopped at the cap
cat >argc.sh <<'EOF'
#!/bin/sh
[ $# -eq 1 ] && [ -d "$1" ] && case $1 in /*) echo "score 1";; esac
EOF
cat >segv.sh <<'EOF'
#!/bin/sh
kill -SEGV $$
EOF
chmod +x argc.sh segv.sh
mkdir specs14
printf 'name = argc\ncommand = %s/argc.sh ${TMPDIR}\nscore = ^score ([0-9]+)$\nunits = x\n' "$dir" >specs14/argc.spec
printf 'name = segv\ncommand = %s/segv.sh\nscore = ^score ([0-9]+)$\nunits = x\n' "$dir" >specs14/segv.spec
printf 'name = comma\ncommand = echo score 1234,56\nscore = ^score ([0-9.,]+)$\nunits = x\n' >specs14/comma.spec
printf 'name = chatty\ncommand = yes\nscore = ^score ([0-9]+)$\nunits = x\n' >specs14/chatty.spec
mkdir "$dir/my tmp" reltmp
for t in "$dir/my tmp" reltmp; do
	name="spec TMPDIR '$t'"
	UARCHDIFF_WORKLOADS_DIR=$dir/specs14 TMPDIR=$t "$ud" run -w argc -r 1 -o argc.json >out 2>err
	rc=$?
	status 0
	grep -q '"outcome": "ok"' argc.json || fail "$name: $(grep outcome argc.json)"
	[[ -z $(ls -A "$t") ]] || fail "$name: left $(ls -A "$t")"
done
name="spec outcomes"
UARCHDIFF_WORKLOADS_DIR=$dir/specs14 timeout 60 "$ud" run -w segv,comma,chatty -r 1 -o o14.json >out 2>err
rc=$?
status 1
grep -qF 'segv.sh was killed by signal 11 (SIGSEGV)' o14.json || fail "$name: segv: $(grep outcome o14.json)"
grep -qF "comma: its score '1234,56' is not a number" o14.json || fail "$name: comma: $(grep outcome o14.json)"
grep -qF 'chatty: its output passed the 64 MiB limit: stopped' o14.json ||
	fail "$name: chatty: $(grep outcome o14.json)"
clean
rm -rf specs14 "$dir/my tmp" reltmp argc.json o14.json out argc.sh segv.sh

# --- 13: an external program's stdin is /dev/null, not uarchdiff's
name=spec-stdin
mkfifo hold
sleep 30 >hold &
holder=$!
"$ud" run -w reader -r 1 -o reader.json <hold >out 2>err
rc=$?
kill $holder
wait $holder 2>/dev/null
rm -f hold
status 0
grep -q '"outcome": "ok"' reader.json || fail "$name: the program waited on uarchdiff's stdin: $(cat err)"
clean
rm -f reader.json out

# --- 13: a helper that left the process group with setsid() is killed
name=spec-setsid-helper
"$ud" run -w daemon -r 1 -o daemon.json >out 2>err
rc=$?
status 0
helper=$(cat helper.pid 2>/dev/null)
[[ -n $helper ]] || fail "$name: the helper did not start"
if [[ -n $helper ]] && kill -0 "$helper" 2>/dev/null; then
	fail "$name: the setsid() helper $helper survived"
	kill "$helper"
fi
clean
rm -f daemon.json out helper.pid
unset UARCHDIFF_WORKLOADS_DIR

# every_format PROFILE CHECK WHAT: diff and compare of e5 against PROFILE in every format, exit 0, the
# output in out, then CHECK (a function) on it, failures named "WHAT: CMD -f FORMAT"
every_format() {
	for cmd in diff compare; do
		for f in text md html json; do
			name="$3: $cmd -f $f"
			"$ud" $cmd -f $f "$golden/e5.json" "$1" >out 2>err
			rc=$?
			status 0
			$2
		done
	done
}

# --- 12: an incomplete profile is named in every format of diff and compare
sed '1s/{/{"incomplete": true,/' "$golden/e6.json" >inc.json
says_incomplete() { grep -q 'incomplete' out || fail "$name: no word of it"; }
every_format inc.json says_incomplete incomplete
rm -f inc.json out

# --- 14: control characters from input reach the terminal as \xHH
name=escape-spec-what
mkdir escspec
printf 'name = esc\nwhat = evil %s[31mred\ncommand = true\nscore = ^([0-9]+)$\nunits = x\n' "$esc" >escspec/e.spec
UARCHDIFF_WORKLOADS_DIR=$dir/escspec "$ud" workloads >out 2>err
grep -qF 'evil \x1b[31mred' out || fail "$name: $(grep esc out)"
grep -q "$esc" out && fail "$name: a raw escape reached the output"
name=escape-cpuinfo-model
sed "s/^model name.*/model name\t: evil ${esc}[31mred/" "$data/cpuinfo/kvm-amd-epyc-family25-model17.txt" >cpuinfo
"$ud" host --cpuinfo cpuinfo >out 2>err
grep -qF 'evil \x1b[31mred' out || fail "$name: $(grep -i model out)"
grep -q "$esc" out && fail "$name: a raw escape reached the output"
name=escape-event-title
mkdir events
sed "s/^title.*/title \"evil ${esc}[31mred\"/" "$data/../../events/generic" >events/generic
UARCHDIFF_EVENTS_DIR=$dir/events "$ud" events --uarch generic >out 2>err
grep -qF 'evil \x1b[31mred' out || fail "$name: $(head -1 out) $(cat err)"
grep -q "$esc" out && fail "$name: a raw escape reached the output"
name=escape-event-name
"$ud" stat -e "evil${esc}[31mred" -- true >out 2>err
grep -qF 'evil\x1b[31mred' err || fail "$name: $(cat err)"
grep -q "$esc" err && fail "$name: a raw escape reached the terminal"
rm -rf escspec cpuinfo events out err

# ===== issue 25 =====

# --- 7: control bytes and bidirectional overrides from a profile reach no output raw, in any format
rlo=$'\xe2\x80\xae'
sed "s/\"label\": \"OCI E6 (Turin)\"/\"label\": \"evil\\\\u001b[31m${rlo}\\\\u0080x\"/" "$golden/e6.json" >evil.json
grep -q 'evil' evil.json || fail "escape setup: the label was not planted"
shows_no_control() {
	grep -q "$esc" out && fail "$name: a raw ESC reached the output"
	grep -q "$rlo" out && fail "$name: a raw U+202E reached the output"
	grep -q $'\xc2\x80' out && fail "$name: a raw C1 control reached the output"
	grep -q 'evil' out || fail "$name: the label is not shown at all"
}
every_format evil.json shows_no_control escape-label
name="escape-label: json reads back"
"$ud" diff -f json "$golden/e5.json" evil.json >out 2>err
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if "\u202e" in json.dumps(d, ensure_ascii=False) else 1)' out ||
	fail "$name: the escaped label does not read back as the same string"
rm -f out err evil.json

# --- 11: output lost on stdout or stderr is exit 1 with one line (where stderr still takes one)
for cmd in "help" "help run" "--version" "workloads" "diff $golden/e5.json $golden/e6.json"; do
	name="stdout-full: $cmd"
	$ud $cmd >/dev/full 2>err
	rc=$?
	status 1
	oneline "standard output: write failed: No space left on device"
	name="stdout-closed: $cmd"
	$ud $cmd >&- 2>err
	rc=$?
	status 1
	oneline "standard output: write failed: Bad file descriptor"
done
name="run: summary to a full stdout"
"$ud" run -w int --suite quick -r 1 -o p.json >/dev/full 2>err
rc=$?
status 1
grep -q "uarchdiff run: standard output: write failed: No space left on device" err || fail "$name: $(cat err)"
[[ -s p.json ]] || fail "$name: the profile was not written"
rm -f p.json
# A warning that cannot be written: the status says so.
cp "$golden/e6.json" same.json
printf '{' >cut.json # a profile cut short: left out with a warning (a missing path is an error)
for redirect in "2>/dev/full" "2>&-"; do
	name="stderr lost ($redirect): compare's warning"
	eval "\"\$ud\" compare -o c.txt \"\$golden/e5.json\" same.json cut.json $redirect"
	rc=$?
	status 1
	[[ -s c.txt ]] || fail "$name: the report was not written"
	rm -f c.txt
done
rm -f same.json cut.json
name="stderr closed: no file takes its place"
"$ud" import -o imp.json "$perf" 2>&-
rc=$?
status 0
grep -q 'uarchdiff' imp.json || fail "$name: the profile is not what was written"
rm -f imp.json

# --- 6: another user's link in a sticky world-writable folder is not followed (fs.protected_symlinks' rule)
if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null; then
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	chmod 755 "$dir"
	mkdir -p sticky rootdir
	chmod 1777 sticky
	echo precious >rootdir/target.html
	chmod 644 rootdir/target.html
	as_nobody ln -s "$dir/rootdir/target.html" sticky/report.html
	as_nobody ln -s "$dir/rootdir" sticky/dirlink
	for out in sticky/report.html sticky/dirlink/target.html; do
		name="sticky-link: $out"
		"$ud" diff -f html -o "$out" "$golden/e5.json" "$golden/e6.json" >o 2>err
		rc=$?
		status 2
		oneline "a symbolic link owned by uid $(id -u nobody) in a sticky world-writable folder"
		[[ $(cat rootdir/target.html) == precious ]] || fail "$name: the link's target was replaced"
		[[ -L sticky/report.html ]] || fail "$name: the planted link was replaced"
	done
	name="sticky-link: the caller's own link is followed"
	ln -s "$dir/rootdir/target.html" sticky/mine.html
	"$ud" diff -f html -o sticky/mine.html "$golden/e5.json" "$golden/e6.json" 2>err
	rc=$?
	status 0
	grep -q '<html' rootdir/target.html || fail "$name: the target was not written"
	name="sticky-link: nobody's link to nobody's file, followed for nobody"
	as_nobody sh -c "echo theirs >sticky/theirs.txt && ln -s $dir/sticky/theirs.txt sticky/theirs-link.txt"
	as_nobody "$ud" import -o sticky/theirs-link.txt "$perf" 2>err
	rc=$?
	status 0
	grep -q uarchdiff.profile/1 sticky/theirs.txt || fail "$name: not written through: $(cat err)"
	# issue 36: the same rule for what is at the path itself, as fs.protected_fifos and protected_regular
	name="sticky: another user's FIFO, with their reader, is not written"
	as_nobody mkfifo -m 666 sticky/feed
	as_nobody timeout 10 cat sticky/feed >got &
	sleep 0.2 # so that the reader is likely there on a build that writes to it; the refusal does not depend on it
	"$ud" diff -f json -o sticky/feed "$golden/e5.json" "$golden/e6.json" >o 2>err
	rc=$?
	status 2
	oneline "sticky/feed: a FIFO owned by uid $(id -u nobody) in a sticky world-writable folder"
	grep -qF "pick another path" err || fail "$name: no advice: $(cat err)"
	timeout 5 sh -c 'echo done >sticky/feed' # ends the reader if the report did not
	wait
	grep -q uarchdiff got && fail "$name: the FIFO's reader got the report"
	name="sticky: another user's 0666 file is not replaced"
	as_nobody sh -c 'echo theirs >sticky/planted.json && chmod 666 sticky/planted.json'
	"$ud" diff -f json -o sticky/planted.json "$golden/e5.json" "$golden/e6.json" >o 2>err
	rc=$?
	status 2
	oneline "sticky/planted.json: a file owned by uid $(id -u nobody) in a sticky world-writable folder"
	[[ $(cat sticky/planted.json) == theirs ]] || fail "$name: replaced"
	name="another user's 0666 file elsewhere: replaced without its world-writable bits"
	echo theirs >rootdir/theirs.json
	chmod 666 rootdir/theirs.json
	chown nobody rootdir/theirs.json
	(umask 022 && "$ud" diff -f json -o rootdir/theirs.json "$golden/e5.json" "$golden/e6.json") 2>err
	rc=$?
	status 0
	[[ $(stat -c %a rootdir/theirs.json) == 644 ]] || fail "$name: mode $(stat -c %a rootdir/theirs.json)"
	rm -rf sticky rootdir o got
	chmod 700 "$dir"
else
	echo "SKIPPED: sticky-link: needs root and setpriv to plant another user's link"
fi

# --- 12: a file-size limit fails the write with a message, exit 1, no temporary, the old file intact
name=ulimit-f
echo old >r.html
(ulimit -f 8; "$ud" diff -f html -o r.html "$golden/e5.json" "$golden/e6.json") 2>err
rc=$?
status 1
oneline "r.html: write failed: File too large"
[[ $(cat r.html) == old ]] || fail "$name: the old file was not kept"
clean
rm -f r.html

# --- 15: Markdown shows paths as text, not code spans holding escapes; every HTML link has its anchor
mkdir -p 'we<ird_dir'
cp "$golden/e5.json" 'we<ird_dir/a*b.json'
for cmd in diff compare; do
	name="md-path: $cmd"
	"$ud" $cmd -f md 'we<ird_dir/a*b.json' "$golden/e6.json" >out 2>err
	grep -qF 'we\<ird\_dir/a\*b.json' out || fail "$name: the path is not escaped text: $(grep -F 'ird' out | head -2)"
	grep -qF '`we' out && fail "$name: the path is in a code span: $(grep -F 'ird' out | head -1)"
done
rm -rf 'we<ird_dir'
name=html-links
cp "$golden/e6.json" e6-again.json # one host's profile twice is refused: two hosts with one label
"$ud" compare -f html -o c.html "$golden/e5.json" "$golden/e6.json" e6-again.json 2>err
"$ud" diff -f html -o d.html "$golden/e5.json" "$golden/e6.json" 2>>err
for f in c.html d.html; do
	python3 - "$f" <<'PY' || fail "$name: $f has a link to an anchor it lacks"
import re, sys
t = open(sys.argv[1]).read()
ids = set(re.findall(r'\bid="([^"]+)"', t))
missing = sorted(set(h for h in re.findall(r'href="#([^"]*)"', t) if h not in ids))
if missing:
    print("missing anchors:", missing)
    sys.exit(1)
PY
done
rm -f c.html d.html e6-again.json out err

# ----- issue 25's stat items (after issue 22's stat) -----
# 11: stat's report lost on a full or closed stderr is exit 1
for redirect in "2>/dev/full" "2>&-"; do
	name="stat: report lost ($redirect)"
	eval "\"\$ud\" stat -- true $redirect"
	rc=$?
	status 1
done

# 15: -x quotes a name that holds the separator: every row keeps its fields, and import reads it back
name="stat -x: a name holding the separator"
"$ud" stat -x , -e 'software/config=0,config1=0/,task-clock' -- true 2>x.csv
rc=$?
status 0
python3 -c 'import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
sys.exit(0 if len(rows) == 2 and all(len(r) == 7 for r in rows) and rows[0][2] == "software/config=0,config1=0/" else 1)' x.csv ||
	fail "$name: $(cat x.csv)"
"$ud" import -o x.json x.csv 2>err || fail "$name: import: $(cat err)"
grep -qF '"software/config=0,config1=0/"' x.json || fail "$name: import did not read the name back"
rm -f x.csv x.json

# 7: stat --hotspots shows an ELF symbol's name, never obeys it
name="stat --hotspots: a symbol holding ESC and U+202E"
cat >evilsym.c <<'EOF'
__attribute__((noinline)) unsigned long spin(unsigned long n) __asm__("\"spin\033[31m\342\200\256red\"");
unsigned long spin(unsigned long n)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < n; i++)
		x += i;
	return x;
}
int main(int argc, char **argv) { (void)argv; return (int)(spin(400000000UL * (unsigned long)argc) & 1); }
EOF
if cc -O1 -o evilsym evilsym.c 2>/dev/null; then
	"$ud" stat --hotspots -- ./evilsym 2>err
	grep -qF 'spin\x1b[31m\xe2\x80\xaered' err || fail "$name: the symbol is not shown: $(grep -a spin err)"
	grep -q "$esc" err && fail "$name: a raw ESC reached the terminal"
	grep -q "$rlo" err && fail "$name: a raw U+202E reached the terminal"
else
	echo "SKIPPED: $name: cc cannot build the program"
fi
rm -f evilsym evilsym.c

# 8: an ordinary user at perf_event_paranoid=2 counts what the kernel allows, user mode (:u), as perf does
if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null && [[ $(cat /proc/sys/kernel/perf_event_paranoid) -ge 2 ]]; then
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	chmod 755 "$dir"
	mkdir -p nb && chmod 777 nb
	name="paranoid 2: stat as nobody"
	as_nobody "$ud" stat -e task-clock,context-switches,page-faults -- true 2>err
	rc=$?
	status 0
	for e in task-clock:u context-switches:u page-faults:u; do
		grep -Eq "^ +[0-9][0-9.,]* +(msec )?$e( |$)" err || fail "$name: $e not counted: $(cat err)"
	done
	if command -v perf >/dev/null; then
		as_nobody perf stat -e task-clock,context-switches,page-faults true 2>perf.err
		for e in task-clock:u context-switches:u page-faults:u; do
			grep -q " $e" perf.err || fail "$name: perf does not name $e: $(cat perf.err)"
		done
	fi
	name="paranoid 2: run as nobody"
	(cd nb && as_nobody env TMPDIR="$dir/nb" "$ud" run -w int --suite quick -r 1 -o p.json >../out 2>../err)
	rc=$?
	status 0
	grep -q 'user mode only: counters are named :u' err || fail "$name: $(cat err)"
	grep -q '"task-clock:u": {' nb/p.json && grep -A3 '"task-clock:u": {' nb/p.json | grep -q '"counted"' ||
		fail "$name: task-clock:u not counted"
	name="paranoid 2: run with no counter it may open"
	(cd nb && as_nobody env TMPDIR="$dir/nb" "$ud" run -w int --suite quick -r 1 -e task-clock:k -o k.json >../out 2>../err)
	rc=$?
	status 1
	grep -q 'no counter could be opened (task-clock:k: perf_event_paranoid=' err || fail "$name: $(cat err)"
	grep -q '"name": "int"' nb/k.json || fail "$name: the scores were not kept"
	rm -rf nb out perf.err
	chmod 700 "$dir"
else
	echo "SKIPPED: paranoid 2: needs root, setpriv and perf_event_paranoid >= 2 to count as another user"
fi

# --- issue 34: a signal whose default would kill `stat` stops counting, goes to
# the command, and the report prints, perf's exit status being the command's.
printf '#!/bin/sh\necho $$ >"$1"\nexec sleep 1000\n' >stat-wait.sh
chmod +x stat-wait.sh
for sig in USR1 USR2 ALRM TERM HUP PIPE; do
	name=stat-sig$sig
	rm -f stat-started
	"$ud" stat -e task-clock -- "$dir/stat-wait.sh" "$dir/stat-started" >out 2>err &
	pid=$!
	for _ in $(seq 100); do
		[ -s stat-started ] && break
		sleep 0.1
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	# the command got the signal (a closed pipe is uarchdiff's own, so the command gets TERM)
	want=$((128 + $(kill -l $([ $sig = PIPE ] && echo TERM || echo $sig))))
	status $want
	grep -q ' task-clock ' err || fail "$name: no report: $(cat err)"
	kill -0 "$(cat stat-started)" 2>/dev/null && fail "$name: the command survived"
	rm -f out err
done

# --- issue 34: 30 concurrent `stat --append` writers keep 30 whole reports, as perf's O_APPEND does.
name=stat-append-30
rm -f appended.txt
printf 'kept before\n' >appended.txt
for _ in $(seq 30); do
	"$ud" stat -e task-clock -o appended.txt --append -- true 2>>err &
done
wait
[ "$(grep -c '^ Performance counter stats for' appended.txt)" -eq 30 ] ||
	fail "$name: $(grep -c '^ Performance counter stats for' appended.txt) reports of 30; stderr: $(head -c 300 err)"
[ "$(grep -c '^# started on' appended.txt)" -eq 30 ] || fail "$name: reports interleaved or lost"
[ "$(head -1 appended.txt)" = "kept before" ] || fail "$name: what the file held was lost"
rm -f appended.txt err

echo "output safety: $failed failed"
[[ $failed -eq 0 ]]
