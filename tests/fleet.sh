#!/bin/sh
# tests/fleet.sh UARCHDIFF SOURCE_DIR [packages]: the Ansible playbook
# (contrib/ansible/fleet.yml) profiles a fleet of three local "hosts" and
# compares them, then is made to meet what issue 25 found.
#
# Each host is ansible_connection=local with its own label and remote
# temporary folder; every host runs the build tree's binary (uarchdiff_bin)
# on one fast workload.  Run 1: the three profiles are fetched and the text
# and JSON reports name every host, against the chosen baseline.  Run 2
# (fleet_force, one host given a binary that does not exist): that host is
# reported by name as failed, its earlier profile is gone, and the other two
# are compared, against the largest group's median host, which summary.txt
# names as the reports do (issue 38).  Run 3 (no force): the two profiled hosts are skipped, their
# profiles untouched; the failing one is tried again.
# Run 4: gamma's profile cut short: gamma reported failed (its profile set
# aside), alpha and beta compared.  Run 5: gamma profiled again, not skipped
# as "already fetched"; fleet_group_by and fleet_all_hosts reach compare.
# Run 6: beta's profile of another workload: its group not comparable, so
# beta is reported failed and left out of the reports, the play exits 2.  Run 7: hosts named "..",
# "foo/../../bar", "compare.json", "delta\n" and "x\nfailed: forged" refused
# by name, escaped, nothing outside fleet_out removed.  Run 8: beta past
# uarchdiff_run_timeout: SIGTERM, its partial profile fetched and compared,
# nothing left running.  Run 9: fleet_out a folder of the user's: refused,
# untouched.  Run 10: a host folder the user made in fleet_out: refused, untouched.
# With `packages`, instead: run 0, the role's install task chosen by each host's facts (issue 38).
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

# inventory BETA_BIN [BETA_VARS [MORE_HOSTS]]: three local hosts; beta runs BETA_BIN, with BETA_VARS
# (YAML lines, indented six) added; MORE_HOSTS (YAML, indented four) after gamma.
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
${2:-}
    gamma:
      uarchdiff_label: "Fleet Gamma"
      ansible_remote_tmp: "$tmp/remote/gamma"
      uarchdiff_remote_tmp: "$tmp/remote/gamma"
${3:-}
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

# play_rc N WHY ARGS...: the next run (its number N), exiting with the status WHY says: "0 ..." or "2 ...".
play_rc() {
	n=$1 why=$2
	shift 2
	rc=0
	play "run$n.log" "$@" || rc=$?
	[ "$rc" = "${why%% *}" ] || { cat "$tmp/run$n.log"; fail "run $n: ansible-playbook exited $rc, not ${why%% *} (${why#* })"; }
}

# 0. Only with a third argument, `packages` (CTest fleet_packages), and then alone: kept apart from
# the ten runs below so as not to lengthen them.  The package step chosen by each host's facts
# (issue 38), the role's install.yml in --check mode on hosts whose facts are those Ansible gathers on Oracle Linux 9, Debian 12, Amazon Linux 2 and Alpine
# (made-up fact sets, with the names and families ansible-core's distribution and pkg_mgr collectors
# give: module_utils/facts/system/distribution.py's OS_FAMILY_MAP, pkg_mgr.py), read from a fact cache.
# Which install task each host skips or runs is the check: the modules themselves cannot install here
# (apt refuses the made-up .deb, dnf and yum are not on this host), and a host stops at its first.
if [ "${3:-}" = packages ]; then
start=$(date +%s)
mkdir -p "$tmp/facts" "$tmp/pkg"
fact() { # HOST DISTRIBUTION MAJOR FAMILY PKG_MGR
	printf '{"ansible_distribution": "%s", "ansible_distribution_major_version": "%s", "ansible_os_family": "%s", "ansible_pkg_mgr": "%s"}\n' \
		"$2" "$3" "$4" "$5" >"$tmp/facts/$1"
}
fact ol9 OracleLinux 9 RedHat dnf
fact debian12 Debian 12 Debian apt
fact amzn2 Amazon 2 RedHat yum
fact alpine3 Alpine 3 Alpine apk
echo made-up >"$tmp/pkg/uarchdiff_0.1.0_amd64.deb" && echo made-up >"$tmp/pkg/uarchdiff-0.1.0-1.x86_64.rpm"
cat >"$tmp/pkg/inventory.yml" <<INV
pkgs:
  vars:
    ansible_connection: local
    ansible_python_interpreter: $py
    uarchdiff_deb: $tmp/pkg/uarchdiff_0.1.0_amd64.deb
    uarchdiff_rpm: $tmp/pkg/uarchdiff-0.1.0-1.x86_64.rpm
  hosts:
    ol9:
    debian12:
    amzn2:
    alpine3:
    ol9_nodeb:
      uarchdiff_rpm: ""
