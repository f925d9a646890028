#!/usr/bin/env python3
"""tests/structure_selftest.py SOURCE_DIR BUILD_DIR: structure.py catches what it promises to.

A copy of src/ with one violation planted at a time, its includes checked
(the calls are the structure test's, from the real build's objects): an
include from a later stage (model/ including
the diff's header), and a *_priv.h included from another stage's folder
(teach/ including report_priv.h), and a ratio printed through "%.3gx"
outside text.c's rule.  Each must fail with its own message;
the unplanted copy must pass.
"""
import os
import shutil
import subprocess
import sys
import tempfile

PLANTS = [
    ("src/model/profile.c", '#include "diff.h"\n', "includes src/diff/diff.h from a later stage (diff)"),
    ("src/teach/teach_view.c", '#include "report_priv.h"\n', "includes src/report/report_priv.h, private to src/report/"),
    ("src/diff/diff_explain.c", '/* fprintf(f, "%.3gx", r) */\n', 'formats a ratio with "%.3gx"'),
]


def run(structure, root, build):
    empty = os.path.join(root, "allow.txt")
    open(empty, "w").close()
    r = subprocess.run([sys.executable, structure, "--includes-only", root, build, empty], capture_output=True,
                       text=True)
    return r.returncode, r.stdout + r.stderr


def main():
    src, build = sys.argv[1], sys.argv[2]
    structure = os.path.join(src, "tests", "structure.py")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(src, "src"), os.path.join(tmp, "src"))
        code, out = run(structure, tmp, build)
        if code != 0:
            print(f"FAIL: the copy as it is does not pass:\n{out}")
            failed += 1
        for path, line, want in PLANTS:
            target = os.path.join(tmp, path)
            with open(target, encoding="utf-8") as f:
                original = f.read()
            with open(target, "w", encoding="utf-8") as f:
                f.write(line + original)
            code, out = run(structure, tmp, build)
            with open(target, "w", encoding="utf-8") as f:
                f.write(original)
            if code == 0 or want not in out:
                print(f"FAIL: {line.strip()} planted in {path} was not caught as '{want}':\n{out}")
                failed += 1
            else:
                print(f"ok: {line.strip()} in {path} caught")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
