#!/bin/sh
# tests/rpm.sh SOURCE_DIR: `cpack -G RPM` makes the RHEL 9 / Oracle Linux 9 packages (issue 38).
#
# Builds a copy of the source configured as doc/fleet.md says (-DCMAKE_INSTALL_LIBDIR=lib64), packs it
# with cpack -G RPM, and reads the two packages back with rpm -qp: uarchdiff's metadata (name, version,
# license, summary, description), its requirements by EL9's package names (jansson, libpfm,
# elfutils-libelf) and no glibc symbol version past EL9's 2.34, its files (the binary, the spawn helper,
# the man page, the completion, the examples, the schemas, the workloads, the event tables, the
# playbook, libuarchdiff.so.0 in /usr/lib64) and none of -devel's; uarchdiff-devel's header,
# pkg-config file and link libraries.  Also that a build for /usr/lib is refused for the RPM, saying why.
# Exit 77 (skipped) where rpmbuild is missing: cpack's RPM generator runs it.
set -eu
src=$(cd "$1" && pwd)
command -v rpmbuild >/dev/null 2>&1 && command -v rpm >/dev/null 2>&1 || {
	echo "SKIP: rpmbuild not found (Debian: apt-get install rpm); cpack -G RPM needs it"
	exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
# The newest glibc symbol version EL9 provides (CentOS Stream 9's glibc 2.34; see CMakeLists.txt).
el9_glibc=2.34

fail() {
	echo "FAIL: $*"
	exit 1
}

# 1. A copy of the source configured for the RPM, built and packed.
mkdir "$tmp/src" "$tmp/work"
(cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -xf - -C "$tmp/src"
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DCMAKE_INSTALL_LIBDIR=lib64 \
	>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; fail "configure"; }
cmake --build "$tmp/build" -j "$jobs" --target uarchdiff uarchdiff-spawn uarchdiff_shared uarchdiff_static \
	>"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build"; }