INV
cp "$tmp/facts/ol9" "$tmp/facts/ol9_nodeb"
cat >"$tmp/pkg/install.yml" <<YML
- hosts: pkgs
  gather_facts: false
  tasks:
    - ansible.builtin.set_fact:
        uarchdiff_work: {path: $tmp/pkg}
    - ansible.builtin.import_role:
        name: uarchdiff_fleet
        tasks_from: install.yml
YML
(cd "$tmp/pkg" && ANSIBLE_CACHE_PLUGIN=jsonfile ANSIBLE_CACHE_PLUGIN_CONNECTION="$tmp/facts" \
	ANSIBLE_ROLES_PATH="$src/contrib/ansible/roles" ansible-playbook --check -i inventory.yml install.yml) \
	>"$tmp/run0.log" 2>&1 || true
# task TITLE: the hosts' lines under that task's header
task() { awk -v t="$1" 'index($0, "TASK [") == 1 { on = index($0, t) > 0; next } on' "$tmp/run0.log"; }
task 'Install the .deb with apt' >"$tmp/apt.txt"
task 'Install the .rpm with dnf' >"$tmp/dnf.txt"
task 'Install the .rpm with yum' >"$tmp/yum.txt"
for want in 'skipping: \[ol9\]' 'skipping: \[amzn2\]'; do grep -q "$want" "$tmp/apt.txt" || { cat "$tmp/run0.log"; fail "run 0: apt: not $want"; }; done
grep -q '\[debian12\]' "$tmp/apt.txt" && ! grep -q 'skipping: \[debian12\]' "$tmp/apt.txt" || { cat "$tmp/run0.log"; fail "run 0: debian12's apt task skipped"; }
grep -q '\[ol9\]' "$tmp/dnf.txt" && ! grep -q 'skipping: \[ol9\]' "$tmp/dnf.txt" || { cat "$tmp/run0.log"; fail "run 0: ol9's dnf task skipped"; }
grep -q 'skipping: \[amzn2\]' "$tmp/dnf.txt" || { cat "$tmp/run0.log"; fail "run 0: amzn2's dnf task not skipped"; }
grep -q '\[amzn2\]' "$tmp/yum.txt" && ! grep -q 'skipping: \[amzn2\]' "$tmp/yum.txt" || { cat "$tmp/run0.log"; fail "run 0: amzn2's yum task skipped"; }
grep -q 'ol9 (OracleLinux 9 (RedHat family, dnf)): uarchdiff-0.1.0-1.x86_64.rpm with dnf, which pulls jansson, libpfm, elfutils-libelf' \
	"$tmp/run0.log" || { cat "$tmp/run0.log"; fail "run 0: ol9's install does not say what it pulls"; }
grep -q 'debian12 (Debian 12 (Debian family, apt)): uarchdiff_0.1.0_amd64.deb with apt, which pulls libjansson4, libpfm4, libelf1' \
	"$tmp/run0.log" || { cat "$tmp/run0.log"; fail "run 0: debian12's install does not say what it pulls"; }
grep -q 'alpine3 runs Alpine 3 (Alpine family, apk): the role installs with apt .* or dnf/yum .* only; give this host uarchdiff_bin' \
	"$tmp/run0.log" || { cat "$tmp/run0.log"; fail "run 0: alpine3 not refused by name"; }
grep -q 'ol9_nodeb runs OracleLinux 9 (RedHat family, dnf) and installs with dnf: set uarchdiff_rpm (cpack -G RPM) too' \
	"$tmp/run0.log" || { cat "$tmp/run0.log"; fail "run 0: a dnf host without uarchdiff_rpm not refused"; }
