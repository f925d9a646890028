#!/bin/sh
# tests/install.sh SOURCE_DIR: uarchdiff installs and runs from the installed
# tree alone.
#
# Copies the source to a temporary folder, builds it there, installs it into
# a temporary prefix and packs a .deb; then deletes that source copy and
# build, moves the prefix, and from another working directory, with no
# UARCHDIFF_*_DIR set, runs events, run, import, diff -f html, teach -f html, workloads
# and schema from the installed binary (the worked example from the installed
# PREFIX/share/uarchdiff/examples, the schemas where the man page says,
# PREFIX/share/uarchdiff/schemas), renders the installed man page and
# completes with the installed bash completion.  The .deb must hold the same tree under
# /usr, depend on the libraries, and run once unpacked.
set -eu
src=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset UARCHDIFF_EVENTS_DIR UARCHDIFF_TEMPLATES_DIR UARCHDIFF_WORKLOADS_DIR UARCHDIFF_SCHEMAS_DIR
jobs=$(nproc 2>/dev/null || echo 2)

fail() {
	echo "FAIL: $*"
	exit 1
}

# 1. A copy of the source (no build folders, no .git), built and installed.
mkdir "$tmp/src" "$tmp/work"
(cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -xf - -C "$tmp/src"
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >"$tmp/cmake.log" 2>&1 ||
	{ cat "$tmp/cmake.log"; fail "configure"; }
cmake --build "$tmp/build" -j "$jobs" --target uarchdiff uarchdiff_shared uarchdiff_static >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; fail "build"; }
cmake --install "$tmp/build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; fail "cmake --install"; }
(cd "$tmp/build" && cpack -G DEB) >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/build/uarchdiff_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "cpack made no .deb"
mv "$deb" "$tmp/"
deb=$tmp/${deb##*/}

# 2. The source copy and its build are gone; the prefix moves elsewhere.
rm -rf "$tmp/src" "$tmp/build"
mv "$tmp/prefix" "$tmp/moved"
p=$tmp/moved
for f in bin/uarchdiff libexec/uarchdiff/uarchdiff-spawn share/uarchdiff/events/generic share/uarchdiff/events/zen4 \
	share/uarchdiff/report-templates/report.html share/uarchdiff/workloads/openssl-sha256.spec \
	share/man/man1/uarchdiff.1 share/bash-completion/completions/uarchdiff \
	share/uarchdiff/ansible/fleet.yml share/uarchdiff/ansible/roles/uarchdiff_fleet/tasks/main.yml \
	share/uarchdiff/schemas/profile.schema.json share/uarchdiff/schemas/diff.schema.json \
	share/uarchdiff/schemas/compare.schema.json share/uarchdiff/schemas/teach.schema.json \
	share/uarchdiff/schemas/host.schema.json share/uarchdiff/schemas/events.schema.json \
	share/uarchdiff/schemas/stat-line.schema.json share/uarchdiff/examples/README.md \
	share/uarchdiff/examples/oci-e5-genoa-fstime.txt share/uarchdiff/examples/oci-e6-turin-fstime.txt; do
	[ -f "$p/$f" ] || fail "not installed: $f"
done
echo "installed: $(cd "$p" && find . -type f | wc -l) files under PREFIX"

# 3. The installed binary at work, in another directory; the worked example from the installed data only.
cd "$tmp/work"
ud=$p/bin/uarchdiff
"$ud" --version >/dev/null || fail "--version"
"$ud" events --uarch zen4 >events.txt 2>&1 || { cat events.txt; fail "events"; }
grep -q "table: *$p/share/uarchdiff/events/zen4 " events.txt ||
	{ cat events.txt; fail "events: the table is not read from the installed tree"; }
"$ud" events >/dev/null 2>&1 || fail "events (this host)"
"$ud" workloads >workloads.txt 2>&1 || { cat workloads.txt; fail "workloads"; }
grep -q '^openssl-sha256' workloads.txt || { cat workloads.txt; fail "workloads: the installed specs are not read"; }
"$ud" run -w syscall,spawn -r 1 -o this.json >run.txt 2>&1 || { cat run.txt; fail "run -w syscall,spawn -r 1"; }
grep -q '"syscall"' this.json || fail "run: no syscall workload in the profile"
ex=$p/share/uarchdiff/examples
"$ud" import --label "OCI E5 (Genoa)" --uarch zen4 --workload fstime -o e5.json "$ex/oci-e5-genoa-fstime.txt" ||
	fail "import e5"
"$ud" import --label "OCI E6 (Turin)" --uarch zen5 --workload fstime -o e6.json "$ex/oci-e6-turin-fstime.txt" ||
	fail "import e6"
"$ud" diff -f html -o e5-vs-e6.html e5.json e6.json || fail "diff -f html"
grep -q '<svg' e5-vs-e6.html || fail "diff -f html: no chart (templates not found?)"
UARCHDIFF_TEACH_QUICK=1 "$ud" teach ilp -f html -o teach.html 2>teach.txt || { cat teach.txt; fail "teach ilp -f html"; }
grep -q '<svg' teach.html || fail "teach -f html: no chart (templates not found?)"
"$ud" diff e5.json e6.json >diff.txt || fail "diff"
grep -q '4\.66' diff.txt || { cat diff.txt; fail "diff: not the worked example's 4.66x"; }
"$ud" diff this.json this.json >/dev/null || fail "diff of the run's profile"
[ "$("$ud" schema --path profile)" = "$p/share/uarchdiff/schemas/profile.schema.json" ] ||
	fail "schema --path profile: $("$ud" schema --path profile), not the installed tree's"
"$ud" schema --list >schemas.txt || fail "schema --list"
[ "$(grep -c "$p/share/uarchdiff/schemas/" schemas.txt)" = 7 ] || { cat schemas.txt; fail "schema --list: not 7 installed schemas"; }
# the installed file, with the schemas it refers to folded in (it validates alone): its own keys unchanged
"$ud" schema diff >printed.json || fail "schema diff"
python3 - printed.json "$p/share/uarchdiff/schemas/diff.schema.json" <<'PY' || fail "schema diff: not the installed file's schema"
import json, sys
printed, installed = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if printed.get("title") == installed.get("title") and
         set(installed.get("properties", {})) == set(printed.get("properties", {})) else 1)
