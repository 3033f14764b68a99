#!/usr/bin/env bash
# --class on every preset: each claim's verdict is the one its modelled card
# earns (doc/speed-classes.md, "The simulated cards"): at least one preset per
# class (C, U, V, A) keeps its claim and one does not; cards without an SD
# Status (eMMC, CF) have no claim to check and nothing is written. Exit 0
# only when every claim is met.
. "$(dirname "$0")/../lib.sh"
need_tool python3

verdicts() {	# the claims' "NAME=verdict" from the JSON document in $out
	printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(c["name"] + "=" + c["verdict"] for c in d["class"]["claims"]) or "none")'
}

covered=" "
check() {	# preset want-verdicts want-rc
	covered+="$1 "
	: > "$T/trace"
	run "$FB" --class --json "sim:$1,trace=$T/trace"
	got=$(verdicts)
	[ "$got" = "$2" ] || fail "$1: claims $got, want $2"
	expect_rc "$3"
	if [ "$2" = none ]; then
		grep -q '^W' "$T/trace" && fail "$1: no claim, yet it wrote"
	fi
	run "$FB" --class "sim:$1"
	first=$(printf '%s\n' "$out" | head -n 1)
	case $3 in
	0) [[ $first == "met: every claim kept:"* ]] || fail "$1: first line: $first" ;;
	*) [[ $first == short:* || $first == unknown:* ]] || fail "$1: first line: $first" ;;
	esac
}

check microsd-cheap "C10=short U1=short V10=short" 1
check sdhc-good "C10=met U1=met" 0
check sdxc-tlc "C10=met U1=met A1=short" 1
check sa04g "C4=met" 0
check sdc10 "C10=met" 0
check su04g "C4=met" 0
check multiplane-32g "C10=met" 0
check rpi-a2 "C10=met U3=met V30=met A2=met" 0
check a2-64g "C10=met U3=met V30=met A2=met" 0	# 31 MB/s past its 1GiB cache: V30 holds
printf '%s\n' "$out" | grep -q "^writes: .*for the first ~[0-9.]*[GM]iB (a write cache, or buffer), then 3[0-9.]*M/s$" ||
	fail "a2-64g: the rate past the cache is not what decides: $(printf '%s\n' "$out" | grep '^writes')"
check sdxc-128g "C10=met U3=met V30=met A1=short" 1
check sdxc-64g "C10=met U1=met A1=short" 1
for p in emmc mmc02g cf-16m lexar-cf ram emmc51 usb3-64g; do check "$p" none 1; done
# A card whose write cache (128MiB) the passes over the area get past: the rate after it decides
check tlc-32g "C10=short U1=short V10=short" 1
printf '%s\n' "$out" | grep -q "^short: C10, U1, V10: sustained sequential writes [0-9.]*M/s after a write cache's end at ~[0-9]*MiB ([0-9.]*M/s before it), promised 10M/s" ||
	fail "tlc-32g: the cache is not named: $(printf '%s\n' "$out" | head -n 1)"
# One whose cache (4GiB) is larger than the 20s of passes reach: met at low confidence, with the
# line that writes far enough; that line decides it (27 MB/s past the cache: U3 and V30 short)
check nogeo-128g "C10=met U3=met V30=met A1=met" 0
first=$(printf '%s\n' "$out" | head -n 1)
[[ $first == *"U3 +"*"% (low confidence)"* ]] || fail "nogeo-128g: first line: $first"
line=$(printf '%s\n' "$out" | sed -n 's/^ *to decide it: //p' | head -n 1)
[[ $line == "flashbench --class --max-write="*"G sim:nogeo-128g" ]] || fail "nogeo-128g: no line to decide: $out"
run "$FB" --json ${line#flashbench }
got=$(verdicts)
[ "$got" = "C10=met U3=short V30=short A1=met" ] || fail "nogeo-128g: '$line': $got"

# every preset is covered above
for p in $("$FB" --help | awk '/^ *Presets:/ {p = 1; next} p && /^ +[a-z0-9]/ {print $1; next} p {exit}'); do
	[[ $covered == *" $p "* ]] || fail "preset $p has no expected verdict here"
done
exit 0