echo "run 0: ol9 installs with dnf, amzn2 with yum, debian12 with apt, alpine3 refused by name ($(($(date +%s) - start)) s)"
exit 0
fi

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
labels = [p["label"] for p in d["hosts"]]
assert labels == ["Fleet Gamma", "Fleet Alpha", "Fleet Beta"], labels
assert [p["path"] for p in d["hosts"]] == ["gamma/profile.json", "alpha/profile.json", "beta/profile.json"]
assert d["baseline"] == "first" and d["reference"]["label"] == "Fleet Gamma", (d["baseline"], d["reference"])
assert "pairs" not in d
PY
grep -q '^baseline: gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 1: summary baseline"; }
grep -q '^failed' "$out/summary.txt" && { cat "$out/summary.txt"; fail "run 1: a host reported failed"; }
echo "run 1: 3 hosts profiled and compared, baseline gamma ($(($(date +%s) - start)) s)"

# 2. beta's binary does not exist; fleet_force profiles all three again.
start=$(date +%s)
inventory /nonexistent/uarchdiff
cp "$out/gamma/profile.json" "$tmp/gamma-before.json"
play_rc 2 "2 a host failed" -e fleet_force=true
grep -q '^failed: beta: .*uarchdiff_bin /nonexistent/uarchdiff: no such file on beta$' "$out/summary.txt" ||
	{ cat "$out/summary.txt"; fail "run 2: summary.txt does not report beta failed with the reason"; }
grep -q 'no profile from: beta;' "$tmp/run2.log" || { cat "$tmp/run2.log"; fail "run 2: the play does not name beta"; }
grep -q 'beta FAILED: ' "$tmp/run2.log" || { cat "$tmp/run2.log"; fail "run 2: beta's failure not shown"; }
[ ! -e "$out/beta/profile.json" ] || fail "run 2: beta's earlier profile was left to be compared"
cmp -s "$out/gamma/profile.json" "$tmp/gamma-before.json" && fail "run 2: fleet_force did not profile gamma again"
# No fleet_baseline: the reports' baseline is the largest group's median host, and the summary says so (issue 38).
ref=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["reference"]["label"])' "$out/compare.json")
case $ref in "G1 median ("*) ;; *) fail "run 2: the reports' baseline is $ref, not G1's median host" ;; esac
grep -qxF "baseline: $ref (the largest group's median host)" "$out/summary.txt" ||
	{ cat "$out/summary.txt"; fail "run 2: summary.txt does not name the reports' baseline, $ref"; }
grep -q '^compared: alpha gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 2: compared"; }
python3 - "$out/compare.json" <<'PY' || fail "run 2: compare.json"
import json, sys
d = json.load(open(sys.argv[1]))
labels = [p["label"] for p in d["hosts"]]
assert labels == ["Fleet Alpha", "Fleet Gamma"], labels
PY
grep -q 'Fleet Beta' "$out/compare.txt" && fail "run 2: compare.txt names the failed host"
grep -q 'Fleet Gamma' "$out/compare.txt" || fail "run 2: compare.txt does not name gamma"
echo "run 2: beta reported failed, alpha and gamma compared ($(($(date +%s) - start)) s)"

# 3. No force: alpha and gamma are skipped, beta is tried again.
start=$(date +%s)
cp "$out/gamma/profile.json" "$tmp/gamma-before.json"
play_rc 3 "2 beta failed again"
cmp -s "$out/gamma/profile.json" "$tmp/gamma-before.json" || fail "run 3: gamma was profiled again"
grep -q 'beta FAILED: ' "$tmp/run3.log" || { cat "$tmp/run3.log"; fail "run 3: beta was not tried again"; }
grep -q 'alpha FAILED\|gamma FAILED' "$tmp/run3.log" && fail "run 3: a skipped host failed"
grep -q '^compared: alpha gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 3: compared"; }
echo "run 3: alpha and gamma skipped (already fetched), beta tried again ($(($(date +%s) - start)) s)"

# labels FILE LABEL...: compare.json's profiles are these, in this order.
labels() {
	f=$1
	shift
	python3 - "$f" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = [p["label"] for p in d["hosts"]]
assert got == sys.argv[2:], got
PY
}

# 4. gamma's fetched profile is cut short: gamma failed and set aside, alpha and beta compared.
start=$(date +%s)
inventory "$ud"
head -c 300 "$out/gamma/profile.json" >"$tmp/cut.json" && mv "$tmp/cut.json" "$out/gamma/profile.json"
play_rc 4 "2 gamma's profile is bad"
grep -q '^compared: alpha beta$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 4: compared"; }
grep -q '^failed: gamma: its profile does not load: gamma/profile.json:.*(kept as gamma/profile.rejected.json)$' \
	"$out/summary.txt" || { cat "$out/summary.txt"; fail "run 4: gamma not reported failed with the reason"; }
