#!/usr/bin/env python3
"""tests/structure.py [--includes-only] [--compile-commands FILE] SOURCE_DIR BUILD_DIR [ALLOWLIST]: the code keeps its shape.

Checks, printing every violation found:

  include  No portable source (one compiled into the udportable library)
           includes a Linux-only header, directly or through project headers:
           <linux/...>, <asm/...>, <perfmon/...>, <sys/...> other than the
           POSIX ones below, or a header of the Linux part (a header named
           after a udlinux source beside it, and workload.h).
  cycle    No cycle in the include graph of src/ (its stage folders).
  calls    No cycle in the module call graph: module A calls module B when
           a symbol undefined in A's object file is defined in B's (nm).
  layer    No call downwards-up: the portable library calls nothing in the
           Linux library, and neither library calls the commands' support
           (udcli: options, usage, errors; it prints) or a command
           (builtin-*.c, main.c).
  stage    Stages are layers, in the order src/CMakeLists.txt declares
           them (UD_STAGES): a file includes, and its module calls, only
           its own stage and those before it; the commands (src/builtin/,
           src/*.c) sit above every stage.  A *_priv.h is included only
           from its own folder.  The build holds to it too: a stage's
           files are compiled with only the include paths of their own
           stage and those before it (read from compile_commands.json).
  owner    Every declaration in a header of src/ or include/ that returns a
           pointer says who owns what it returns, in its paragraph (the
           comment above it, down from the last blank line) or on its line (jansson's words: "new reference", "caller
           frees", "borrowed"; or "static", "owned by", "valid until",
           "points into", or the function that frees it).
  export   No function of the libraries is exported that no other object
           file calls (the binary's, the tests', the benchmarks', the
           example's): one used only in its own file is made static, one
           used nowhere is removed.
  length   No function in src/ longer than 80 lines (the lines
           between its opening '{' and closing '}', both in column 0).
  builtin  No command file (src/builtin/*.c) longer than 250 lines: a
           command parses its options, calls the library and prints, as
           git's builtin/ and perf's builtin-*.c (issue 37); what it does
           beyond that belongs in its stage's library.
  ratio    No source but the rule's own (src/base/text.c) prints a ratio
           through a "%gx" format ("%.3gx"): ud_format_ratio_x() is the one
           rule, so "1,222x" never reads "1.22e+03x" in one sentence and
           inf never reads "infx" (issue 36).

Known violations, each being fixed elsewhere, are listed in the allowlist
(tests/structure-allow.txt): those are printed as "allowed" and do not fail;
an entry that no longer matches anything is printed as stale.
"""
import json
import os
import re
import shlex
import subprocess
import sys

MAX_FUNCTION_LINES = 80
# A command file's most lines: room for an option table, its checks and the printing, not for a stage's work.
MAX_BUILTIN_LINES = 250
# POSIX headers that are not Linux's: the portable part may use them.
POSIX_SYS = {"sys/types.h", "sys/stat.h", "sys/time.h"}
LINUX_PREFIXES = ("linux/", "asm/", "asm-generic/", "perfmon/")
# Headers of the Linux part not named after one of its sources.
LINUX_EXTRA_HEADERS = {"workload.h"}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def project_files(src, suffixes=(".c", ".h")):
    """Every source and header under src/, its stage folders included, as paths from SOURCE_DIR."""
    files = []
    for root, dirs, names in os.walk(os.path.join(src, "src")):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(suffixes):
                files.append(os.path.relpath(os.path.join(root, name), src))
    return files


def header_index(files):
    """{header name: path}: the build puts every stage folder on the include path."""
    index = {}
    for f in files:
        if f.endswith(".h"):
            index.setdefault(os.path.basename(f), f)
    return index


def includes(src, rel, index):
    """(system, name) pairs; a quoted name is resolved to a project file where one exists."""
    out = []
    for line in read(os.path.join(src, rel)).splitlines():
        m = INCLUDE_RE.match(line)
        if not m:
            continue
        name = m.group(2)
        if m.group(1) == '"':
            beside = os.path.normpath(os.path.join(os.path.dirname(rel), name))
            if os.path.exists(os.path.join(src, beside)):
                out.append((False, beside))
            elif name in index:
                out.append((False, index[name]))
            else:
                out.append((True, name))
        else:
            out.append((True, name))
    return out


