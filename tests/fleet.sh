#!/bin/sh
# tests/fleet.sh UARCHDIFF SOURCE_DIR: the Ansible playbook
# (contrib/ansible/fleet.yml) profiles a fleet of three local "hosts" and
# compares them.
#
# Each host is ansible_connection=local with its own label and remote
# temporary folder; every host runs the build tree's binary (uarchdiff_bin)
# on one fast workload.  Run 1: the three profiles are fetched and the text
# and JSON reports name every host, against the chosen baseline.  Run 2
# (fleet_force, one host given a binary that does not exist): that host is
# reported by name as failed, its earlier profile is gone, and the other two
# are compared.  Run 3 (no force): the two profiled hosts are skipped, their
# profiles untouched; the failing one is tried again.
# Exit 77 (skipped) where ansible-playbook is missing.  UD_KEEP=1 keeps the
# temporary folder (inventory, logs run1-3.log, out/) and says where.
set -eu
ud=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "SKIP: ansible-playbook not found (Debian: apt-get install ansible-core)"
	exit 77
}
tmp=$(mktemp -d)
trap '[ -n "${UD_KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# Ansible keeps no state in the home folder and reads no ansible.cfg but ours.
mkdir -p "$tmp/local" "$tmp/remote" "$tmp/home"
cat >"$tmp/ansible.cfg" <<CFG
[defaults]
host_key_checking = False
retry_files_enabled = False
stdout_callback = default
interpreter_python = auto_silent
nocows = 1
CFG
export ANSIBLE_CONFIG="$tmp/ansible.cfg" ANSIBLE_HOME="$tmp/home" \
	ANSIBLE_LOCAL_TEMP="$tmp/local" ANSIBLE_REMOTE_TEMP="$tmp/remote" \
	ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0
unset UARCHDIFF_EVENTS_DIR UARCHDIFF_TEMPLATES_DIR UARCHDIFF_WORKLOADS_DIR

# The modules run under the Python ansible-playbook runs under (a python3
# first on PATH, say pyenv's, may lack what they import).
py=$(sed -n '1s/^#! *//p' "$(command -v ansible-playbook)" | cut -d' ' -f1)
case $py in */env | '') py=$(command -v python3) ;; esac

# inventory BETA_BIN: three local hosts; beta runs BETA_BIN.
inventory() {
	cat >"$tmp/inventory.yml" <<INV
fleet:
  vars:
    ansible_connection: local
    ansible_python_interpreter: $py
    uarchdiff_bin: "$ud"
    uarchdiff_workloads: [syscall]
    uarchdiff_repeat: 1
  hosts:
    alpha:
      uarchdiff_label: "Fleet Alpha"
      ansible_remote_tmp: "$tmp/remote/alpha"
      uarchdiff_remote_tmp: "$tmp/remote/alpha"
    beta:
      uarchdiff_label: "Fleet Beta"
      ansible_remote_tmp: "$tmp/remote/beta"
      uarchdiff_remote_tmp: "$tmp/remote/beta"
      uarchdiff_bin: "$1"
    gamma:
      uarchdiff_label: "Fleet Gamma"
      ansible_remote_tmp: "$tmp/remote/gamma"
      uarchdiff_remote_tmp: "$tmp/remote/gamma"
INV
	mkdir -p "$tmp/remote/alpha" "$tmp/remote/beta" "$tmp/remote/gamma"
}

# play LOG ARGS...: runs the playbook from another folder, output in LOG.
play() {
	log=$1
	shift
	(cd "$tmp" && ansible-playbook -i inventory.yml "$src/contrib/ansible/fleet.yml" \
		-e fleet_out=out -e uarchdiff_controller_bin="$ud" "$@") >"$tmp/$log" 2>&1
}

out=$tmp/out

# 1. Three hosts, gamma the baseline.
start=$(date +%s)
inventory "$ud"
play run1.log -e fleet_baseline=gamma || { cat "$tmp/run1.log"; fail "run 1: ansible-playbook exited $?"; }
for h in alpha beta gamma; do
	for f in profile.json host.json run.log; do
		[ -s "$out/$h/$f" ] || { cat "$tmp/run1.log"; fail "run 1: $h/$f not fetched"; }
	done
	grep -q '"syscall"' "$out/$h/profile.json" || fail "run 1: $h's profile has no syscall workload"
