#!/usr/bin/env python3
"""The calibration over several draws of the same cards: the band chance alone spans.

  calibration_band.py FLASHBENCH [--draws R] [calibration.py options...]

Runs bench/calibration.py with --reroll 0 .. R-1 (the same cards, another draw of the sim's
noise and state each: doc/card-facts.md, "What chance alone moves", 2026-12-03) and prints, for
each table (the 320 cards, today's cards) and each verdict, the exact share of every draw and
their band (lowest .. highest), the answers wrong at "high" or "medium" per draw, and the cost
lines' median and worst per draw. A change is judged against main's band, not against one draw
card for card: on one draw main itself is at the top of its band (random exact 93.4 % on the
official draw, 91.6 .. 93.1 % on five rerolls).
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = re.compile(r"^#\s+(erase size|page size|open AUs linear|open AUs random|FAT area)\s+(.*?)\s+(\d+\.\d)%$")
CELL = re.compile(r"(\d+)/(\d+)")
COST = re.compile(r"^# cost( \(today's cards\))?: .*?median ([\d.]+) .*?worst ([\d.]+);")


def parse(text):
    """{table: {verdict: (exact %, wrong at high or medium)}, table + ' cost': (median, worst)}"""
    out, table = {}, None
    for line in text.splitlines():
        if line.startswith("# calibration") or line.startswith("# cards as they are made today"):
            table = "today" if "made today" in line else "cards"
            out[table] = {}
        m = ROW.match(line)
        if m and table:
            cells = CELL.findall(m.group(2))
            wrong = sum(int(w) for _, w in cells[:2])	# the high and medium cells
            out[table][m.group(1)] = (float(m.group(3)), wrong)
        m = COST.match(line)
        if m:
            out[("today" if m.group(1) else "cards") + " cost"] = (float(m.group(2)), float(m.group(3)))
    return out


def band(values):
    """'lowest .. highest' of a list of numbers."""
    return f"{min(values):g} .. {max(values):g}"


def report(draws):
    """The lines for a list of parsed draws (parse()), in draw order."""
    lines = []
    for table in ("cards", "today"):
        if not all(table in d for d in draws):
            continue
        lines.append(f"# {table}: {len(draws)} draws (reroll 0 .. {len(draws) - 1})")
        for verdict in draws[0][table]:
            exact = [d[table][verdict][0] for d in draws]
            wrong = [d[table][verdict][1] for d in draws]
            lines.append(f"#   {verdict:16} exact {' '.join(f'{x:.1f}' for x in exact)}  band {band(exact)};"
                         f" wrong at high/medium {' '.join(map(str, wrong))}")
        key = table + " cost"
        if all(key in d for d in draws):
            med = [d[key][0] for d in draws]
            worst = [d[key][1] for d in draws]
            lines.append(f"#   cost: median band {band(med)}, worst band {band(worst)}")
    return lines


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    fb, rest, draws = argv[1], argv[2:], 5
    if "--draws" in rest:
        i = rest.index("--draws")
        draws = int(rest[i + 1])
        del rest[i:i + 2]
    parsed = []
    for k in range(draws):
        p = subprocess.run([sys.executable, os.path.join(HERE, "calibration.py"), fb, *rest, "--reroll", str(k)],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit(f"calibration_band: draw {k}: exit {p.returncode}: {p.stderr.strip()[:300]}")
        parsed.append(parse(p.stdout))
    print("\n".join(report(parsed)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
