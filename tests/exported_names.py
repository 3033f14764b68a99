#!/usr/bin/env python3
"""exported_names.py SRC BUILD: does every exported name carry its folder's prefix?

For every object BUILD/FOLDER/UNIT.o (objects under BUILD/tests are test
programs and left out) reads the global symbols it defines with nm and
checks each against the "Names:" paragraph of SRC/FOLDER/README: a word
ending in "_" there is a prefix, any other word with a "_" in it an exact
name. The user's top-level units have their own: dev.o dev_, vm.o vm_,
flashbench.o main. Names starting with "__" are the compiler's. Prints each name that carries none, then
"N units, M names, K without their prefix"; exit 1 if there is one, 2 on
an error (a folder without a Names: paragraph is one).
"""
import os
import re
import subprocess
import sys

TOP = {'dev': ['dev_'], 'vm': ['vm_'], 'flashbench': ['=main']}


def allowed(src, folder):
    path = os.path.join(src, folder, 'README')
    try:
        text = open(path).read()
    except OSError as e:
        print('exported_names: %s: %s' % (path, e.strerror), file=sys.stderr)
        sys.exit(2)
    m = re.search(r'^Names:(.*?)(?:\n\s*\n|\Z)', text, re.S | re.M)
    if not m:
        print('exported_names: %s has no "Names:" paragraph' % path, file=sys.stderr)
        sys.exit(2)
    words = re.findall(r'[A-Za-z0-9_]+', re.sub(r'\([^)]*\)', ' ', m.group(1)))
    return [w if w.endswith('_') else '=' + w for w in words if '_' in w]


def defined(objs):
    """{obj: [global names it defines]}, from one nm over all of them"""
    out = subprocess.run(['nm', '-A', '--defined-only', '-g'] + objs, check=True,
                         capture_output=True, text=True).stdout if objs else ''
    table = {o: [] for o in objs}
    longest_first = sorted(objs, key=len, reverse=True)
    for line in out.splitlines():
        obj = next((o for o in longest_first if line.startswith(o + ':')), None)
        p = line[len(obj) + 1:].split() if obj else []
        # names the compiler makes (__odr_asan.x under ASan) are reserved, not ours
        if len(p) == 3 and not p[2].startswith('__'):
            table[obj].append(p[2])
    return table


def fits(name, rules):
    return any(name == r[1:] if r.startswith('=') else name.startswith(r) for r in rules)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, build = sys.argv[1], sys.argv[2]
    units = names = bad = 0
    objs = []
    for root, dirs, files in os.walk(build):
        dirs[:] = sorted(d for d in dirs if d != 'tests')
        objs += [os.path.join(root, f) for f in sorted(files) if f.endswith('.o')]
    table = defined(objs)
    for obj in objs:
        root, f = os.path.split(obj)
        rel = os.path.relpath(root, build)
        unit = f[:-2]
        rules = TOP.get(unit, []) if rel == '.' else allowed(src, rel.split(os.sep)[0])
        units += 1
        for name in table[obj]:
            names += 1
            if not fits(name, rules):
                bad += 1
                print('%s: %s carries none of: %s' % (os.path.normpath(os.path.join(rel, f)), name,
                      ' '.join(r.lstrip('=') for r in rules) or '(no names)'))
    print('%d units, %d names, %d without their prefix' % (units, names, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
