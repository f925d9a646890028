#!/bin/sh
# Proves uarchdiff's hardware-counter paths on a real PMU driver: an emulated
# Arm Neoverse N1 (QEMU TCG, -icount shift=0) booting Debian's arm64 kernel,
# whose armv8_pmuv3 driver serves perf_event_open.  uarchdiff and a loop of
# known length are cross-built statically for aarch64 and run in the guest
# (guest.sh); the result files come back on the serial console into
# build/emulated-arm/out/ and check.py judges them.
#
# Everything fetched is cached under build/emulated-arm/ (Debian's arm64
# packages only, through a private apt state: the host's dpkg is untouched).
# Exit status: 0 pass, 1 fail, 77 skipped (a tool or the packages cannot be
# had), with the reason on stdout.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/emulated-arm
work=${UD_EMULATED_ARM_DIR:-$root/build/emulated-arm}
jobs=${UD_JOBS:-2}
t_start=$(date +%s)

skip() {
	echo "SKIPPED: emulated-arm: $*"
	exit 77
}
fail() {
	echo "FAIL: emulated-arm: $*"
	exit 1
}
step() {
	echo "emulated-arm: [$(($(date +%s) - t_start))s] $*"
}

for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc cpio gzip base64 tar dpkg-deb apt-get cmake python3; do
	command -v "$tool" >/dev/null 2>&1 ||
		skip "'$tool' is not installed (scripts/install-deps.sh installs the emulated-Arm tools)"
done
qemu-system-aarch64 -cpu help 2>/dev/null | grep -q neoverse-n1 ||
	skip "this QEMU has no neoverse-n1 CPU (QEMU 7.2 or later needed)"

mkdir -p "$work"

# --- Debian's arm64 packages, through an apt state of our own -----------------
# The arm64 -dev packages give the static libraries uarchdiff links; the cloud
# kernel (21 MB) has the PL011 console and the Arm PMU driver built in.
apt_dir=$work/apt
debs=$work/debs
apt_opts="-o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache
 -o Dir::State::status=$apt_dir/status -o APT::Architecture=arm64
 -o APT::Architectures::=arm64 -o Debug::NoLocking=1 -o APT::Sandbox::User=root -q=2"
