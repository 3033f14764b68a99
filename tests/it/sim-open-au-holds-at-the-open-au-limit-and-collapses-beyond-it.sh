#!/usr/bin/env bash
# --open-au (linear) on a matrix of simulated cards (erase sizes 512K..16M
# incl. 3*2^n, pages 4K..32K, 1..16 open AUs, noise 0..10%): with
# --open-au-nr=open-au the rate at page-sized writes holds; with one more
# erase block it collapses (far lower, halving with the write size).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

FLASHBENCH="$FB" python3 - "$TESTS_DIR/it/sim-output.py" <<'PY' || exit 1
import runpy, sys
globals().update(runpy.run_path(sys.argv[1]))

erase = [512*K, 1*M, 3*M//2, 3*M, 4*M, 6*M, 8*M, 12*M, 16*M]
pages = [4*K, 8*K, 16*K, 32*K]
opens = [1, 2, 3, 4, 5, 8, 12, 16]
bad = []
for i, e in enumerate(erase):
    for j in range(2):
        k = i * 2 + j
        p, n = pages[k % 4], opens[k % len(opens)]
        fat = min(k % 3, -(-16*M // e))    # the FAT area ends before the default --offset
        spec = (f"size=1G,erasesize={e},pagesize={p},open-au={n},random-au={n // 2},"
                f"fat-aus={fat},noise={[0, 5, 10][k % 3]},seed={k}")
        b = smallest_row(e, p)
        try:
            ok = open_au(spec, n, e, b)
            over = open_au(spec, n + 1, e, b)
            check(ok[b] > 0.2 * ok[e], f"N={n}: {ok[b]:.0f}B/s at {b}, {ok[e]:.0f}B/s at {e}: no hold")
            check(over[b] < 0.35 * ok[b], f"N={n + 1}: {over[b]:.0f}B/s at {b} vs {ok[b]:.0f}B/s at N={n}")
            if e // b >= 8:
                h = over[b] / over[2 * b]
                check(0.35 < h < 0.7, f"N={n + 1}: rate at {b} / rate at {2 * b} = {h:.2f}, not halving")
        except Failure as f:
            bad.append(f"sim:{spec}: {f}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