PY
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	"$ud" schema profile | /usr/bin/python3 -m jsonschema -i this.json -i e5.json /dev/stdin ||
		fail "the installed profile schema does not validate the installed binary's profiles"
else
	echo "no python3-jsonschema: the installed schemas not validated here (tests/schemas.sh says SKIPPED)"
fi
echo "ran from the installed tree: events, workloads, run, import, diff -f html, teach -f html, schema"

# 4. The man page renders; the completion loads and completes, uarchs from share/.
MANWIDTH=80 man --warnings -l "$p/share/man/man1/uarchdiff.1" >man.txt 2>man.err || fail "man -l"
[ ! -s man.err ] || { cat man.err; fail "man -l: warnings"; }
grep -q 'uarchdiff' man.txt || fail "man -l: empty page"
bash "$src/tests/completion.sh" "$ud" "$p/share/bash-completion/completions/uarchdiff" ||
	fail "the installed completion"

# 5. The .deb: its tree under /usr, its dependencies, and it runs unpacked.
dpkg-deb -c "$deb" >deb.list || fail "dpkg-deb -c"
for f in ./usr/bin/uarchdiff ./usr/libexec/uarchdiff/uarchdiff-spawn ./usr/share/uarchdiff/events/zen4 ./usr/share/uarchdiff/report-templates/report.html \
	./usr/share/uarchdiff/workloads/openssl-sha256.spec ./usr/share/man/man1/uarchdiff.1 \
	./usr/share/bash-completion/completions/uarchdiff ./usr/share/uarchdiff/ansible/fleet.yml \
	./usr/share/uarchdiff/schemas/profile.schema.json ./usr/share/uarchdiff/schemas/stat-line.schema.json ./usr/share/uarchdiff/examples/oci-e5-genoa-fstime.txt; do
	grep -q " $f\$" deb.list || { cat deb.list; fail ".deb lacks $f"; }
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libjansson4 libpfm4 libelf1; do
	echo "$depends" | grep -q "$lib" || fail ".deb does not depend on $lib: $depends"
	dpkg-query -W -f '${Status}' "$lib" 2>/dev/null | grep -q 'ok installed' ||
		fail "$lib, a dependency of the .deb, is not a Debian package here"
done
dpkg-deb -x "$deb" unpacked || fail "dpkg-deb -x"
unpacked/usr/bin/uarchdiff diff -f md e5.json e6.json | grep -q '4\.66' || fail "the unpacked .deb's binary"
if [ "$(id -u)" = 0 ] && command -v dpkg >/dev/null; then
	dpkg --dry-run -i "$deb" >dpkg.log 2>&1 || { cat dpkg.log; fail "dpkg --dry-run -i"; }
fi
echo ".deb: $(basename "$deb"), Depends: $depends"