dev_pkgs="libpfm4-dev libjansson-dev libelf-dev zlib1g-dev libzstd-dev busybox-static"
if [ ! -f "$debs/.complete" ]; then
	step "fetching Debian arm64 packages"
	rm -rf "$debs" "$apt_dir" "$work/sysroot"
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$debs"
	: >"$apt_dir/status"
	# shellcheck disable=SC2086 # apt_opts is a list of options
	apt-get $apt_opts --error-on=any update >"$work/apt.log" 2>&1 ||
		skip "cannot reach Debian's arm64 package lists (apt-get update failed: see $work/apt.log)"
	# The meta-package names the current kernel ABI (linux-image-6.1.0-NN-cloud-arm64).
	# shellcheck disable=SC2086
	kernel_pkg=$(apt-cache $apt_opts depends linux-image-cloud-arm64 2>>"$work/apt.log" |
		sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
	[ -n "$kernel_pkg" ] || skip "no arm64 cloud kernel in Debian's package lists"
	# shellcheck disable=SC2086
	(cd "$debs" && apt-get $apt_opts download $kernel_pkg $dev_pkgs) >>"$work/apt.log" 2>&1 ||
		skip "cannot download the arm64 packages ($kernel_pkg $dev_pkgs): see $work/apt.log"
	touch "$debs/.complete"
fi

# --- sysroot and kernel, extracted with dpkg-deb (never installed) ------------
sysroot=$work/sysroot
if [ ! -f "$sysroot/.complete" ]; then
	step "extracting the sysroot and the kernel"
	rm -rf "$sysroot" "$work/kernel" "$work/busybox"
	mkdir -p "$sysroot" "$work/kernel" "$work/busybox"
	for deb in "$debs"/*.deb; do
		case $(basename "$deb") in
		linux-image-*) dpkg-deb -x "$deb" "$work/kernel" ;;
		busybox-static_*) dpkg-deb -x "$deb" "$work/busybox" ;;
		*) dpkg-deb -x "$deb" "$sysroot" ;;
		esac
	done
	touch "$sysroot/.complete"
fi
for vmlinuz in "$work"/kernel/boot/vmlinuz-*; do :; done
[ -f "$vmlinuz" ] || fail "no vmlinuz in the kernel package"

# --- the static aarch64 build --------------------------------------------------
cross=$work/cross
step "cross-building uarchdiff for aarch64"
# Configured every time (seconds): a half-finished earlier configure must not stick.
cmake -S "$root" -B "$cross" -DCMAKE_TOOLCHAIN_FILE="$here/aarch64.cmake" \
	-DUD_ARM_SYSROOT="$sysroot" -DBUILD_TESTING=OFF >"$work/cross-configure.log" 2>&1 ||
	fail "cross configure failed: see $work/cross-configure.log"
cmake --build "$cross" -j "$jobs" --target uarchdiff >"$work/cross-build.log" 2>&1 ||
	fail "cross build failed: see $work/cross-build.log"
aarch64-linux-gnu-gcc -O2 -static -nostdlib -ffreestanding -fno-stack-protector -Wall -Wextra -Werror \
	-o "$cross/loop" "$here/loop.c" || fail "cannot build the loop program"
aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror -o "$cross/init" "$here/init.c" ||
	fail "cannot build /init"

# --- the initramfs: /init, busybox, uarchdiff installed as under a prefix -----
step "building the initramfs"
rootfs=$work/rootfs
rm -rf "$rootfs"
mkdir -p "$rootfs/bin" "$rootfs/usr/bin" "$rootfs/usr/share/uarchdiff/workloads" "$rootfs/usr/libexec/uarchdiff"
cp "$work/busybox/bin/busybox" "$rootfs/bin/"
for applet in sh cat ls tar base64; do
	ln -s busybox "$rootfs/bin/$applet"
done
cp "$cross/init" "$rootfs/init"
cp "$here/guest.sh" "$rootfs/guest.sh"
cp "$cross/uarchdiff" "$cross/loop" "$rootfs/usr/bin/"
# uarchdiff finds its data under ../share/uarchdiff next to its binary.
cp -r "$root/events" "$root/report-templates" "$rootfs/usr/share/uarchdiff/"
cp "$root"/workloads/*.spec "$rootfs/usr/share/uarchdiff/workloads/"
# spawn and exec run their loops in this helper, installed under ../libexec/uarchdiff (built with uarchdiff).
cp "$cross/uarchdiff-spawn" "$rootfs/usr/libexec/uarchdiff/"
(cd "$rootfs" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.cpio.gz"

# --- boot ----------------------------------------------------------------------
# -icount shift=0: one instruction a virtual nanosecond, so INST_RETIRED and
# CPU_CYCLES count exactly (without it INST_RETIRED reads 0).  -nic none:
# else QEMU wants efi-virtio.rom.  The guest powers off when done.
step "booting the emulated Neoverse N1 (about 2 minutes)"
console=$work/console.log
rc=0
timeout "${UD_EMULATED_ARM_TIMEOUT:-480}" qemu-system-aarch64 -M virt -cpu neoverse-n1 -smp 1 -m 512 \
	-nographic -no-reboot -nic none -icount shift=0 \
	-kernel "$vmlinuz" -initrd "$work/initrd.cpio.gz" \
	-append "console=ttyAMA0 quiet loglevel=1 panic=-1" </dev/null >"$console" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "QEMU exited with status $rc (124: timed out): see $console"

out=$work/out
rm -rf "$out"
mkdir -p "$out"
tr -d '\r' <"$console" | sed -n '/^UD-RESULTS-BEGIN$/,/^UD-RESULTS-END$/p' | sed '1d;$d' |
	base64 -d | tar -x -C "$out" 2>/dev/null ||
	fail "no results on the guest's console: see $console"
grep -q '^UD-GUEST-EXIT 0' "$console" || fail "the guest script failed: see $console"
step "results in $out"

python3 "$here/check.py" "$out" || fail "the results do not hold: see the table above and $out/guest.log"
step "pass"