[ ! -e "$out/gamma/profile.json" ] && [ -s "$out/gamma/profile.rejected.json" ] || fail "run 4: gamma's profile not set aside"
grep -q 'left out: gamma/profile.json' "$out/compare.txt" || fail "run 4: compare.txt does not name gamma left out"
labels "$out/compare.json" "Fleet Alpha" "Fleet Beta" || fail "run 4: compare.json"
echo "run 4: gamma's cut profile reported and set aside, alpha and beta compared ($(($(date +%s) - start)) s)"

# 5. No force: gamma is profiled again (its profile was rejected), alpha and beta are skipped.
start=$(date +%s)
cp "$out/alpha/profile.json" "$tmp/alpha-before.json"
play run5.log -e fleet_group_by=kernel,cpu.uarch -e fleet_all_hosts=true ||
	{ cat "$tmp/run5.log"; fail "run 5: ansible-playbook exited $?"; }
python3 - "$out/compare.json" <<'PY' || fail "run 5: compare.json was not grouped by fleet_group_by"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["group_by"] == ["kernel", "cpu.uarch"], d["group_by"]
assert d["baseline"] == "median", d["baseline"]
PY
grep -q '^== Every host against the baseline' "$out/compare.txt" || fail "run 5: fleet_all_hosts did not reach compare"
cmp -s "$out/alpha/profile.json" "$tmp/alpha-before.json" || fail "run 5: alpha was profiled again"
grep -q '"syscall"' "$out/gamma/profile.json" || fail "run 5: gamma was not profiled again"
grep -q '^compared: alpha beta gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 5: compared"; }
grep -q '^failed' "$out/summary.txt" && { cat "$out/summary.txt"; fail "run 5: a host reported failed"; }
echo "run 5: gamma profiled again, not skipped as already fetched; grouped by kernel and uarch, every host listed ($(($(date +%s) - start)) s)"

# 6. beta's profile holds another workload: its group cannot be compared, so the play sets it aside,
# reports it and exits 2, and the reports are written without it.
start=$(date +%s)
cp "$src/tests/golden/e5.json" "$out/beta/profile.json"
play_rc 6 "2 beta was left out"
grep -q '^compared: alpha gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 6: compared"; }
grep -q '^failed: beta: left out of the comparison: .*workload' "$out/summary.txt" ||
	{ cat "$out/summary.txt"; fail "run 6: beta not reported failed with compare's reason"; }
grep -q 'no profile from: beta;' "$tmp/run6.log" || fail "run 6: the play does not name beta"
labels "$out/compare.json" "Fleet Alpha" "Fleet Gamma" || fail "run 6: compare.json"
echo "run 6: beta's other workload left out and reported failed ($(($(date +%s) - start)) s)"

# 7. Hosts whose names would make their folder another one: refused; nothing outside fleet_out removed.
start=$(date +%s)
echo precious >"$tmp/precious.txt"
cp "$out/alpha/profile.json" "$tmp/profile.json"
mkdir -p "$tmp/bar" && echo precious >"$tmp/bar/keep.txt"
inventory "$ud" "" '    "..": {}
    "foo/../../bar": {}
    "compare.json": {}
    "delta\n": {}
    "x\nfailed: forged": {}'
play_rc 7 "2 five hosts refused" -e fleet_force=true
for f in "$tmp/precious.txt" "$tmp/profile.json" "$tmp/bar/keep.txt" "$out/compare.json"; do
	[ -s "$f" ] || fail "run 7: $f was removed"
done
# each name shown JSON-escaped: "delta\n" (which Python's $ let pass) is refused, and no name forges a line
for h in '".."' '"foo/../../bar"' '"compare.json"' '"delta\n"' '"x\nfailed: forged"'; do
	grep -qF "failed: $h: inventory host name $h cannot name a folder of fleet_out" "$out/summary.txt" ||
		{ cat "$out/summary.txt"; fail "run 7: $h not refused by name"; }
done
grep -q '^failed: forged' "$out/summary.txt" && { cat "$out/summary.txt"; fail "run 7: a host name forged a line"; }
ls -A "$out" | grep -q delta && fail "run 7: a folder was made for 'delta\\n'"
grep -q '^compared: alpha beta gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 7: compared"; }
echo "run 7: hosts '..', 'foo/../../bar', 'compare.json' and two with a newline refused, escaped, nothing outside fleet_out removed ($(($(date +%s) - start)) s)"