def objects(build):
    """{module: (library, object path)} for the two libraries and the binary."""
    mods = {}
    for lib in ("udportable", "udlinux", "udcli", "uarchdiff"):
        top = os.path.join(build, "CMakeFiles", f"{lib}.dir")
        for root, _, names in os.walk(top):
            for n in names:
                if n.endswith(".c.o"):
                    path = os.path.join(root, n)
                    mods[os.path.relpath(path, top)[:-2]] = (lib, path)
    return mods


def sccs(nodes, edges):
    """Tarjan's strongly connected components with more than one member, or a self-loop."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in edges.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def check_includes(src, mods, found):
    files = project_files(src)
    index = header_index(files)
    graph = {f: includes(src, f, index) for f in files}
    linux_sources = [m for m, (lib, _) in mods.items() if lib == "udlinux"]
    linux_headers = {f"{m[:-2]}.h" for m in linux_sources}
    linux_headers |= {index[h] for h in LINUX_EXTRA_HEADERS}

    def forbidden(system, name):
        if not system:
            return name in linux_headers
        if name.startswith(LINUX_PREFIXES):
            return True
        return name.startswith("sys/") and name not in POSIX_SYS

    for m, (lib, _) in sorted(mods.items()):
        if lib != "udportable" or m not in graph:
            continue
        # Breadth-first through project headers, keeping the path for the message.
        seen, queue = {m}, [(m, [m])]
        while queue:
            f, path = queue.pop(0)
            for system, name in graph.get(f, ()):
                shown = f"<{name}>" if system else name
                if forbidden(system, name):
                    why = "a Linux-only header" if system else "a header of the Linux part"
                    found.append((f"include {m} {shown}",
                                  f"portable {m} includes {why}: {' -> '.join(path + [shown])}"))
                elif not system and name not in seen:
                    seen.add(name)
                    queue.append((name, path + [name]))

    edges = {f: {n for s, n in graph[f] if not s} for f in files}
    for comp in sccs(files, edges):
        found.append((f"cycle {' '.join(comp)}", "files include each other: " + ", ".join(comp)))


NM_CACHE = {}


def symbols(paths):
    """{object path: [(symbol, nm's type letter)]}, read by one nm a batch and kept for the next check."""
    todo = [p for p in paths if p not in NM_CACHE]
    for at in range(0, len(todo), 256):
        batch = todo[at:at + 256]
        for p in batch:
            NM_CACHE[p] = []
        out = subprocess.run(["nm", "-P", "-A", *batch], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            # "path.o: symbol T 0 0" (-A names the file first)
            where, _, rest = line.partition(": ")
            parts = rest.split()
            if where in NM_CACHE and len(parts) >= 2:
                NM_CACHE[where].append((parts[0], parts[1]))
    return {p: NM_CACHE[p] for p in paths}


def calls(mods):
    """(caller, callee, symbols) for every module that calls another, read from the object files with nm."""
    defined, undefined = {}, {}
    table = symbols([path for _, path in mods.values()])
    for m, (_, path) in mods.items():
        undefined[m] = set()
        for sym, kind in table[path]:
            if kind == "U":
                undefined[m].add(sym)
            elif kind.isupper():
                defined.setdefault(sym, m)
    why = {}
    for m, syms in undefined.items():
        for s in syms:
            d = defined.get(s)
            if d and d != m:
                why.setdefault((m, d), []).append(s)
    return [(a, b, syms) for (a, b), syms in sorted(why.items())]


def check_calls(mods, found):
    edges, why = {}, {}
    for a, b, syms in calls(mods):
        edges.setdefault(a, set()).add(b)
        why[(a, b)] = syms
    for comp in sccs(mods.keys(), edges):
        detail = "; ".join(f"{a} -> {b} ({', '.join(sorted(why[(a, b)])[:3])})"
                           for a in comp for b in comp if (a, b) in why)
        found.append((f"calls {' '.join(comp)}", f"modules call each other: {detail}"))
    rank = {"udportable": 0, "udlinux": 1, "udcli": 2, "uarchdiff": 2}
    for (a, b), syms in sorted(why.items()):
        if rank[mods[a][0]] < rank[mods[b][0]]:
            found.append((f"layer {a} {b}", f"{a} ({mods[a][0]}) calls {b} ({mods[b][0]}): "
                          + ", ".join(sorted(syms))))


STAGES_RE = re.compile(r"^\s*set\(UD_STAGES\s+([^)]*)\)", re.M)


def stage_ranks(src):
    """{stage folder: its rank} from src/CMakeLists.txt's UD_STAGES, the one place the order is declared."""
    m = STAGES_RE.search(read(os.path.join(src, "src", "CMakeLists.txt")))
    if not m:
        raise SystemExit("FAIL: src/CMakeLists.txt declares no set(UD_STAGES ...)")
    return {name: i for i, name in enumerate(m.group(1).split())}


def stage_of(rel, ranks):
    """A path's stage and rank: src/STAGE/... is that stage's; the commands (builtin/, src/*.c) rank above all."""
    parts = rel.split(os.sep)
    stage = parts[1] if len(parts) > 2 else "(commands)"
    return stage, ranks.get(stage, len(ranks))


def check_stages(src, mods, found):
    ranks = stage_ranks(src)
    files = project_files(src)
    index = header_index(files)
    for f in files:
        stage, rank = stage_of(f, ranks)
        for system, name in includes(src, f, index):
            if system:
                continue
            other, other_rank = stage_of(name, ranks)
            if other_rank > rank:
                found.append((f"stage include {f} {name}",
                              f"{f} ({stage}) includes {name} from a later stage ({other}): "
                              f"stages run {' < '.join(sorted(ranks, key=ranks.get))}"))
            if name.endswith("_priv.h") and os.path.dirname(name) != os.path.dirname(f):
                found.append((f"stage priv {f} {name}",
                              f"{f} includes {name}, private to {os.path.dirname(name)}/"))
    for a, b, syms in calls(mods):
        sa, ra = stage_of(a, ranks)
        sb, rb = stage_of(b, ranks)
        if rb > ra:
            found.append((f"stage call {a} {b}", f"{a} ({sa}) calls {b} ({sb}), a later stage: "
                          + ", ".join(sorted(syms)[:5])))


def source_root(build):
    """The source folder the build was configured from (its CMakeCache.txt), as compile_commands.json names it."""
    with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"FAIL: {build}/CMakeCache.txt names no CMAKE_HOME_DIRECTORY")


def check_include_paths(src, commands, root, found):
    """Each stage's file compiled with no include path of a later stage, nor src/ or builtin/ (the commands)."""
    if not os.path.exists(commands):
        found.append(("paths missing", f"no {commands}: configure the build again (CMAKE_EXPORT_COMPILE_COMMANDS)"))
        return
    ranks = stage_ranks(src)
    with open(commands, encoding="utf-8") as f:
        entries = json.load(f)
    for e in entries:
        rel = os.path.relpath(e["file"], root)
        stage, rank = stage_of(rel, ranks)
        if not rel.startswith("src" + os.sep) or stage not in ranks:
            continue
        for flag in shlex.split(e.get("command", "")) if "command" in e else e.get("arguments", []):
            if not flag.startswith("-I"):
                continue
            inc = os.path.relpath(flag[2:], root)
            parts = inc.split(os.sep)
            if parts[0] != "src":
                continue
            other = parts[1] if len(parts) > 1 else "(commands)"
            if ranks.get(other, len(ranks)) > rank:
                found.append((f"stage path {rel} {inc}",
                              f"{rel} ({stage}) is compiled with {inc} on its include path, a later stage"))


# Who owns a returned pointer, in the words the headers use (jansson's first).
OWNER_RE = re.compile(r"new reference|caller frees|caller owns|borrowed|static|owned by|owns it|valid until|"
                      r"valid while|points into|\bud_\w+_free\b|freed by|frees it", re.I)
POINTER_DECL_RE = re.compile(r"^(?:extern\s+)?(?:const\s+)?(?:struct\s+|enum\s+|unsigned\s+)?\w+\s*\*+\s*(\w+)\s*\(")


def check_owners(src, found):
    headers = [h for h in project_files(src, (".h",))]
    inc = os.path.join(src, "include")
    for root, _, names in os.walk(inc):
        headers += [os.path.relpath(os.path.join(root, n), src) for n in sorted(names) if n.endswith(".h")]
    for rel in headers:
        lines = read(os.path.join(src, rel)).split("\n")
        for i, line in enumerate(lines):
            m = POINTER_DECL_RE.match(line)
            if not m:
                continue
            # the declaration's paragraph: a comment may speak for the declarations up to the blank line
            j, said = i - 1, []
            while j >= 0 and lines[j].strip():
                said.insert(0, lines[j])
                j -= 1
            k = i
            while k < len(lines) and ";" not in lines[k] and "{" not in lines[k]:
                said.append(lines[k])
                k += 1
            said.append(lines[k] if k < len(lines) else "")
            words = " ".join(re.sub(r"^\s*(/\*+|\*+/?)?", "", x) for x in said)
            if not OWNER_RE.search(" ".join(words.split())):
                found.append((f"owner {rel} {m.group(1)}",
                              f"{rel}:{i + 1}: {m.group(1)}() returns a pointer without saying who owns it "
                              "(\"new reference, caller frees\", \"borrowed\", \"static\", ...)"))


def check_exports(build, mods, found):
    """Every global function of udportable, udlinux and udcli has a caller in another object file."""
    users = {}
    every = []
    for root, _, names in os.walk(build):
        every += [os.path.join(root, n) for n in names if n.endswith(".c.o")]
    for path, syms in symbols(every).items():
        for sym, kind in syms:
            if kind == "U":
                users.setdefault(sym, set()).add(os.path.realpath(path))
    for m, (lib, path) in sorted(mods.items()):
        if lib == "uarchdiff":
            continue
        for sym, kind in symbols([path])[path]:
            if kind == "T" and not (users.get(sym, set()) - {os.path.realpath(path)}):
                found.append((f"export {m} {sym}",
                              f"{m} exports {sym}() and no other object file calls it: "
                              "make it static (or remove it if its own file does not call it either)"))


def check_lengths(src, found):
    for rel in project_files(src, (".c",)):
        lines = read(os.path.join(src, rel)).splitlines()
        start = None
        for i, line in enumerate(lines):
            if line.startswith("{"):
                start = i
            elif line.startswith("}") and start is not None:
                length = i - start - 1
                if length > MAX_FUNCTION_LINES:
                    fn = function_name(lines, start)
                    found.append((f"length {rel}:{fn}",
                                  f"{rel}:{start + 1}: {fn}() is {length} lines (at most {MAX_FUNCTION_LINES})"))
                start = None


def check_builtin_lengths(src, found):
    folder = os.path.join("src", "builtin")
    for rel in project_files(src, (".c",)):
        if os.path.dirname(rel) != folder:
            continue
        n = len(read(os.path.join(src, rel)).splitlines())
        if n > MAX_BUILTIN_LINES:
            found.append((f"builtin {rel}",
                          f"{rel} is {n} lines (a command file at most {MAX_BUILTIN_LINES}): "
                          "move what it does beyond parsing and printing into its stage's library"))


# A printf conversion of a double with an "x" after it: a ratio formatted outside the rule.
RATIO_FORMAT_RE = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[gGeE]x")
RATIO_RULE_FILE = os.path.join("src", "base", "text.c")


def check_ratios(src, found):
    for rel in project_files(src, (".c", ".h")):
        if rel == RATIO_RULE_FILE:
            continue
        for n, line in enumerate(read(os.path.join(src, rel)).splitlines(), 1):
            for m in RATIO_FORMAT_RE.finditer(line):
                found.append((f"ratio {rel}:{m.group(0)}",
                              f"{rel}:{n}: formats a ratio with \"{m.group(0)}\": use ud_format_ratio_x() (text.h)"))


# The presentation renders typed views (template.h): a command, a report or a lab page that builds a jansson tree
# is an untyped view coming back, whose names no test checks against the templates (issue 37).  Documents are
# written by the streamed writer (json_emit.h), and jansson reads inputs at the edges.
VIEW_STAGES = (os.path.join("src", "report"), os.path.join("src", "teach"), os.path.join("src", "builtin"))
JSON_TREE_RE = re.compile(r"\b(json_pack|json_object_set\w*|json_array_append\w*|json_array_insert\w*)\s*\(")


def check_views(src, found):
    for rel in project_files(src, (".c", ".h")):
        if not rel.startswith(VIEW_STAGES):
            continue
        for n, line in enumerate(read(os.path.join(src, rel)).splitlines(), 1):
            m = JSON_TREE_RE.search(line)
            if m:
                found.append((f"json view {rel}",
                              f"{rel}:{n}: builds a jansson tree with {m.group(1)}(): render from a typed view "
                              f"(template.h's struct ud_fields) and write documents with json_emit.h"))


# A direct qsort() or bsearch() call: either is undefined for (NULL, 0, ...) (UBSan aborted CI on qsort), so
# sorts go through ud_sort and lookups through ud_bsearch.
QSORT_RE = re.compile(r"\b(qsort|bsearch)\s*\(")
SORT_HELPER_FILES = {os.path.join("src", "base", "sort.c"), os.path.join("src", "base", "sort.h")}


def check_sorts(src, found):
    for rel in project_files(src, (".c", ".h")):
        if rel in SORT_HELPER_FILES:
            continue
        for n, line in enumerate(read(os.path.join(src, rel)).splitlines(), 1):
            m = QSORT_RE.search(line)
            if m:
                helper = "ud_sort()" if m.group(1) == "qsort" else "ud_bsearch()"
                found.append((f"{m.group(1)} {rel}",
                              f"{rel}:{n}: calls {m.group(1)}() directly, undefined for an empty NULL array: "
                              f"use {helper} (sort.h)"))


def function_name(lines, brace):
    for j in range(brace - 1, max(brace - 6, -1), -1):
        m = re.search(r"([A-Za-z_]\w*)\s*\(", lines[j])
        if m:
            return m.group(1)
    return "?"


def main():
    args = sys.argv[1:]
    # --includes-only: what the sources say, without nm over every object (structure_selftest.py's plants)
    includes_only = "--includes-only" in args
    args = [a for a in args if a != "--includes-only"]
    # --compile-commands FILE: another build's list (structure_selftest.py's planted include path)
    commands = None
    if "--compile-commands" in args:
        at = args.index("--compile-commands")
        commands = args[at + 1]
        del args[at:at + 2]
    src, build = args[0], args[1]
    allow_path = args[2] if len(args) > 2 else os.path.join(src, "tests", "structure-allow.txt")
    allow = set()
    if os.path.exists(allow_path):
        for line in read(allow_path).splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                allow.add(" ".join(line.split()))
    mods = objects(build)
    if not any(lib == "udportable" for lib, _ in mods.values()):
        print(f"FAIL: no object files of udportable under {build}/CMakeFiles")
        return 1
    found = []
    check_includes(src, mods, found)
    if not includes_only:
        check_calls(mods, found)
        check_exports(build, mods, found)
    check_stages(src, {} if includes_only else mods, found)
    check_include_paths(src, commands or os.path.join(build, "compile_commands.json"), source_root(build), found)
    check_lengths(src, found)
    check_builtin_lengths(src, found)
    check_owners(src, found)
    check_ratios(src, found)
    check_sorts(src, found)
    check_views(src, found)

    failed = 0
    used = set()
    for key, message in found:
        if key in allow:
            used.add(key)
            print(f"allowed: {message}")
        else:
            failed += 1
            print(f"FAIL: {message}\n      (allowlist key: {key})")
    for key in sorted(allow - used):
        print(f"stale allowlist entry, nothing matches it any more (remove it): {key}")
    print(f"structure: {len(mods)} modules, {failed} violation(s), {len(used)} allowed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
