#!/usr/bin/env python3
"""Validate JSON documents against doc/flashbench.schema.json.

usage: validate_json.py SCHEMA FILE...   (FILE '-' is standard input)

Implements the subset of JSON Schema draft-07 the schema uses (type, const,
enum, required, properties, additionalProperties, propertyNames, items,
minItems, minimum, minLength, pattern, oneOf, anyOf, allOf, if/then/else,
$ref to #/definitions/...), so the tests need python3 and nothing else.
Prints one line per error and exits 1 if any document is invalid.
"""
import json
import re
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class Validator:
    def __init__(self, schema):
        self.root = schema

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("unsupported $ref " + ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def errors(self, v, s, path="$"):
        """Yields error strings for value v against schema s."""
        if s is True or s == {}:
            return
        if s is False:
            yield f"{path}: not allowed"
            return
        if "$ref" in s:
            yield from self.errors(v, self.resolve(s["$ref"]), path)
        if "type" in s:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(TYPES[t](v) for t in types):
                yield f"{path}: {json.dumps(v)[:60]} is not {'/'.join(types)}"
                return
        if "const" in s and not same(v, s["const"]):
            yield f"{path}: {json.dumps(v)[:60]} is not {json.dumps(s['const'])}"
        if "enum" in s and not any(same(v, e) for e in s["enum"]):
            yield f"{path}: {json.dumps(v)[:60]} not one of {s['enum']}"
        if isinstance(v, str):
            if len(v) < s.get("minLength", 0):
                yield f"{path}: string too short"
            if "pattern" in s and not re.search(s["pattern"], v):
                yield f"{path}: {v!r} does not match {s['pattern']}"
        if TYPES["number"](v) and "minimum" in s and v < s["minimum"]:
            yield f"{path}: {v} < {s['minimum']}"
        if isinstance(v, list):
            if len(v) < s.get("minItems", 0):
                yield f"{path}: fewer than {s['minItems']} items"
            if "items" in s:
                for i, item in enumerate(v):
                    yield from self.errors(item, s["items"], f"{path}[{i}]")
        if isinstance(v, dict):
            yield from self.object_errors(v, s, path)
        for sub in s.get("allOf", []):
            yield from self.errors(v, sub, path)
        if "anyOf" in s and not any(self.ok(v, sub) for sub in s["anyOf"]):
            yield f"{path}: matches none of anyOf"
        if "oneOf" in s:
            n = sum(self.ok(v, sub) for sub in s["oneOf"])
            if n != 1:
                detail = [e for sub in s["oneOf"] for e in self.errors(v, sub, path)][:3]
                yield f"{path}: matches {n} of oneOf ({'; '.join(detail)})"
        if "if" in s:
            branch = s.get("then") if self.ok(v, s["if"]) else s.get("else")
            if branch is not None:
                yield from self.errors(v, branch, path)

    def object_errors(self, v, s, path):
        for key in s.get("required", []):
            if key not in v:
                yield f"{path}: lacks member {key!r}"
        props = s.get("properties", {})
        for key, val in v.items():
            if "propertyNames" in s:
                for e in self.errors(key, s["propertyNames"], f"{path}.{key}"):
                    yield f"member name {e}"
            if key in props:
                yield from self.errors(val, props[key], f"{path}.{key}")
            elif s.get("additionalProperties", True) is False:
                yield f"{path}: unexpected member {key!r}"

    def ok(self, v, s):
        return next(self.errors(v, s), None) is None


def same(a, b):
    return type(a) is type(b) and a == b or (TYPES["number"](a) and TYPES["number"](b) and a == b)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        validator = Validator(json.load(f))
    bad = 0
    for name in argv[2:]:
        try:
            text = sys.stdin.read() if name == "-" else open(name).read()
            doc = json.loads(text)
        except (OSError, ValueError) as e:
            print(f"{name}: not a JSON document: {e}")
            bad += 1
            continue
        errs = list(validator.errors(doc, validator.root))
        for e in errs[:20]:
            print(f"{name}: {e}")
        bad += bool(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
