#!/usr/bin/env python3
"""Runs flashbench on the recorded cases of the original (tests/data/original)
the way they were recorded, and compares, part by part: the device I/O
(every transfer of more than 0 bytes, in order, with the data written; and
that we make no zero-length calls, which the original made after each),
stdout, stderr, the -o file, the exit status, and the device opens and
scheduler calls of the cases in syscalls.txt.

Usage: original_compare.py --flashbench BIN --fakeclock SO --work DIR
                           [--expect CASE:PART,PART ...] [CASE ...]

An --expect entry names a documented difference (README, "Compatibility"):
that part must differ, every other part must be the same. Two documented
differences are taken out before comparing instead, so that the rest of the
case still has to match: the 3*2^n rows -a prints between the original's
rows (their lines and their reads), and the original's reads that failed
on a device with larger sectors (we do not issue them: the I/O compared is
the original's without them). Prints one line per case; exits 1 if any case
differs other than as expected. Needs root, strace and losetup.
"""
import argparse
import gzip
import os
import re
import subprocess
import sys
import time

PARTS = ("io", "stdout", "stderr", "outfile", "exit", "opens", "sched")


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def load_case(cases, name):
    d = os.path.join(cases, name)
    cmd = {}
    for line in read(os.path.join(d, "cmd"), "r").splitlines():
        key, _, value = line.partition(": ")
        cmd[key] = value
    io = []
    with gzip.open(os.path.join(d, "io.tsv.gz"), "rt") as f:
        for line in f:
            io.append(tuple(line.rstrip("\n").split("\t")))
    case = {
        "name": name, "args": cmd["args"].split(), "size": int(cmd["size"]),
        "sector": int(cmd["sector"]), "env": cmd.get("env", "").split(),
        "io": io, "stdout": read(os.path.join(d, "stdout")),
        "stderr": read(os.path.join(d, "stderr")),
        "exit": int(read(os.path.join(d, "exit"), "r").strip()),
        "outfile": None,
    }
    if os.path.exists(os.path.join(d, "outfile")):
        case["outfile"] = read(os.path.join(d, "outfile"))
    return case


def load_syscalls(cases):
    """{case: [normalised open/sched lines]} from syscalls.txt"""
    sections, cur = {}, None
    for line in read(os.path.join(cases, "syscalls.txt"), "r").splitlines():
        if line.startswith("## "):
            cur = sections.setdefault(line[3:].strip(), [])
        elif cur is not None and (line.startswith("open ") or line.startswith("sched_")):
            cur.append(line)
    return sections


# ---------------------------------------------------------------- running

TRACE_RE = re.compile(r"^(?:\d+ +)?(\w+)\((.*)\) += (-?\d+)(?: (\w+))?")


def split_args(s):
    """strace's argument list: top-level commas only"""
    out, depth, cur, quoted = [], 0, "", False
    for ch in s:
        if ch == '"' and not cur.endswith("\\"):
            quoted = not quoted
        if not quoted:
            if ch in "([{<":
                depth += 1
            elif ch in ")]}>":
                depth -= 1
            elif ch == "," and depth == 0:
                out.append(cur.strip())
                cur = ""
                continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_trace(path, dev, outfile):
    """(io, calls) from strace output: io rows (op, off, len, result) on dev's fds"""
    io, calls, dev_fds = [], [], set()
    for line in read(path, "r").splitlines():
        m = TRACE_RE.match(line)
        if not m:
            continue
        name, args, ret, err = m.group(1), split_args(m.group(2)), int(m.group(3)), m.group(4)
        result = "%d:%s" % (ret, err) if ret < 0 else str(ret)
        if name in ("open", "openat"):
            target = (args[1] if name == "openat" else args[0]).strip('"')
            who = "DEV" if target == dev else "OUTFILE" if target == outfile else None
            if who:
                flags = args[2] if name == "openat" else args[1]
                flags = sorted(f for f in flags.split("|") if f != "O_LARGEFILE")
                calls.append("open %s %s%s" % (who, "|".join(flags), "" if ret >= 0 else " -> " + err))
            if who == "DEV" and ret >= 0:
                dev_fds.add(ret)
            continue
        if name == "close":
            dev_fds.discard(int(args[0]))
            continue
        if name.startswith("sched_"):
            if name == "sched_setscheduler" and len(args) >= 3:
                calls.append("sched_setscheduler %s %s" % (args[1], args[2].strip("[]{} ").split("=")[-1]))
            else:
                calls.append("%s %s" % (name, ", ".join(args[1:])))
            continue
        if not args or not args[0].isdigit() or int(args[0]) not in dev_fds:
            continue
        if name in ("pread64", "pwrite64"):
            op = "R" if name == "pread64" else "W"
            length, off = int(args[2]), int(args[3])
            if length == 0:
                op += "0"
            io.append([op, str(off), str(length), result, "-"])
        else:	# any other call on the device is a difference by itself
            io.append([name, "-", "-", result, "-"])
    return io, calls


