#!/bin/sh
# Installs what uarchdiff needs to build and test on Debian 12 (as root).
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential cmake pkg-config \
	libpfm4-dev libelf-dev libjansson-dev check \
	chromium python3 python3-jsonschema man-db groff-base \
	qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	cpio ansible-core clang libclang-rt-dev linux-perf \
	redis-server redis-tools nginx-light wrk rpm >/dev/null
# chromium and python3: the HTML report test renders in a real browser and
# reads the screenshot with Python's standard library.
# python3-jsonschema: tests/schemas.sh validates every document uarchdiff
# writes against schemas/ with it (Debian's /usr/bin/python3).
# man-db and groff-base: the man page test renders doc/uarchdiff.1;
# cpack -G DEB needs only dpkg (dpkg-deb), which every Debian has; rpm (rpmbuild,
# rpm2cpio): cpack -G RPM and tests/rpm.sh (issue 38), skipped without it.
# qemu-system-arm (its qemu-system-aarch64 emulates a Neoverse N1),
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and cpio: the emulated-Arm test
# (tests/emulated-arm/run.sh) cross-builds uarchdiff and boots it.  It fetches
# the arm64 kernel and -dev packages itself, through its own apt state: no
# dpkg --add-architecture here.
# ansible-core: the fleet test (tests/fleet.sh) runs contrib/ansible/fleet.yml.
# clang and libclang-rt-dev (libFuzzer, the sanitizers' runtime): tests/run.sh
# runs the fuzz targets (fuzz/run.sh) for a few seconds each.
# linux-perf: tests/perf-parity.py runs `uarchdiff stat` beside `perf stat`
# (issue 22); without perf that test is skipped.
# redis-server and redis-tools (redis-benchmark): the redis workloads and
# tests/redis-workload.sh (issue 40); without them both are skipped, saying
# so.  This script is Debian's only: on RHEL-like hosts `dnf install redis`
# brings both programs.
# nginx-light and wrk: the http-gateway workload (nginx proxying to nginx,
# loaded with wrk) and tests/http-gateway-workload.sh (issue 40); without
# them both are skipped, saying so.  On RHEL-like hosts: `dnf install nginx
# wrk` (wrk from EPEL).  nginx 1.19.5 or later (its -e option keeps its log
# out of /var/log).
