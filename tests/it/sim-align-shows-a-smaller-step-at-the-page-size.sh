#!/usr/bin/env bash
# -a with 1 KiB reads on simulated cards with pages of 4K..32K: the diff is
# raised from the page size up (a medium step, below the erase-size level)
# and near zero below it.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

FLASHBENCH="$FB" python3 - "$TESTS_DIR/it/sim-output.py" <<'PY' || exit 1
import runpy, sys
globals().update(runpy.run_path(sys.argv[1]))

bad = []
for i, (e, p) in enumerate([(4*M, 4*K), (3*M, 8*K), (1*M, 16*K), (12*M, 32*K), (512*K, 8*K)]):
    spec = f"size=1G,erasesize={e},pagesize={p},noise={5 * (i % 3)},seed={i}"
    try:
        d = align(spec, "--blocksize=1024")
        hi = min(d[a] for a in d if a >= e and a % e == 0)
        at_page = d[p]
        below = max(d[a] for a in d if a <= p // 2)
        check(at_page < 0.7 * hi, f"page row {at_page:.0f}ns not below erase rows {hi:.0f}ns")
        check(below < 0.5 * at_page, f"rows below the page {below:.0f}ns vs page row {at_page:.0f}ns")
        check(at_page > 30e3, f"page row {at_page:.0f}ns")
    except (Failure, KeyError, ValueError) as f:
        bad.append(f"sim:{spec}: {f!r}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
