# Helpers for the tests/it/sim-*.sh matrix: run the binary on sim: cards and
# read its text output back into numbers. Imported, never run by tests/run.sh.
import os
import re
import subprocess

FB = os.environ["FLASHBENCH"]
K, M, G = 1024, 1024 ** 2, 1024 ** 3

_TIME = {"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
_RATE = {"B/s": 1, "K/s": 1e3, "M/s": 1e6, "G/s": 1e9}
_SIZE = {"B": 1, "KiB": K, "MiB": M, "GiB": G}


class Failure(Exception):
    pass


def _number(text, units):
    m = re.fullmatch(r"(-?[0-9.]+(?:e[+-]?[0-9]+)?)(\D+)", text)
    if not m or m.group(2) not in units:
        raise Failure(f"cannot read {text!r}")
    return float(m.group(1)) * units[m.group(2)]


def ns(text):
    return _number(text, _TIME)


def rate(text):
    return _number(text, _RATE)


def size(text):
    return _number(text, _SIZE)


def run(*args):
    p = subprocess.run([FB, *args], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise Failure(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def align(spec, *opts):
    """-a on a sim: card -> {boundary: diff in ns}"""
    out, rows = run("-a", *opts, "sim:" + spec), {}
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) == 5 and f[0].startswith("align ") and f[4].startswith("diff "):
            rows[int(f[0][6:])] = ns(f[4][5:])
    if not rows:
        raise Failure(f"-a sim:{spec}: no rows in {out[:200]!r}")
    return rows


def rates(*args):
    """--open-au / --find-fat -> [(block size, [rate, ...])], largest block first"""
    out, rows = run(*args), []
    for line in out.splitlines():
        f = line.split()
        if f:
            rows.append((size(f[0]), [rate(x) for x in f[1:]]))
    if not rows:
        raise Failure(f"{' '.join(args)}: no rows")
    return rows


def open_au(spec, n, erasesize, blocksize, random=False):
    """--open-au -> {block size: rate}"""
    args = ["-O", f"--open-au-nr={n}", f"--erasesize={erasesize}", f"--blocksize={blocksize}"]
    if random:
        args.append("--random")
    return {bs: r[0] for bs, r in rates(*args, "sim:" + spec)}


def smallest_row(erasesize, page):
    """the smallest erasesize/2^k that is >= page: the rows -O prints end there"""
    bs = erasesize
    while bs // 2 >= page and (bs // 2) % 512 == 0:
        bs //= 2
    return bs


def is_pow2(x):
    return x > 0 and x & (x - 1) == 0


def check(cond, msg):
    if not cond:
        raise Failure(msg)
