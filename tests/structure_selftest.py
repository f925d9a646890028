#!/usr/bin/env python3
"""tests/structure_selftest.py SOURCE_DIR BUILD_DIR: structure.py catches what it promises to.

A copy of src/ with one violation planted at a time, its includes checked
(the calls are the structure test's, from the real build's objects): an
include from a later stage (model/ including
the diff's header), and a *_priv.h included from another stage's folder
(teach/ including report_priv.h), and a ratio printed through "%.3gx"
outside text.c's rule, and a header's pointer-returning declaration
that does not say who owns the pointer, and a command file grown past
250 lines, and a direct qsort() outside ud_sort or bsearch() outside
ud_bsearch (sort.h), and a jansson tree built in report/ (the views are typed); and the build's
own include paths, with a later
stage's folder planted on model/profile.c's (compile_commands.json).  Each must fail with its own message;
the unplanted copy must pass, under the project's own allowlist (the
known exceptions it lists; no plant is in it).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

PLANTS = [
    ("src/model/profile.c", '#include "diff.h"\n', "includes src/diff/diff.h from a later stage (diff)"),
    ("src/teach/teach_view.c", '#include "report_priv.h"\n', "includes src/report/report_priv.h, private to src/report/"),
    ("src/diff/diff_explain.c", '/* fprintf(f, "%.3gx", r) */\n', 'formats a ratio with "%.3gx"'),
    ("src/base/text.h", "char *ud_planted(void);\n\n", "ud_planted() returns a pointer without saying who owns it"),
    ("src/builtin/diff.c", "/*\n" + " * planted\n" * 250 + " */\n", "src/builtin/diff.c is 33"),
    ("src/report/report_topdown.c", "static void *planted(void) { return json_pack(\"{s:i}\", \"a\", 1); }\n",
     "builds a jansson tree with json_pack()"),
    ("src/diff/fleet_split.c", "static void planted(int *v, size_t n) { qsort(v, n, sizeof(*v), NULL); }\n",
     "calls qsort() directly"),
    ("src/diff/fleet_split.c",
     "static int *planted_find(const int *k, int *v, size_t n) { return bsearch(k, v, n, sizeof(*v), NULL); }\n",
     "calls bsearch() directly"),
]


def run(structure, root, build, extra=()):
    allow = os.path.join(os.path.dirname(os.path.abspath(structure)), "structure-allow.txt")
    r = subprocess.run([sys.executable, structure, "--includes-only", *extra, root, build, allow],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def plant_include_path(structure, tmp, build):
    """model/profile.c compiled with src/diff on its path: caught though no source changed."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    for e in entries:
        if e["file"].endswith(os.path.join("src", "model", "profile.c")):
            diff_dir = os.path.join(os.path.dirname(os.path.dirname(e["file"])), "diff")
            e["command"] += f" -I{diff_dir}"
    planted = os.path.join(tmp, "compile_commands.json")
    with open(planted, "w", encoding="utf-8") as f:
        json.dump(entries, f)
    code, out = run(structure, tmp, build, ("--compile-commands", planted))
    want = "src/model/profile.c (model) is compiled with src/diff on its include path"
    if code == 0 or want not in out:
        print(f"FAIL: src/diff on model/profile.c's include path was not caught as '{want}':\n{out}")
        return 1
    print("ok: src/diff on model/profile.c's include path caught")
    return 0


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
                print(f"FAIL: {line.strip().splitlines()[0]} planted in {path} was not caught as '{want}':\n{out}")
                failed += 1
            else:
                print(f"ok: {line.strip().splitlines()[0]} in {path} caught")
        failed += plant_include_path(structure, tmp, build)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
