#!/usr/bin/env bash
# An open erase block count of medium or high confidence stands on
# replicas that agree: at least two runs at N that held and two at N+1 that
# collapsed (of the runs at the final erase size and offset), and, for
# high, none at N+1 that held. Two replicas that disagree are measured
# again or make the count low, never an agreement. On noisy simulated cards
# whose replicas do disagree at times (JSON: auto.write_phase.open_au_runs).
. "$(dirname "$0")/../lib.sh"
need_tool python3
cat >"$T/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["auto"]["write_phase"]
runs = [r for r in w.get("open_au_runs", []) if r["result"]["erasesize_bytes"] == w["erasesize_bytes"]
        and r["result"]["offset_bytes"] == w["open_au_offset_bytes"]]
lin = d["verdict"].get("open_au_linear") or {}
bad = []
for key, random in (("open_au_linear", False), ("open_au_random", True)):
    c = d["verdict"].get(key)
    if not c or c["confidence"] not in ("medium", "high") or c["at_least"]:
        continue
    n = c["n"]
    def verdicts(nr):
        return [r["verdict"] for r in runs if r["nr"] == nr and r["random"] == random]
    # linear N=1 is the reference, judged on its own rows; random stops at the linear count
    if n >= 1 and (random or n > 1) and verdicts(n).count("holds") < 2:
        bad.append("%s %d (%s): the runs at N=%d: %s" % (key, n, c["confidence"], n, verdicts(n)))
    if random and n == lin.get("n") and not verdicts(n + 1):
        continue
    v = verdicts(n + 1)
    if v.count("collapsed") < 2:
        bad.append("%s %d (%s): the runs at N=%d: %s" % (key, n, c["confidence"], n + 1, v))
    if c["confidence"] == "high" and "holds" in v:
        bad.append("%s %d (high), yet a run at N=%d held: %s" % (key, n, n + 1, v))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
for spec in "sdhc-good,noise=10,stretch=5,spikes=2,seed=5" \
	    "sdhc-good,noise=10,stretch=5,spikes=2,seed=6" \
	    "size=8G,erasesize=4M,open-au=3,random-au=1,noise=15,stretch=10,drift=5,seed=2" \
	    "emmc,size=8G,erasesize=2M,open-au=5,random-au=5,fat-aus=0,stretch=20,noise=10,spikes=2,seed=4"; do
	run "$FB" --auto --destructive --json "sim:$spec"
	expect_rc 0
	printf '%s\n' "$out" >"$T/doc.json"
	why=$(pyrun "$T/check.py" "$T/doc.json") || fail "sim:$spec: $why"
done
exit 0