# 8. beta passes uarchdiff_run_timeout: timeout's SIGTERM, its partial profile fetched and compared.
start=$(date +%s)
mkdir -p "$tmp/specs"
cat >"$tmp/late.sh" <<'EOF'
#!/bin/sh
# the first sample at once, every later one past any timeout
[ -e "$1" ] && exec sleep 1000
touch "$1"
echo "score 1"
EOF
chmod +x "$tmp/late.sh"
printf 'name = late\ncommand = %s/late.sh %s/late.mark\nscore = ^score ([0-9]+)$\nunits = x\ntimeout = 900\n' \
	"$tmp" "$tmp" >"$tmp/specs/late.spec"
inventory "$ud" '      uarchdiff_workloads: [syscall, late]
      uarchdiff_repeat: 2
      uarchdiff_run_timeout: 8'
export UARCHDIFF_WORKLOADS_DIR="$tmp/specs"
play_rc 8 "0 beta's partial profile is compared" -e fleet_force=true --limit beta,localhost
unset UARCHDIFF_WORKLOADS_DIR
grep -q '"incomplete": true' "$out/beta/profile.json" || fail "run 8: beta's profile is not the partial one"
grep -q '"name": "syscall"' "$out/beta/profile.json" || fail "run 8: beta's measured workload was lost"
grep -q '^incomplete: beta: stopped at uarchdiff_run_timeout (8 s)' "$out/summary.txt" ||
	{ cat "$out/summary.txt"; fail "run 8: the summary does not say beta was stopped"; }
grep -q 'interrupted (SIGTERM)' "$out/beta/run.log" || fail "run 8: run.log: $(cat "$out/beta/run.log")"
pgrep -f "$tmp/remote/beta" >/dev/null && fail "run 8: uarchdiff outlived the run on the host"
[ -z "$(ls -A "$tmp/remote/beta" | grep uarchdiff-fleet)" ] || fail "run 8: beta's work folder was left"
elapsed=$(($(date +%s) - start))
echo "run 8: beta stopped at its timeout, the partial profile fetched and compared ($elapsed s)"

# 9. fleet_out a folder of the user's (fleet_out=. or ~ with hosts named like its folders): refused, untouched.
start=$(date +%s)
inventory "$ud"
mkdir -p "$tmp/mine/alpha" && echo mine >"$tmp/mine/alpha/keep.txt" && echo mine >"$tmp/mine/compare.txt"
play_rc 9 "2 fleet_out is not the fleet's" -e fleet_out=mine -e fleet_force=true --limit alpha,localhost
[ "$(cat "$tmp/mine/alpha/keep.txt")" = mine ] && [ "$(cat "$tmp/mine/compare.txt")" = mine ] ||
	fail "run 9: the user's files in fleet_out were touched"
[ "$(ls -A "$tmp/mine" | tr '\n' ' ')" = "alpha compare.txt " ] || fail "run 9: fleet_out was written in: $(ls -A "$tmp/mine")"
grep -q 'holds files this role did not make (no .uarchdiff-fleet in it): not used' "$tmp/run9.log" ||
	{ cat "$tmp/run9.log"; fail "run 9: the refusal does not say why"; }
echo "run 9: a user's folder as fleet_out refused, nothing in it touched ($(($(date +%s) - start)) s)"

# 10. A host whose folder in fleet_out is not the role's (the user made it): refused, its files untouched.
start=$(date +%s)
mkdir -p "$out/docs" && echo mine >"$out/docs/keep.txt" && echo '{}' >"$out/docs/profile.json"
inventory "$ud" "" '    docs: {}'
play_rc 10 "2 docs refused" -e fleet_force=true --limit docs,localhost
[ "$(ls -A "$out/docs" | tr '\n' ' ')" = "keep.txt profile.json " ] || fail "run 10: docs/ was touched: $(ls -A "$out/docs")"
grep -qF 'failed: docs: "'"$out"'/docs" is not a folder this role made (no .uarchdiff-fleet in it): not touched' \
	"$out/summary.txt" || { cat "$out/summary.txt"; fail "run 10: docs not refused with the reason"; }
grep -q '^compared: alpha beta gamma$' "$out/summary.txt" || { cat "$out/summary.txt"; fail "run 10: compared"; }
echo "run 10: a host folder the role did not make refused, untouched ($(($(date +%s) - start)) s)"
