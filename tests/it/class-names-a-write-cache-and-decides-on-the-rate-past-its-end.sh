#!/usr/bin/env bash
# A sustained-writing claim is about the rate past a write cache (issue
# 27): --class writes its area again and again until a cache's end shows,
# names it ("after a write cache's end at ~120MiB (25M/s before it)"),
# and decides on the rate after it: a 32 GB TLC card with a 128 MiB cache
# at 25 MB/s and 8 MB/s past it is short of C10, never met at the cached
# rate; a 64 GB A2 card with a 1 GiB cache keeps U3 at ~31 MB/s past it.
# Where no end shows in what it may write (a 4 GiB cache on a 128 GB card)
# a met claim is low confidence with the line that writes far enough, and
# that line decides it.
. "$(dirname "$0")/../lib.sh"
need_tool python3

sustained() {	# the JSON's sustained writes in $out: cache_seen cache_MiB rate_MB/s
	printf '%s' "$out" | pyrun -c '
import json, sys
s = json.load(sys.stdin)["class"]["sustained_writes"]
print(s["cache_seen"], s.get("cache_bytes", 0) >> 20, round(s["bytes_per_s"] / 1e6))'
}

run "$FB" --class sim:tlc-32g
expect_rc 1
expect_out "^short: C10, U1, V10: sustained sequential writes [0-9.]+M/s after a write cache's end at ~1[0-9]{2}MiB \(2[0-9.]+M/s before it\), promised 10M/s$"
expect_out "^writes: .*for the first ~1[0-9]{2}MiB \(a write cache, or buffer\), then [0-9.]+M/s$"
run "$FB" --class --json sim:tlc-32g
read -r seen mib rate <<<"$(sustained)"
[ "$seen" = True ] && [ "$mib" -ge 100 ] && [ "$mib" -le 140 ] && [ "$rate" -ge 7 ] && [ "$rate" -le 9 ] ||
	fail "tlc-32g: cache $seen at ${mib}MiB, ${rate}MB/s past it"

run "$FB" --class --json sim:a2-64g
read -r seen mib rate <<<"$(sustained)"
[ "$seen" = True ] && [ "$mib" -ge 900 ] && [ "$mib" -le 1100 ] && [ "$rate" -ge 30 ] && [ "$rate" -le 34 ] ||
	fail "a2-64g: cache $seen at ${mib}MiB, ${rate}MB/s past it"

run "$FB" --class sim:nogeo-128g
expect_rc 0
expect_out "^U3 +met, low confidence: .*no end of a write cache in the [0-9.]+[GM]iB written"
line=$(printf '%s\n' "$out" | sed -n 's/^ *to decide it: //p' | head -n 1)
[[ $line == "flashbench --class --max-write="*" sim:nogeo-128g" ]] || fail "no line to decide U3: $out"
run "$FB" ${line#flashbench }
expect_rc 1
expect_out "^short: U3, V30: sustained sequential writes 2[0-9.]+M/s after a write cache's end at ~4GiB"
exit 0
