#!/usr/bin/env bash
# --find-fat on simulated cards with 0..3 page-mapped (FAT) erase blocks,
# linear and --random: at block sizes up to two pages the first fat-aus columns
# are clearly faster than every other column; without a FAT area the
# columns are alike.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

FLASHBENCH="$FB" python3 - "$TESTS_DIR/it/sim-output.py" <<'PY' || exit 1
import runpy, sys
globals().update(runpy.run_path(sys.argv[1]))

erase = [512*K, 3*M//2, 4*M, 6*M, 12*M, 16*M]
pages = [4*K, 8*K, 16*K, 32*K]
bad = []
for i, e in enumerate(erase):
    for j, random in enumerate([False, True]):
        k = i * 2 + j
        p, fat = pages[k % 4], k % 4
        spec = (f"size=1G,erasesize={e},pagesize={p},open-au=4,random-au={k % 3},fat-aus={fat},"
                f"noise={[0, 5, 10][k % 3]},seed={k}")
        b = smallest_row(e, p)
        args = ["-f", "--fat-nr=6", f"--erasesize={e}", f"--blocksize={b}"] + (["-r"] if random else [])
        try:
            rows = rates(*args, "sim:" + spec)
            for bs, cols in rows:
                check(len(cols) == 6, f"{len(cols)} columns")
                if bs > 2 * p:
                    continue
                if fat:
                    check(min(cols[:fat]) > 1.4 * max(cols[fat:]),
                          f"{'-r ' if random else ''}at {bs:.0f}: FAT columns {cols[:fat]} vs {cols[fat:]}")
                else:
                    check(max(cols) < 1.25 * min(cols), f"at {bs:.0f}: columns differ: {cols}")
        except Failure as f:
            bad.append(f"sim:{spec}: {f}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
