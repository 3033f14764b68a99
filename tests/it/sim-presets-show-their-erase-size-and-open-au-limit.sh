#!/usr/bin/env bash
# Each preset, as a new user would try it: `-a sim:PRESET` shows the preset's
# erase size (diff high from it up, clearly lower well below), and
# `-O --open-au-nr=3 sim:PRESET` holds on cards with 3 or more open AUs and
# collapses on those with fewer. --help lists every preset.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

run "$FB" --help; expect_rc 0
for p in microsd-cheap sdhc-good emmc sdxc-tlc cf-16m; do
	expect_out "$p"
done

FLASHBENCH="$FB" python3 - "$TESTS_DIR/it/sim-output.py" <<'PY' || exit 1
import runpy, sys
globals().update(runpy.run_path(sys.argv[1]))

presets = {  # name: erase size, open AUs
    "microsd-cheap": (4*M, 1), "sdhc-good": (4*M, 8), "emmc": (512*K, 16),
    "sdxc-tlc": (12*M, 4), "cf-16m": (16*M, 4),
}
bad = []
for name, (e, n) in presets.items():
    try:
        d = align(name)
        hi = min(d[a] for a in d if a >= e and a % e == 0)
        lo = max(d[a] for a in d if a * 4 <= e)
        check(hi > 1.5 * lo, f"-a: erase-size rows {hi:.0f}ns, rows below {lo:.0f}ns")
        args = ["-O", "--open-au-nr=3"] + ([] if e == 4*M else [f"--erasesize={e}"])
        rows = dict((bs, r[0]) for bs, r in rates(*args, "sim:" + name))
        small = rows[min(rows)] / rows[e]
        if n >= 3:
            check(small > 0.2, f"-O --open-au-nr=3: collapses ({small:.2f}) with {n} open AUs")
        else:
            check(small < 0.02, f"-O --open-au-nr=3: holds ({small:.2f}) with {n} open AUs")
    except Failure as f:
        bad.append(f"{name}: {f}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