done
for f in compare.txt compare.json compare.html summary.txt; do
	[ -s "$out/$f" ] || { cat "$tmp/run1.log"; fail "run 1: $f not written"; }
done
for l in "Fleet Alpha" "Fleet Beta" "Fleet Gamma"; do
	grep -q "$l" "$out/compare.txt" || { cat "$out/compare.txt"; fail "run 1: compare.txt does not name $l"; }
	grep -q "$l" "$out/compare.html" || fail "run 1: compare.html does not name $l"
done
python3 - "$out/compare.json" <<'PY' || fail "run 1: compare.json"
import json, sys
d = json.load(open(sys.argv[1]))
labels = [p["label"] for p in d["profiles"]]
assert labels == ["Fleet Gamma", "Fleet Alpha", "Fleet Beta"], labels
assert [p["path"] for p in d["profiles"]] == ["gamma/profile.json", "alpha/profile.json", "beta/profile.json"]
assert len(d["diffs"]) == 2, len(d["diffs"])
PY
grep -q '^baseline: gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 1: summary baseline"; }
grep -q '^failed' "$out/summary.txt" && { cat "$out/summary.txt"; fail "run 1: a host reported failed"; }
echo "run 1: 3 hosts profiled and compared, baseline gamma ($(($(date +%s) - start)) s)"

# 2. beta's binary does not exist; fleet_force profiles all three again.
start=$(date +%s)
inventory /nonexistent/uarchdiff
cp "$out/gamma/profile.json" "$tmp/gamma-before.json"
rc=0
play run2.log -e fleet_force=true || rc=$?
[ "$rc" = 2 ] || { cat "$tmp/run2.log"; fail "run 2: ansible-playbook exited $rc, not 2 (a host failed)"; }
grep -q '^failed: beta: .*uarchdiff_bin /nonexistent/uarchdiff: no such file on beta$' "$out/summary.txt" ||
	{ cat "$out/summary.txt"; fail "run 2: summary.txt does not report beta failed with the reason"; }
grep -q 'no profile from: beta;' "$tmp/run2.log" || { cat "$tmp/run2.log"; fail "run 2: the play does not name beta"; }
grep -q 'beta FAILED: ' "$tmp/run2.log" || { cat "$tmp/run2.log"; fail "run 2: beta's failure not shown"; }
[ ! -e "$out/beta" ] || fail "run 2: beta's earlier profile was left to be compared"
cmp -s "$out/gamma/profile.json" "$tmp/gamma-before.json" && fail "run 2: fleet_force did not profile gamma again"
grep -q '^baseline: alpha$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 2: baseline not alpha"; }
grep -q '^compared: alpha gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 2: compared"; }
python3 - "$out/compare.json" <<'PY' || fail "run 2: compare.json"
import json, sys
d = json.load(open(sys.argv[1]))
labels = [p["label"] for p in d["profiles"]]
assert labels == ["Fleet Alpha", "Fleet Gamma"], labels
PY
grep -q 'Fleet Beta' "$out/compare.txt" && fail "run 2: compare.txt names the failed host"
grep -q 'Fleet Gamma' "$out/compare.txt" || fail "run 2: compare.txt does not name gamma"
echo "run 2: beta reported failed, alpha and gamma compared ($(($(date +%s) - start)) s)"

# 3. No force: alpha and gamma are skipped, beta is tried again.
start=$(date +%s)
cp "$out/gamma/profile.json" "$tmp/gamma-before.json"
rc=0
play run3.log || rc=$?
[ "$rc" = 2 ] || { cat "$tmp/run3.log"; fail "run 3: ansible-playbook exited $rc, not 2"; }
cmp -s "$out/gamma/profile.json" "$tmp/gamma-before.json" || fail "run 3: gamma was profiled again"
grep -q 'beta FAILED: ' "$tmp/run3.log" || { cat "$tmp/run3.log"; fail "run 3: beta was not tried again"; }
grep -q 'alpha FAILED\|gamma FAILED' "$tmp/run3.log" && fail "run 3: a skipped host failed"
grep -q '^compared: alpha gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 3: compared"; }
echo "run 3: alpha and gamma skipped (already fetched), beta tried again ($(($(date +%s) - start)) s)"
