#!/usr/bin/env python3
"""Check that doc/flashbench.schema.json requires what the documents carry.

usage: required_fields.py SCHEMA DOC...

Every object in the documents is matched to the schema object (a member of
"properties" or "definitions") that describes it. A member that every
object of a schema object carries, across all the documents given, must be
in that schema object's "required" list, unless its description says when
it is left out (it starts with "only ", "when " or "with ..."): a field the
tool stops writing must break validation. Then each required member is
dropped from one document that has it, and the document must no longer
validate. Prints one line per problem; exit 1 if any.
"""
import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from validate_json import Validator  # noqa: E402

CONDITIONAL = ("only ", "when ", "with ", "if ")


class Walker:
    """Finds, for each object of a document, the schema objects that describe it."""

    def __init__(self, validator):
        self.v = validator
        self.seen = {}  # schema path -> [schema, [key sets], [(doc index, json path)]]

    def walk(self, val, s, spath, dpath, doc):
        if s is True or s is False or not isinstance(s, dict):
            return
        if "$ref" in s:
            ref = s["$ref"]
            self.walk(val, self.v.resolve(ref), ref, dpath, doc)
        for i, sub in enumerate(s.get("allOf", [])):
            self.walk(val, sub, f"{spath}/allOf/{i}", dpath, doc)
        for key in ("anyOf", "oneOf"):
            for i, sub in enumerate(s.get(key, [])):
                if self.v.ok(val, sub):
                    self.walk(val, sub, f"{spath}/{key}/{i}", dpath, doc)
        # (if/then/else only constrain what the objects above describe)
        if isinstance(val, dict) and "properties" in s and not spath.endswith(("/then", "/else")):
            entry = self.seen.setdefault(spath, [s, [], []])
            entry[1].append(set(val))
            entry[2].append((doc, dpath))
            for k, sub in s["properties"].items():
                if k in val:
                    self.walk(val[k], sub, f"{spath}/properties/{k}", dpath + [k], doc)
        if isinstance(val, list) and isinstance(s.get("items"), dict):
            for i, item in enumerate(val):
                self.walk(item, s["items"], f"{spath}/items", dpath + [i], doc)


def conditional(prop):
    d = prop.get("description", "") if isinstance(prop, dict) else ""
    return d.lower().startswith(CONDITIONAL)


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    v = Validator(schema)
    docs = []
    for name in argv[2:]:
        with open(name) as f:
            docs.append((name, json.load(f)))
    w = Walker(v)
    for i, (_, d) in enumerate(docs):
        w.walk(d, schema, "#", [], i)
    bad = 0
    for spath, (s, keysets, where) in sorted(w.seen.items()):
        required = set(s.get("required", []))
        always = set.intersection(*keysets)
        for k in sorted(always - required):
            if conditional(s["properties"].get(k)):
                continue
            print(f"{spath}: every one of {len(keysets)} objects has {k!r}, "
                  f"but the schema does not require it (or say when it is left out)")
            bad += 1
        for k in sorted(required):
            hit = next(((d, p) for (d, p), ks in zip(where, keysets) if k in ks), None)
            if hit is None:
                continue
            doc = copy.deepcopy(docs[hit[0]][1])
            del get(doc, hit[1])[k]
            if v.ok(doc, schema):
                print(f"{spath}: {docs[hit[0]][0]} still validates without {k!r} "
                      f"at {'.'.join(map(str, hit[1])) or '$'}")
                bad += 1
    print(f"{len(docs)} documents, {len(w.seen)} kinds of object checked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
