#!/usr/bin/env python3
"""unit_cycles.py OBJ_OR_DIR...: do two compiled units need each other?

Reads every object's defined and used global symbols with nm. Unit A needs
unit B when A uses a symbol B defines. A cycle is a strongly connected
component of more than one unit in that graph (A needs B and B, through any
chain, needs A). Prints each cycle with the symbols on its edges, then
"N units, M cycles"; exit status 1 if there is a cycle, 2 on an error.
Objects under a tests/ directory are left out (test programs may use anything).
"""
import os
import subprocess
import sys


def objects(args):
    for a in args:
        if os.path.isdir(a):
            for root, dirs, files in os.walk(a):
                dirs[:] = sorted(d for d in dirs if d != 'tests')
                for f in sorted(files):
                    if f.endswith('.o'):
                        yield os.path.join(root, f)
        else:
            yield a


def symbols(objs):
    """{obj: (defined, used)}, from one nm over all of them (a run each costs more than reading)"""
    out = subprocess.run(['nm', '-A'] + objs, check=True, capture_output=True, text=True).stdout
    table = {o: (set(), set()) for o in objs}
    longest_first = sorted(objs, key=len, reverse=True)
    for line in out.splitlines():
        obj = next((o for o in longest_first if line.startswith(o + ':')), None)
        if obj is None:
            continue
        defined, used = table[obj]
        p = line[len(obj) + 1:].split()
        if len(p) == 3 and p[1] in 'TDBRVWCG':
            defined.add(p[2])
        elif len(p) == 2 and p[0] == 'U':
            used.add(p[1])
    return table


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop(); on.discard(w); comp.append(w)
                        if w == v:
                            break
                    comps.append(sorted(comp))
    return comps


def main(argv):
    objs = list(objects(argv[1:]))
    if not objs:
        print('unit_cycles.py: no objects in ' + ' '.join(argv[1:]), file=sys.stderr)
        return 2
    base = os.path.commonpath([os.path.dirname(os.path.abspath(o)) for o in objs])
    name = {o: os.path.relpath(os.path.abspath(o), base) for o in objs}
    definer, uses = {}, {}
    table = symbols(objs)
    for o in objs:
        d, u = table[o]
        uses[o] = u
        for s in d:
            definer.setdefault(s, o)
    edges = {o: set() for o in objs}
    why = {}
    for o in objs:
        for s in uses[o]:
            b = definer.get(s)
            if b and b != o:
                edges[o].add(b)
                why.setdefault((o, b), set()).add(s)
    cycles = [c for c in strongly_connected(objs, edges) if len(c) > 1]
    for c in cycles:
        print('cycle: ' + ' '.join(name[o] for o in c))
        for a in c:
            for b in c:
                if (a, b) in why:
                    print('    %s -> %s: %s' % (name[a], name[b], ' '.join(sorted(why[(a, b)]))))
    print('%d units, %d cycles' % (len(objs), len(cycles)))
    return 1 if cycles else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
