#!/usr/bin/env bash
# Issue 27: a card whose random writes are fast only for blocks of 512KiB and
# up (2 random slots, a 512KiB mapping unit) was called "0 random slots" at
# high confidence where the unit is half an erase block or more (1MiB and
# 1.5MiB blocks): the random reference measured rows from a quarter block
# down, all under the unit, so the unit never showed. On several erase sizes,
# seeds, states and host noise levels --auto now counts 2, or says low.
. "$(dirname "$0")/../lib.sh"
need_tool python3
u=random-au=2,fat-aus=0,map-unit=512K,claims=none
cards=(
	"sim:sa04g,size=32G,erasesize=1M,pagesize=4K,open-au=6,$u,seed=2,noise=10,gc-defer=4"
	"sim:sdhc-good,size=16G,erasesize=1M,pagesize=8K,open-au=2,$u,seed=38,noise=2,jitter=100,state=discarded,gc-defer=4"
	"sim:su04g,size=8G,erasesize=1536K,pagesize=16K,open-au=2,$u,seed=3,noise=2,state=discarded"
	"sim:sdc10,size=16G,erasesize=1536K,pagesize=4K,open-au=2,$u,seed=7,jitter=50,burst=5,stretch=2,state=discarded"
	"sim:size=16G,erasesize=2M,pagesize=16K,open-au=4,$u,seed=1,noise=5"
	"sim:sdhc-good,size=32G,erasesize=3M,pagesize=4K,open-au=4,$u,seed=8,jitter=50,burst=1,state=discarded,gc-defer=4"
	"sim:size=16G,erasesize=4M,pagesize=16K,open-au=4,$u,seed=2,noise=5,state=used"
	"sim:size=16G,erasesize=8M,pagesize=16K,open-au=4,$u,seed=3"
)
for c in "${cards[@]}"; do
	run "$FB" --auto --destructive --json "$c"
	expect_rc 0
	printf '%s' "$out" | pyrun -c '
import json, sys
r = json.load(sys.stdin)["verdict"]["open_au_random"]
ok = (r["n"] == 2 and not r["at_least"]) or r["confidence"] in ("low", "none")
if not ok:
    sys.exit("random slots %s%s (%s), want 2 or low: %s"
             % (r["n"], "+" if r["at_least"] else "", r["confidence"], r["evidence"]))
' || fail "$c"
done
exit 0
