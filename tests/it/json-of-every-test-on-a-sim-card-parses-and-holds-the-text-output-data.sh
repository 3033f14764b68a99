#!/usr/bin/env bash
# --json prints one valid JSON document for every test, holding the same
# measurements as the text output, in base units (bytes, ns, bytes/s).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
dev=sim:sdhc-good

# check TEST-ARGS... : run text and JSON, hand both to python ($T/check.py)
check() {
	run "$FB" "$@" "$dev"
	expect_rc 0
	printf '%s\n' "$out" >"$T/text"
	run "$FB" --json "$@" "$dev"
	expect_rc 0
	printf '%s\n' "$out" >"$T/json"
	pyrun "$T/check.py" "$T/text" "$T/json" "$*" || fail "--json $*"
}

cat >"$T/check.py" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))
args = sys.argv[3]
assert d["tool"] == "flashbench" and d["version"], d
assert d["device"]["name"] == "sim:sdhc-good" and d["device"]["size_bytes"] == 32 << 30, d["device"]
assert d["status"]["state"] == "complete" and d["status"]["failed_io_count"] == 0, d["status"]
assert d["parameters"]["blocksize_bytes"] > 0, d["parameters"]
size = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
def bytes_of(s):
    m = re.fullmatch(r"([0-9.]+)(B|KiB|MiB|GiB)", s)
    return round(float(m.group(1)) * size[m.group(2)])
def ints(xs):
    return all(isinstance(x, int) for x in xs)

if args.startswith("-a"):
    rows = d["align"]["rows"]
    assert [r["align_bytes"] for r in rows] == [int(l.split()[1]) for l in text], "align rows differ"
    assert ints(r[k] for r in rows for k in ("pre_ns", "on_ns", "post_ns", "diff_ns"))
    for r in rows:
        assert abs(r["diff_ns"] - (r["on_ns"] - (r["pre_ns"] + r["post_ns"]) / 2)) <= 1, r
    assert d["verdict"]["erase_size"]["size_bytes"] == 4 << 20, d["verdict"]
elif args.startswith("-O") or args.startswith("-f"):
    key = "open_au" if args.startswith("-O") else "find_fat"
    assert d["test"] == key, d["test"]
    rows = d[key]["rows"]
    assert [r["blocksize_bytes"] for r in rows] == [bytes_of(l.split()[0]) for l in text], "sizes differ"
    ncols = 6 if key == "find_fat" else 1
    if key == "open_au":   # sdhc-good keeps 8 erase blocks open: 3 hold
        assert d["verdict"] == {"open_au_nr": 3, "small_block_writes": "holds"}, d["verdict"]
    else:
        assert d["verdict"]["fat_area"]["confidence"] in ("none", "low", "medium", "high"), d["verdict"]
    for r, l in zip(rows, text):
        assert len(r["rate_bytes_per_s"]) == ncols == len(l.split()) - 1, (r, l)
        for rate, ns, b in zip(r["rate_bytes_per_s"], r["time_ns"], r["written_bytes"]):
            assert rate > 0 and ns > 0 and b > 0 and abs(rate - b / (ns / 1e9)) / rate < 0.01, r
elif args.startswith("-s"):
    pts = d["scatter"]["points"]
    assert len(pts) == len(text) == 512, len(pts)
    for p, l in zip(pts, text):
        mib, ms = map(float, l.split())
        assert abs(p["offset_bytes"] / 2**20 - mib) < 1e-5 and abs(p["min_ns"] / 1e6 - ms) < 1e-5, (p, l)
elif args.startswith("-i"):
    rows = d["interval"]["rows"]
    assert [r["transfer_bytes"] for r in rows] == [int(l.split()[0]) for l in text if " bytes: " in l], rows
    assert all(r["min_ns"] <= r["avg_ns"] <= r["max_ns"] for r in rows), rows
    assert d["interval"]["fit"]["rate_bytes_per_s"] > 0 and d["interval"]["fit"]["access_ns"] > 0
elif args.startswith("-p"):
    rows = d["program"]["rows"]
    # 8 labelled cells per text line (the original's unlabelled columns)
    assert len(rows) == 8 * len(text) and all(r["rate_bytes_per_s"] > 0 for r in rows), len(rows)
    assert [r["label"] for r in rows[:8]] == ["write zeros linear", "write ones linear", "write 0x5a linear",
        "read linear", "write zeros random", "write ones random", "write 0x5a random", "read random"]
    assert [r["blocksize_bytes"] for r in rows[::8]] == [2**21 >> i for i in range(len(text))]
else:
    raise SystemExit("unknown test " + args)
PY

check -a
check -O --open-au-nr=3
check -f
check -s
check -i --interval-order=6
check -p
exit 0
