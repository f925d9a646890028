#!/bin/sh
# Runs inside the emulated Neoverse N1 (busybox sh, /init's child).
# uarchdiff writes every result into /out; the files leave the guest on the
# console as one base64 tar between markers, and the host checks them
# (check.py): this script only produces, it judges nothing.
set -u
cd /out || exit 1
ud=/usr/bin/uarchdiff
loop=/usr/bin/loop

# Seconds since boot, for the step times in steps.txt.
now() { read -r up _ </proc/uptime; echo "$up"; }
step() {
	name=$1
	shift
	t0=$(now)
	echo "UD-STEP $name"
	echo "== $name: $*" >>guest.log
	"$@" >>guest.log 2>&1
	echo "$name rc=$? start=$t0 end=$(now)" >>steps.txt
}

# The loop's N always has ten digits, so its parser runs the same
# instructions for every N (see loop.c).
n6=0001000000
n7=0010000000
n8=0100000000
# One counter group (cycles on the cycle counter, instructions and five more
# on the six programmable ones): nothing multiplexed, every value exact.
# branches, branch-misses and L1-dcache-load-misses are what QEMU does not
# count; instructions:u and :k split the count by privilege level.
loopev=cycles,instructions,instructions:u,instructions:k,branches,branch-misses,L1-dcache-load-misses,task-clock,page-faults
# More hardware events than counters: three groups take turns.
many=cycles,instructions,branches,branch-misses,L1-dcache-loads,L1-dcache-load-misses,stalled-cycles-frontend,stalled-cycles-backend,r21,r22,r04,r03,r10,r1b,task-clock

cat /proc/cpuinfo >cpuinfo.txt
ls /sys/bus/event_source/devices/armv8_pmuv3*/events >pmu-events.txt 2>&1
step host sh -c "$ud host --json >host.json"
# -o FILE.json without -x or -j: the profile.
step loop-1000000 $ud stat -o loop-1000000.json -e $loopev -- $loop $n6
step loop-10000000 $ud stat -o loop-10000000.json -e $loopev -- $loop $n7
step multiplexed $ud stat -o multiplexed.json -e $many -- $loop $n8
step multiplexed-exact $ud stat --exact -o multiplexed-exact.json -e $many -- $loop $n8
step libpfm4 $ud stat -o libpfm4.json -e INST_RETIRED,CPU_CYCLES,INST_RETIRED:u,INST_RETIRED:k -- $loop $n7
# Issue 22, perf's event syntax on a real PMU driver: one count (INST_RETIRED,
# 0x08) named five ways, requested groups with their modifiers, the PMU's
# named event, -j, -x with -I, and -a -A.
pmu=
for d in /sys/bus/event_source/devices/armv8_pmuv3*; do pmu=${d##*/}; done
echo "$pmu" >pmu-name.txt
step syntax $ud stat -x, -o syntax.csv --profile syntax.json \
	-e "instructions:u,r08:u,$pmu/event=0x08/u,$pmu/inst_retired/u,INST_RETIRED:u" -- $loop $n7
step groups $ud stat -o groups.json -e "{cycles:u,instructions:u},{instructions:k,cycles:k}" -- $loop $n7
step json-lines $ud stat -j -o json-lines.txt -e "instructions:u,r08:u" -- $loop $n6
step interval $ud stat -x, -I 200 --summary -o interval.csv -e "instructions:u,cycles:u" -- $loop $n8
step all-cpus $ud stat -a -A -x, -o all-cpus.csv --profile all-cpus.json -e instructions -- $loop $n6
step run-exact $ud run -w int --exact -r 1 -o run-exact.json
# Issue 21: N1's top-down is cycle accounting; QEMU opens its stall events and reads them 0.
step topdown $ud stat --topdown -o topdown.txt --profile topdown.json -- $loop $n7
# -r 5: a fixed count, as before adaptive sampling, so the emulated guest's time stays bounded.
step quick $ud run --suite quick -r 5 -o quick.json
# Again, with fewer samples (time): path lengths are per unit of work.
step quick-again $ud run --suite quick -r 2 -o quick-again.json
step diff-loop $ud diff -f json -o diff-loop.json loop-1000000.json loop-10000000.json
step diff-quick $ud diff -f json -o diff-quick.json quick.json quick-again.json
step diff-text $ud diff -o diff-quick.txt quick.json quick-again.json

echo UD-RESULTS-BEGIN
tar -c -f - . | base64
echo UD-RESULTS-END
