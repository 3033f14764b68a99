#!/usr/bin/env bash
# --analyze --json prints one JSON document: a card per -a run that starts a
# new card, each with erase size, page size, open-AU series and FAT verdicts.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

run "$FB" --analyze "$TESTS_DIR/data/seeds/000_52b01d750a328571.txt" --json; expect_rc 0
printf '%s' "$out" > "$T/a.json"
pyrun - "$T/a.json" <<'PY' || fail "JSON: $(head -c 300 "$T/a.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["test"] == "analyze" and d["status"]["state"] == "complete", d["status"]
cards = d["analyze"]["cards"]
assert len(cards) == 6, len(cards)
k = cards[1]
assert k["name"] == "SA04G", k["name"]
assert k["erase_size"] == {"size_bytes": 4194304, "confidence": "high", "evidence": k["erase_size"]["evidence"]}
assert k["page_size"]["size_bytes"] == 8192
lin = [s for s in k["open_au"] if s["erasesize_bytes"] == 4194304 and not s["random"]][0]
assert lin["n"] == 1 and lin["at_least"] is False and lin["confidence"] == "high", lin
assert [r["verdict"] for r in lin["runs"]] == ["holds", "collapsed"], lin["runs"]
assert k["fat_area"]["erase_blocks"] == 2 and k["fat_area"]["size_bytes"] == 8 << 20
assert cards[0]["fat_area"] is None
PY
exit 0
