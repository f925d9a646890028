#!/usr/bin/env python3
"""tests/progress_pty.py UARCHDIFF: run's live progress line, on a terminal and piped.

On a terminal (a pty from Python's pty module) standard error gets
"[k/N] workload  round i  ~T s left", rewritten in place (carriage return
and erase-line before each); piped, none of it: only the line each
workload ends with.  Issue 23's "Progress" item.
"""
import os
import pty
import re
import subprocess
import sys
import tempfile

LIVE = re.compile(r"\r\x1b\[K\[(\d+)/(\d+)\] (\S+)  round (\d+)  ~(\d+) (s|min) left")


def on_a_terminal(ud, out):
    """stderr of 'run' through a pty's slave end, all of it, as bytes."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([ud, "run", "-w", "syscall,int", "-r", "3", "-o", out],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    proc.wait()
    if proc.returncode != 0:
        sys.exit("run on a pty exited %d: %r" % (proc.returncode, got[-500:]))
    return got.decode("utf-8", "replace")


def main():
    ud = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        text = on_a_terminal(ud, os.path.join(tmp, "t.json"))
        live = LIVE.findall(text)
        # -r 3 over two workloads: a live line after each sample but each workload's last, 2 x 2 of them
        if len(live) != 4:
            failures.append("want 4 live lines on a terminal, got %d: %r" % (len(live), text))
        for k, n, name, rnd, _, _ in live:
            if n != "2" or (k, name) not in (("1", "syscall"), ("2", "int")) or rnd not in ("1", "2"):
                failures.append("a live line out of place: [%s/%s] %s round %s" % (k, n, name, rnd))
        if "2 samples)" in text or "3 samples)" not in text:
            failures.append("no done line after the live ones: %r" % text)
        piped = subprocess.run([ud, "run", "-w", "syscall,int", "-r", "3", "-o", os.path.join(tmp, "p.json")],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if piped.returncode != 0:
            failures.append("piped run exited %d: %s" % (piped.returncode, piped.stderr))
        if "round" in piped.stderr or "\r" in piped.stderr or "\x1b" in piped.stderr:
            failures.append("the live line reached a pipe: %r" % piped.stderr)
        if piped.stderr.count("3 samples)") != 2:
            failures.append("piped: want one done line a workload: %r" % piped.stderr)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("progress: %d live lines on a terminal, none piped" % len(live))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
