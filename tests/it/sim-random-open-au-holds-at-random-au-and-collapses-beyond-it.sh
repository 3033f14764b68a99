#!/usr/bin/env bash
# --open-au --random on a matrix of simulated cards: with --open-au-nr equal
# to the card's random-au the rate at page-sized writes holds, with one more
# erase block it collapses (halving with the write size); a card with
# random-au=0 collapses at once.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

FLASHBENCH="$FB" python3 - "$TESTS_DIR/it/sim-output.py" <<'PY' || exit 1
import runpy, sys
globals().update(runpy.run_path(sys.argv[1]))

erase = [512*K, 1*M, 3*M//2, 3*M, 4*M, 6*M, 8*M, 12*M, 16*M]
pages = [4*K, 8*K, 16*K, 32*K]
bad = []
for i, e in enumerate(erase):
    for j in range(2):
        k = i * 2 + j
        p = pages[(k + 1) % 4]
        n = [2, 4, 8, 16, 1, 3][k % 6]
        r = [0, 1, 2, n][k % 4] if k % 4 != 2 else min(2, n)
        spec = (f"size=1G,erasesize={e},pagesize={p},open-au={n},random-au={r},"
                f"fat-aus=0,noise={[0, 5, 10][k % 3]},seed={k}")
        b = smallest_row(e, p)
        try:
            over = open_au(spec, r + 1, e, b, random=True)
            if r:
                ok = open_au(spec, r, e, b, random=True)
                check(ok[b] > 0.2 * ok[e], f"N={r}: {ok[b]:.0f}B/s at {b}, {ok[e]:.0f}B/s at {e}: no hold")
                check(over[b] < 0.5 * ok[b], f"N={r + 1}: {over[b]:.0f}B/s at {b} vs {ok[b]:.0f}B/s at N={r}")
            if e // b >= 8:
                h = over[b] / over[2 * b]
                check(0.35 < h < 0.7, f"N={r + 1}: rate at {b} / rate at {2 * b} = {h:.2f}, not halving")
        except Failure as f:
            bad.append(f"sim:{spec}: {f}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