(cd "$tmp/build" && cpack -G RPM) >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G RPM"; }
version=$(sed -n 's/^project(uarchdiff VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
arch=$(uname -m)
rpm=$tmp/build/uarchdiff-$version-1.$arch.rpm
devel=$tmp/build/uarchdiff-devel-$version-1.$arch.rpm
[ -f "$rpm" ] && [ -f "$devel" ] || { ls "$tmp/build"; fail "cpack made not uarchdiff-$version-1.$arch.rpm and its -devel"; }

# 2. Metadata.
cd "$tmp/work"
rpm -qp --info "$rpm" >info.txt 2>&1 || { cat info.txt; fail "rpm -qp --info"; }
for field in "Name *: uarchdiff$" "Version *: $version$" "Release *: 1$" "Architecture: $arch$" \
	"License *: LicenseRef-not-yet-chosen$" "Summary *: explain host-to-host performance differences" \
	"Relocations *: /usr"; do
	grep -q "^$field" info.txt || { cat info.txt; fail "rpm --info: no '$field'"; }
done
grep -q 'path length x IPC x' info.txt || { cat info.txt; fail "rpm --info: not the package's description"; }

# 3. Requirements: EL9's package names, what the binaries link, and no glibc newer than EL9's.
rpm -qp --requires "$rpm" >requires.txt || fail "rpm -qp --requires"
for dep in jansson libpfm elfutils-libelf 'libjansson.so.4()(64bit)' 'libelf.so.1()(64bit)'; do
	grep -qxF "$dep" requires.txt || { cat requires.txt; fail "uarchdiff does not require $dep"; }
done
# Debian's names, or the build tools uarchdiff.pc would bring, have no place on a profiled host.
grep -E '^(libjansson4|libpfm4|libelf1|libc6)\b|pkgconfig|pkg-config|-devel' requires.txt &&
	fail "uarchdiff requires what EL9 does not name so, or a build tool"
newest=$(sed -n 's/^libc\.so\.6(GLIBC_\([0-9.]*\))(64bit)$/\1/p' requires.txt | sort -V | tail -n 1)
[ -n "$newest" ] || { cat requires.txt; fail "no glibc symbol version among the requirements (autoreq off?)"; }
[ "$(printf '%s\n%s\n' "$newest" "$el9_glibc" | sort -V | tail -n 1)" = "$el9_glibc" ] ||
	fail "uarchdiff needs GLIBC_$newest, which EL9's glibc $el9_glibc lacks: dnf would refuse it"
rpm -qp --requires "$devel" >devel-requires.txt || fail "rpm -qp --requires (devel)"
for dep in "uarchdiff = $version" jansson-devel; do
	grep -qxF "$dep" devel-requires.txt || { cat devel-requires.txt; fail "uarchdiff-devel does not require $dep"; }
done

# 4. Files: the runtime in uarchdiff, the link-time files in uarchdiff-devel, none in both.
rpm -qp --list "$rpm" >list.txt || fail "rpm -qp --list"
for f in /usr/bin/uarchdiff /usr/libexec/uarchdiff/uarchdiff-spawn /usr/share/man/man1/uarchdiff.1 \
	/usr/share/bash-completion/completions/uarchdiff /usr/share/uarchdiff/examples/README.md \
	/usr/share/uarchdiff/examples/oci-e5-genoa-fstime.txt /usr/share/uarchdiff/examples/oci-e6-turin-fstime.txt \
	/usr/share/uarchdiff/schemas/profile.schema.json /usr/share/uarchdiff/schemas/compare.schema.json \
	/usr/share/uarchdiff/workloads/openssl-sha256.spec /usr/share/uarchdiff/events/zen4 \
	/usr/share/uarchdiff/report-templates/report.html /usr/share/uarchdiff/ansible/fleet.yml \
	/usr/share/uarchdiff/ansible/roles/uarchdiff_fleet/tasks/install.yml \
	"/usr/lib64/libuarchdiff.so.$version"; do
	grep -qxF "$f" list.txt || { cat list.txt; fail "uarchdiff lacks $f"; }
done
[ "$(grep -c '^/usr/share/uarchdiff/schemas/.*\.schema\.json$' list.txt)" = \
	"$(ls "$src"/schemas/*.schema.json | wc -l)" ] || fail "uarchdiff lacks some of schemas/"
rpm -qp --list "$devel" >devel-list.txt || fail "rpm -qp --list (devel)"
for f in /usr/include/uarchdiff/uarchdiff.h /usr/lib64/pkgconfig/uarchdiff.pc /usr/lib64/libuarchdiff.so \
	/usr/lib64/libuarchdiff.a; do
	grep -qxF "$f" devel-list.txt || { cat devel-list.txt; fail "uarchdiff-devel lacks $f"; }
done
sort list.txt devel-list.txt | uniq -d | grep . && fail "files in both packages"
# folders EL9's filesystem, bash-completion and pkgconf packages own are not claimed
grep -xE '/usr(/bin|/lib64|/libexec|/include|/share|/share/man|/share/man/man1|/share/bash-completion(/completions)?|/lib64/pkgconfig)?' \
	list.txt devel-list.txt && fail "a package claims a system folder"

# 5. The binary unpacked from the package runs, its data found beside it.
mkdir unpacked
(cd unpacked && rpm2cpio "$rpm" | cpio -idm --quiet) || fail "rpm2cpio"
unpacked/usr/bin/uarchdiff schema --path profile | grep -q "unpacked/usr/share/uarchdiff/schemas/profile.schema.json$" ||
	fail "the unpacked binary does not find its schemas"
echo "rpm: $(basename "$rpm") ($(wc -l <list.txt) paths), $(basename "$devel"); requires $(grep -v '(' requires.txt | tr '\n' ' ')and GLIBC <= $newest"

# 6. A build for /usr/lib (the default on Debian) is refused for the RPM, saying how to configure.
cmake "$tmp/build" -DCMAKE_INSTALL_LIBDIR=lib >/dev/null 2>&1 || fail "reconfigure"
(cd "$tmp/build" && cpack -G RPM) >refused.log 2>&1 && { cat refused.log; fail "an RPM with its library in /usr/lib was made"; }
grep -q 'configure with -DCMAKE_INSTALL_LIBDIR=lib64' refused.log || { cat refused.log; fail "the refusal does not say why"; }
echo "rpm: a build for /usr/lib refused for the RPM"
