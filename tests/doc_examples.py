#!/usr/bin/env python3
"""tests/doc_examples.py UARCHDIFF SRC: doc/'s printed examples still print what they show (issue 39).

A fenced block in doc/*.md made of `$ COMMAND` lines, each followed by what
it printed, is run in a scratch folder that holds the repository's tests/,
examples/ and events/ and a build/uarchdiff (the binary under test), one
block a folder, its commands in order (a later one may read what an earlier
one wrote).  Only examples on fixed inputs are run: a block is skipped from
the first command that counts live (run, stat, teach, host) or names an
input the tree lacks (a made-up `paste.txt`), so a load on this host never
moves a result.

A command's printed lines are checked against its standard output and error
together, with COLUMNS unset (piped, as a reader's `| less` is), the data
folder named as installed (/usr/local/share/uarchdiff/, where a build
tree's binary names the source tree's schemas/ and events/):
  - no lines after the command: not checked (it shows how to call it);
  - a block without `...`: the lines exactly;
  - with `...` lines (an excerpt): the lines shown, in order, each a whole
    line of the output, or its start where the shown line ends in ` ...`.
Prints each drift with the command, and exits 1 on any.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

LIVE = {"run", "stat", "teach", "host"}
# Words that name an input file: a path in the tree, or a file an earlier command wrote.
PATHLIKE = re.compile(r"^[\w.+-]*(/[\w.+*-]*)+$|^[\w.+-]+\.(json|txt|csv|html|md|log)$")
# Options whose next word is written, not read.
OUTPUT_OPTIONS = {"-o", "--output"}
# The data folder of an install at CMake's default prefix, as the docs show it.
INSTALLED_DATA = "/usr/local/share/uarchdiff/"
COMMAND_TIMEOUT_S = 300  # far above any example here: a hang is a failure, not a slow host


def blocks(path):
    """The fenced blocks with no language whose first line is a `$ ` command: (line number, lines)."""
    out, inside, plain, start, lines = [], False, False, 0, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith("```"):
                if inside and plain and lines and lines[0].startswith("$ "):
                    out.append((start, lines))
                inside, plain, start, lines = not inside, line.strip() == "```", n + 1, []
                continue
            if inside:
                lines.append(line)
    return out


def commands(lines):
    """[(command, [printed lines])] of one block."""
    out = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def why_not_run(command, cwd):
    """None where the command runs on fixed inputs, else why it is skipped."""
    try:
        words = shlex.split(command)
    except ValueError:
        return "not one shell command"
    for i, w in enumerate(words):
        if os.path.basename(w) == "uarchdiff" and i + 1 < len(words) and words[i + 1] in LIVE:
            return "counts live (%s)" % words[i + 1]
    written = False
    for w in words:
        if written or w in ("|", "&&", ">"):
            written = w in OUTPUT_OPTIONS
            continue
        written = w in OUTPUT_OPTIONS
        if w.startswith("-") or w.startswith("/") or not PATHLIKE.match(w):
            continue
        if w == "build/uarchdiff" or "*" in w:
            continue
        if not os.path.exists(os.path.join(cwd, w)):
            return "no input %s" % w
    return None


def matches(shown, printed):
    """Whether the lines shown are what was printed (exactly, or in order where `...` marks an excerpt)."""
    if not any(s.strip() == "..." for s in shown):
        return shown == printed
    at = 0
    for s in shown:
        if s.strip() == "...":
            continue
        prefix = s[:-4] if s.endswith(" ...") else None
        while at < len(printed) and not (printed[at] == s or (prefix and printed[at].startswith(prefix))):
            at += 1
        if at == len(printed):
            return False
        at += 1
    return True


def scratch(src, ud):
    work = tempfile.mkdtemp(prefix="doc-examples.")
    for d in ("tests", "examples", "events"):
        if os.path.isdir(os.path.join(src, d)):
            os.symlink(os.path.join(src, d), os.path.join(work, d))
    os.mkdir(os.path.join(work, "build"))
    os.symlink(os.path.abspath(ud), os.path.join(work, "build", "uarchdiff"))
    return work


def main():
    ud, src = sys.argv[1], os.path.abspath(sys.argv[2])
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env["PATH"] = os.path.dirname(os.path.abspath(ud)) + os.pathsep + env["PATH"]
    docs = sorted(os.path.join(src, "doc", f) for f in os.listdir(os.path.join(src, "doc")) if f.endswith(".md"))
    checked = skipped = failed = 0
    for doc in docs:
        name = os.path.relpath(doc, src)
        for start, lines in blocks(doc):
            work = scratch(src, ud)
            for command, shown in commands(lines):
                why = why_not_run(command, work)
                if why:
                    print("skip %s:%d: %s: %s" % (name, start, command, why))
                    skipped += 1
                    break
                r = subprocess.run(["sh", "-c", command], cwd=work, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT_S)
                printed = r.stdout.decode("utf-8", "replace")
                for d in ("schemas/", "events/"):
                    printed = printed.replace(os.path.join(src, d), INSTALLED_DATA + d)
                printed = printed.splitlines()
                if not shown:
                    continue
                checked += 1
                if not matches(shown, printed):
                    failed += 1
                    print("FAIL %s:%d: %s\n  shown:\n    %s\n  printed:\n    %s" %
                          (name, start, command, "\n    ".join(shown), "\n    ".join(printed[:40])))
            subprocess.run(["rm", "-rf", work])
    print("doc examples: %d checked, %d blocks cut short, %d drifted" % (checked, skipped, failed))
    if checked == 0:
        print("FAIL: no example checked: the block format changed?")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
