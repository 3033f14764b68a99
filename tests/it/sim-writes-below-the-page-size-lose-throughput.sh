#!/usr/bin/env bash
# --open-au with one erase block on simulated cards with pages of 4K..32K:
# every halving of the write size below the page size halves the rate
# (a partial page costs a whole page); above the page size it does not.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

FLASHBENCH="$FB" python3 - "$TESTS_DIR/it/sim-output.py" <<'PY' || exit 1
import runpy, sys
globals().update(runpy.run_path(sys.argv[1]))

bad = []
for i, p in enumerate([4*K, 8*K, 16*K, 32*K]):
    spec = f"size=1G,erasesize=4M,pagesize={p},open-au=1,noise={5 * (i % 2)},seed={i}"
    try:
        r = open_au(spec, 1, 4*M, 1024)
        for bs in (p // 2, p // 4):
            check(0.4 < r[bs] / r[2 * bs] < 0.6,
                  f"{bs} bytes: {r[bs]:.0f}B/s vs {r[2 * bs]:.0f}B/s at {2 * bs}")
        check(r[p] / r[2 * p] > 0.6, f"above the page: {r[p]:.0f}B/s at {p}, {r[2 * p]:.0f}B/s at {2 * p}")
    except Failure as f:
        bad.append(f"sim:{spec}: {f}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