def attach_hashes(io, log):
    hashes = read(log, "r").split() if os.path.exists(log) else []
    k = 0
    for row in io:
        if row[0] == "W":
            row[4] = hashes[k] if k < len(hashes) else "?"
            k += 1
    return [tuple(r) for r in io]


def run_case(case, opts):
    work = os.path.join(opts.work, case["name"])
    os.makedirs(work)
    cwd = os.path.join(work, "cwd")
    os.makedirs(cwd)
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir)
    os.symlink(opts.flashbench, os.path.join(bindir, "flashbench"))
    backing = os.path.join(work, "card")
    with open(backing, "wb") as f:
        f.truncate(case["size"])
    dev = subprocess.run(["losetup", "-f", "--show", "-b", str(case["sector"]), backing],
                         capture_output=True, text=True)
    if dev.returncode != 0:
        raise RuntimeError("losetup: " + dev.stderr.strip())
    dev = dev.stdout.strip()
    outfile = os.path.join(cwd, "out")
    trace, log = os.path.join(work, "strace.txt"), os.path.join(work, "writes.log")
    args = [dev if a == "DEV" else outfile if a == "OUTFILE" else a for a in case["args"]]
    env = ["PATH=%s:/usr/bin:/bin" % bindir, "LD_PRELOAD=" + opts.fakeclock,
           "FAKECLOCK_LOG=" + log]
    for kv in case["env"]:
        env.append(kv.replace("FAKEIO_", "FAKECLOCK_", 1) if kv.startswith("FAKEIO_") else kv)
    # an AddressSanitizer build (make check-asan) under LD_PRELOAD and ptrace;
    # nothing to any other build
    env.append("ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0")
    strace = ["strace", "-f", "-qq", "-s", "0", "-o", trace,
              "-e", "trace=open,openat,close,sched_setscheduler,sched_setaffinity,sched_setparam,"
              "pread64,pwrite64,preadv,pwritev,preadv2,pwritev2,read,write,readv,writev"]
    for kv in env:
        strace += ["-E", kv]
    try:
        with open(os.path.join(work, "stdout"), "wb") as so, \
             open(os.path.join(work, "stderr"), "wb") as se, open(os.devnull, "rb") as si:
            rc = subprocess.run(strace + ["flashbench"] + args, cwd=cwd, stdin=si, stdout=so,
                                stderr=se, env={"PATH": bindir + ":/usr/bin:/bin"},
                                timeout=opts.timeout).returncode
    finally:
        subprocess.run(["losetup", "-d", dev])
        os.unlink(backing)
    io, calls = parse_trace(trace, dev, outfile)
    err = read(os.path.join(work, "stderr")).replace(dev.encode(), b"DEV").replace(outfile.encode(), b"OUTFILE")
    return {
        "io": attach_hashes(io, log), "calls": calls, "exit": rc,
        "stdout": read(os.path.join(work, "stdout")), "stderr": err,
        "outfile": read(outfile) if os.path.exists(outfile) else None,
    }


# ------------------------------------------------------- documented differences

