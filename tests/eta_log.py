"""
The run ETA figures of a --auto run drawn on a pseudo-terminal under the
virtual clock (script -O OUT, VCLOCK_LOG=TIMING): each progress line with
the virtual time it was written at and the ETA it showed, and the run's
length. Used by the ETA tests; bench/eta.sh reads the same logs itself.
"""
import re


def eta_figures(timing_path, out_path):
    """(run length in s, [(when, shown ETA in s, the line's bytes)])."""
    out = open(out_path, "rb").read()
    out = out[out.index(b"\n") + 1:]	# script's header line
    end = out.rfind(b"\nScript done")
    out = (out[:end + 1] if end >= 0 else out).replace(b"\r\n", b"\n")	# the terminal's onlcr
    t, pos, ends = 0.0, 0, []	# the virtual time at the end of each write to stderr
    for line in open(timing_path):
        d, n = line.split()[:2]
        t += float(d); pos += int(n)
        ends.append((pos, t))
    k, figures = 0, []
    for m in re.finditer(rb"\r([^\r]*?)\x1b\[K", out):
        while k < len(ends) - 1 and ends[k][0] <= m.start():
            k += 1
        eta = re.search(rb"run ETA (\d+):(\d\d)(?::(\d\d))?$", m.group(1))
        if not eta:
            continue
        g = [int(x) if x else None for x in eta.groups()]
        shown = g[0] * 60 + g[1] if g[2] is None else g[0] * 3600 + g[1] * 60 + g[2]
        figures.append((ends[k][1], shown, m.group(1)))
    return t, figures
