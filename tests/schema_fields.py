#!/usr/bin/python3
"""tests/schema_fields.py SCHEMA_DIR DOC...: the documentation's JSON field lists against the schemas.

The schemas are the documents' contract; the descriptions of the documents
in doc/commands.md and doc/json.md (and the README) must name only fields
the schemas declare.  Checked, per section of those files (a heading that
SECTIONS names, in whichever file holds it) and the schemas that section
describes:

  field lists  every "name" in a code span that shows an object's shape
               (`{"symbol", "dso", ...}`, `{"method": "slots" | ...}`): the
               names before a ':' or in a list, not the values after one
  Profiles     and in the Profiles section every code span that is a field
               name or a dotted path of them (`elapsed_rel_stddev`,
               `score.rel_stderr`), or one of the values a schema
               enumerates (`slots`)

A name is declared where a schema has it as a property (at any depth), as
an enumerated value, or, for an object keyed by data (counters by event,
metrics by name), quoted in that object's description.  Each name the
schemas lack is printed with its section: declare it in the schema (with a
description) or correct the documentation.  Exit status 0, or 1 with the list.
"""
import json
import os
import re
import sys

# A documentation section (a heading's start) -> the schemas whose fields it describes.
SECTIONS = {
    "### `uarchdiff run": ["profile"],
    "### `uarchdiff teach": ["teach", "profile"],
    "### `uarchdiff stat": ["profile", "stat-line"],
    # import reads perf's -j keys too: stat-line's are perf's
    "### `uarchdiff import": ["profile", "stat-line"],
    "### `uarchdiff diff": ["diff"],
    "### `uarchdiff compare": ["compare", "diff"],
    "### `uarchdiff events": ["events"],
    "### `uarchdiff host": ["profile"],
    "## Profiles": ["profile"],
    "## JSON documents": ["profile", "diff", "compare", "teach", "events", "stat-line"],
}
# Sections whose plain code spans name fields (the others' name commands, files and options too).
PLAIN_SPANS = {"## Profiles"}
QUOTED = re.compile(r'"([^"\\]+)"')
PLAIN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")
SOURCE_FILE = re.compile(r"\.(c|h|py|sh|md)$")
# Words a Profiles span may be that are no field: JSON's literals and the commands.
NOT_FIELDS = {"null", "true", "false", "run", "stat", "import", "diff", "compare", "events", "host", "workloads", "teach",
              "schema"}


def walk(node, out):
    """Adds every property name, enumerated value and example key of node's schemas to out."""
    if isinstance(node, list):
        for item in node:
            walk(item, out)
        return
    if not isinstance(node, dict):
        return
    out.update(node.get("properties", {}))
    out.update(v for v in node.get("enum", []) if isinstance(v, str))
    if isinstance(node.get("const"), str):
        out.add(node["const"])
    if isinstance(node.get("additionalProperties"), dict):
        out.update(QUOTED.findall(node.get("description", "").replace('\\"', '"')))
    for value in node.values():
        walk(value, out)


def declared(schema_dir, names):
    out = set()
    for name in names:
        with open(os.path.join(schema_dir, name + ".schema.json"), encoding="utf-8") as f:
            walk(json.load(f), out)
    return out


def sections(text):
    """(heading, body) for every ## and ### heading."""
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.M)
    return [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


def listed_names(span):
    """The names of a shape's code span: quoted ones not after ':' or '|' (those are values)."""
    for m in QUOTED.finditer(span):
        before = span[: m.start()].rstrip()
        if not before.endswith((":", "|")):
            yield m.group(1)


def names_of(heading, body):
    # fenced blocks are examples, not field lists; a code span may wrap onto the next line
    body = re.sub(r"^```.*?^```", "", body, flags=re.M | re.S)
    for span in (" ".join(s.split()) for s in re.findall(r"`([^`]+)`", body)):
        if "{" in span:
            yield from listed_names(span)
        elif (heading in PLAIN_SPANS and PLAIN.match(span) and span not in NOT_FIELDS and not span.startswith("ud_")
              and not SOURCE_FILE.search(span)):
            yield from span.split(".")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    missing = []
    seen = set()
    for doc in argv[2:]:
        check_doc(doc, argv[1], missing, seen)
    for key in sorted(set(SECTIONS) - seen):
        missing.append(f"{', '.join(argv[2:])}: no section \"{key}\" (tests/schema_fields.py's SECTIONS names it)")
    for line in sorted(set(missing)):
        print(line)
    return 1 if missing else 0


def check_doc(doc, schema_dir, missing, seen):
    """Adds to missing each name doc's known sections give that their schemas lack; the keys found to seen."""
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    for heading, body in sections(text):
        key = next((k for k in SECTIONS if heading.startswith(k)), None)
        if not key:
            continue
        seen.add(key)
        known = declared(schema_dir, SECTIONS[key])
        for name in names_of(key, body):
            if name not in known:
                missing.append(f"{doc}: {heading.strip()[:60]}: \"{name}\" is in no schema of "
                               f"{', '.join(SECTIONS[key])}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