def opt_value(args, short, long, default):
    for i, a in enumerate(args):
        if a == short and i + 1 < len(args):
            return a, args[i + 1]
        if a.startswith(long + "="):
            return a, a.split("=", 1)[1]
    return None, default


def our_number(text):
    """a -b/-c value as flashbench reads it: " +16K" is 16384, 0x4000 is 16384"""
    t = text.strip().lstrip("+")
    if t.lower().startswith("0x"):
        return int(t, 16)
    m = re.match(r"^(\d+)([KMG]?)(?:i?B)?$", t, re.I)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]


def runs_align(args):
    return any(a == "-a" or a == "--a" or a == "--align" or
               (re.match(r"^-[a-zA-Z]+$", a) and "a" in a[1:]) for a in args)


def align_top(size, bs):
    top = 2 * bs
    while top < size // 7:
        top *= 2
    return top


def row_reads(size, bs, count, top, a):
    """the reads of one -a row as the original does them, with reads across the end split"""
    rows = []
    for _ in range(count):
        for delta in (-bs, -bs // 2, 0):
            for k in range(7):
                off = (k * top + a + delta) % size
                if off + bs <= size:
                    rows.append(("R", str(off), str(bs), str(bs), "-"))
                else:
                    rows.append(("R", str(off), str(bs), str(size - off), "-"))
                    rows.append(("R", "0", str(off + bs - size), str(off + bs - size), "-"))
    return rows


def drop_three_times_rows(case, got):
    """
    Takes our 3*2^n -a rows (lines and reads) out; False if they are not
    there or do not read the original's pattern at the original's places.
    Returns the number of the first -a line after such a row (1-based), or
    0: from there the synthetic clock's periodic delays fall on other reads
    than in the original's run, so the times may differ.
    """
    _, bs = opt_value(case["args"], "-b", "--blocksize", "16384")
    _, count = opt_value(case["args"], "-c", "--count", "8")
    bs, count, size = our_number(bs), our_number(count), case["size"]
    top = align_top(size, bs)
    want = 0
    if top & (top - 1) == 0:	# a power of two: the 3*2^n rows between
        a = top
        while a >= 2 * bs:
            want += a // 4 * 3 >= 2 * bs
            a //= 2
    lines, io, found, shifted = got["stdout"].split(b"\n"), list(got["io"]), 0, 0
    kept = []
    for line in lines:
        m = re.match(rb"^align (\d+)\t", line)
        a = int(m.group(1)) if m else 0
        if m and a <= top and top % a == 0 and (top // a) & (top // a - 1) == 0:
            kept.append(line)
            if found and not shifted:
                shifted = len(kept)
        elif m:
            reads = row_reads(size, bs, count, top, a)
            for i in range(len(io) - len(reads) + 1):
                if io[i:i + len(reads)] == reads:
                    del io[i:i + len(reads)]
                    break
            else:
                return False	# its reads are not the original's pattern at its places
            found += 1
        else:
            kept.append(line)
    got["stdout"], got["io"] = b"\n".join(kept), io
    return found == want, shifted


def first_difference(want, got):
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            return i, w, g
    if len(want) != len(got):
        i = min(len(want), len(got))
        return i, want[i] if i < len(want) else "(no more)", got[i] if i < len(got) else "(no more)"
    return None


def first_field(line, count):
    """
    What stays the same when the clock's periodic delays moved to other
    transfers: the size of a rate row; an -a row whole when it has 2 tries
    or more (the minimum per place then has a try without the delay,
    whichever transfers it falls on), else its boundary.
    """
    if line.startswith(b"align "):
        return line if count >= 2 else line.split(b"\t")[0]
    m = re.match(rb"^(\S+ )", line)
    return m.group(1) if m else line


def compare(case, got, syscalls, shifted=0):
    """
    {part: description} of the parts that differ. From stdout line `shifted`
    on (after one of our 3*2^n -a rows) the rows compare by their first field.
    """
    diffs = {}
    want_io = [r for r in case["io"] if r[2] != "0" and not r[0].endswith("0")]
    got_io = [r for r in got["io"] if not r[0].endswith("0")]
    d = first_difference(want_io, got_io)
    if d:
        diffs["io"] = "transfer %d of %d (original) / %d (ours): %s | %s" % (
            d[0] + 1, len(want_io), len(got_io), "\t".join(d[1]) if isinstance(d[1], tuple) else d[1],
            "\t".join(d[2]) if isinstance(d[2], tuple) else d[2])
    # the original's zero-length call after each transfer, inside its timed
    # interval, is its defect: we make none (README, "Compatibility")
    zero_got = sum(1 for r in got["io"] if r[0].endswith("0"))
    if zero_got:
        diffs["zero"] = "%d zero-length calls on the device (we make none)" % zero_got
    for part in ("stdout", "stderr"):
        want_lines, got_lines = case[part].split(b"\n"), got[part].split(b"\n")
        if part == "stdout" and shifted:
            count = our_number(opt_value(case["args"], "-c", "--count", "8")[1])
            want_lines = want_lines[:shifted - 1] + [first_field(l, count) for l in want_lines[shifted - 1:]]
            got_lines = got_lines[:shifted - 1] + [first_field(l, count) for l in got_lines[shifted - 1:]]
        d = first_difference(want_lines, got_lines)
        if d:
            diffs[part] = "line %d: %r | %r" % (d[0] + 1, d[1], d[2])
    if case["outfile"] is not None and case["outfile"] != got["outfile"]:
        diffs["outfile"] = "the -o file differs"
    if case["exit"] != got["exit"]:
        diffs["exit"] = "exit %d (original) / %d (ours)" % (case["exit"], got["exit"])
    if case["name"] in syscalls:
        want = syscalls[case["name"]]
        for part, prefix in (("opens", "open "), ("sched", "sched_")):
            w = [c for c in want if c.startswith(prefix)]
            g = [c for c in got["calls"] if c.startswith(prefix)]
            if w != g:
                diffs[part] = "%s | %s" % ("; ".join(w), "; ".join(g))
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flashbench", required=True)
    ap.add_argument("--fakeclock", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "data", "original"))
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--timeout", type=int, default=240)
    ap.add_argument("case", nargs="*")
    opts = ap.parse_args()
    opts.flashbench = os.path.abspath(opts.flashbench)
    expected = {}
    for e in opts.expect:
        name, _, parts = e.partition(":")
        expected[name] = set(p for p in parts.split(",") if p)
        bad = expected[name] - set(PARTS)
        if bad:
            sys.exit("--expect %s: no such part %s (parts: %s)" % (e, ", ".join(bad), ", ".join(PARTS)))
    names = opts.case or sorted(n for n in os.listdir(opts.cases)
                                if os.path.isdir(os.path.join(opts.cases, n)))
    syscalls = load_syscalls(opts.cases)
    failed = 0
    for name in names:
        case = load_case(opts.cases, name)
        t0 = time.monotonic()
        got = run_case(case, opts)
        took = " (%.1fs)" % (time.monotonic() - t0)
        notes = []
        shifted = 0
        if runs_align(case["args"]) and got["exit"] == 0:
            ok, shifted = drop_three_times_rows(case, got)
            if not ok:
                notes.append("the 3*2^n -a rows are missing or read elsewhere")
        # reads smaller than the sector size: the original's failed, we issue none
        case["io"] = [r for r in case["io"]
                      if not (r[3].startswith("-1:") and int(r[2]) < case["sector"])]
        diffs = compare(case, got, syscalls, shifted)
        want = expected.get(name, set())
        unexpected = {p: d for p, d in diffs.items() if p not in want}
        vanished = sorted(want - set(diffs))
        if unexpected or vanished or notes:
            failed += 1
            print("FAIL %s%s" % (name, took))
            for p, d in sorted(unexpected.items()):
                print("    %s: %s" % (p, d))
            for p in vanished:
                print("    %s: documented as different, but the same now (update README and the test)" % p)
            for n in notes:
                print("    " + n)
        else:
            print("ok   %s%s%s" % (name, took, ", differs as documented: %s" % ", ".join(sorted(want))
                                      if want else ""))
    print("%d cases, %d failed" % (len(names), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
