#!/usr/bin/python3
"""tests/schemas.py SCHEMA_DIR NAME FILE...: validates documents against schemas/NAME.schema.json.

The validator is python3-jsonschema's (Debian's package), draft 2020-12; this
driver only loads the files, resolves the schemas' references to one another
from SCHEMA_DIR (no network) and words each failure as

    FILE: workloads[0].counters.cycles.value: 5 is not of type 'null'
        (schemas/profile.schema.json #/$defs/counter/else/properties/value)

so the next engineer sees which document, which field and which part of
which schema to change.  NAME stat-line takes JSON lines (one document a
line, as `stat -j` prints them, perf's "# started on" line skipped); every
other NAME one document a file.

    tests/schemas.py SCHEMA_DIR --check     every schema valid against draft 2020-12 itself,
                                            every property with a description, every one
                                            that may be null saying when

Exit status: 0 all valid, 1 any invalid (each failure printed), 2 bad usage.
"""
import json
import os
import sys
import urllib.parse

import jsonschema
from jsonschema import Draft202012Validator, RefResolver

# More failures than this in one file say the same thing again.
MAX_ERRORS_PER_FILE = 10


def schema_files(schema_dir):
    return sorted(f for f in os.listdir(schema_dir) if f.endswith(".schema.json"))


def load_store(schema_dir):
    """{file URI: schema} for every schema, so a "$ref": "profile.schema.json#..." resolves locally."""
    store = {}
    for name in schema_files(schema_dir):
        path = os.path.abspath(os.path.join(schema_dir, name))
        with open(path, encoding="utf-8") as f:
            store["file://" + path] = json.load(f)
    return store


def validator_for(schema_dir, name, store):
    uri = "file://" + os.path.abspath(os.path.join(schema_dir, name + ".schema.json"))
    if uri not in store:
        sys.exit(f"schemas.py: no schema {name} ({uri[7:]})")
    resolver = RefResolver(base_uri=uri, referrer=store[uri], store=store)
    return Draft202012Validator(store[uri], resolver=resolver), uri


def schema_location(store, uri, path):
    """"schemas/profile.schema.json #/$defs/counter/then/...": the place a schema path ends, its $refs followed.

    jsonschema's schema path leaves the $refs out; the file and definition
    to edit are the ones the last $ref led to."""
    node, where, pointer = store[uri], uri, []
    for part in path:
        while isinstance(node, dict) and part not in node and "$ref" in node:
            target = urllib.parse.urljoin(where, node["$ref"])
            where, _, fragment = target.partition("#")
            node, pointer = store[where], []
            for step in filter(None, fragment.split("/")):
                node = node[step]
                pointer.append(step)
        node = node[part]
        pointer.append(str(part))
    folder = os.path.basename(os.path.dirname(where[7:]))
    return f"{folder}/{os.path.basename(where)} #/" + "/".join(pointer)


def field_path(path):
    """workloads[0].counters.cycles: the instance path as a reader writes it."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "(the document)"


def leaf_errors(error):
    """The innermost errors: for oneOf/anyOf, the branches' own complaints say more than "not valid under any"."""
    if error.context:
        for sub in error.context:
            yield from leaf_errors(sub)
    else:
        yield error


def report(label, doc, validator, store, uri):
    count = 0
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        for leaf in leaf_errors(error):
            count += 1
            if count <= MAX_ERRORS_PER_FILE:
                where = schema_location(store, uri, leaf.absolute_schema_path)
                print(f"{label}: {field_path(leaf.absolute_path)}: {leaf.message}\n    ({where})")
                if leaf.validator == "additionalProperties":
                    print(f"    a new field: give it a description and a type under {where.rsplit('/', 1)[0]}/properties")
    if count > MAX_ERRORS_PER_FILE:
        print(f"{label}: {count - MAX_ERRORS_PER_FILE} more failures")
    return count == 0


def documents(path, lines):
    """(label, document) pairs: the file whole, or each line of it that holds one."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not lines:
        yield path, json.loads(text)
        return
    for n, line in enumerate(text.splitlines(), 1):
        # perf's "# started on DATE" heads a file written with -o: a comment, no document
        if line.strip() and not line.startswith("#"):
            yield f"{path}:{n}", json.loads(line)


def target_of(store, uri, node):
    """(uri, schema) a "$ref" in the schema at uri leads to, or (uri, None) without one."""
    if not isinstance(node, dict) or "$ref" not in node:
        return uri, None
    where, _, fragment = urllib.parse.urljoin(uri, node["$ref"]).partition("#")
    target = store[where]
    for step in filter(None, fragment.split("/")):
        target = target[step]
    return where, target


def may_be_null(store, uri, node):
    """Whether a value valid under node may be null: its type, enum or a oneOf/anyOf branch says so, or its $ref's."""
    if not isinstance(node, dict):
        return False
    types = node.get("type", [])
    if types == "null" or (isinstance(types, list) and "null" in types) or None in node.get("enum", [1]):
        return True
    if any(may_be_null(store, uri, branch) for branch in node.get("oneOf", []) + node.get("anyOf", [])):
        return True
    where, target = target_of(store, uri, node)
    return target is not None and may_be_null(store, where, target)


def description_of(store, uri, node):
    """The words that describe a property: its own and its $ref's."""
    where, target = target_of(store, uri, node)
    own = node.get("description", "") if isinstance(node, dict) else ""
    return own + " " + (description_of(store, where, target) if target is not None else "")


def lint(store, uri, node, path, problems):
    """Every property described; every one that may be null says when ("null ...")."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            lint(store, uri, item, path + [str(i)], problems)
        return
    if not isinstance(node, dict):
        return
    # an if/then/else or not only constrains properties declared beside it
    conditions = {"if", "then", "else", "not"}
    for key, prop in (node.get("properties", {}) if not conditions & set(path[-1:]) else {}).items():
        words = description_of(store, uri, prop)
        where = f"{os.path.basename(uri)} #/{'/'.join(path + ['properties', key])}"
        if not words.strip():
            problems.append(f"{where}: no description (its unit, formula or meaning)")
        elif may_be_null(store, uri, prop) and "null" not in words.lower():
            problems.append(f"{where}: may be null, and its description does not say when")
    for key, value in node.items():
        lint(store, uri, value, path + [key], problems)


def check_schemas(schema_dir):
    ok = True
    store = load_store(schema_dir)
    for uri, schema in sorted(store.items()):
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            print(f"{uri[7:]}: not a valid draft 2020-12 schema: {field_path(e.absolute_path)}: {e.message}")
            ok = False
        problems = []
        lint(store, uri, schema, [], problems)
        for p in problems:
            print(f"schemas/{p}")
        ok = ok and not problems
    return ok


def main(argv):
    if len(argv) == 3 and argv[2] == "--check":
        return 0 if check_schemas(argv[1]) else 1
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    schema_dir, name, files = argv[1], argv[2], argv[3:]
    store = load_store(schema_dir)
    validator, uri = validator_for(schema_dir, name, store)
    ok = True
    for path in files:
        try:
            docs = list(documents(path, name == "stat-line"))
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            ok = False
            continue
        for label, doc in docs:
            ok = report(label, doc, validator, store, uri) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
