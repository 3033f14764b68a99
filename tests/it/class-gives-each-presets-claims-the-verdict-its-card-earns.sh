#!/usr/bin/env bash
# --class on every preset: each claim's verdict is the one its modelled card
# earns (doc/speed-classes.md, "The simulated cards"): at least one preset per
# class (C, U, V, A) keeps its claim and one does not; cards without an SD
# Status (eMMC, CF) have no claim to check and nothing is written. Exit 0
# only when every claim is met.
. "$(dirname "$0")/../lib.sh"
need_tool python3

verdicts() {	# the claims' "NAME=verdict" from the JSON document in $out
	printf '%s' "$out" | python3 -c '
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
check a2-64g "C10=met U3=met V30=met A2=met" 0	# 31 MB/s past its cache: V30 holds
check sdxc-128g "C10=met U3=met V30=met A1=short" 1
check sdxc-64g "C10=met U1=met A1=short" 1
for p in emmc mmc02g cf-16m lexar-cf ram emmc51 usb3-64g; do check "$p" none 1; done
# Cards whose class area fits in their SLC cache (native rate under the mark): whether a
# cached rate keeps a sustained-writing claim is --class's to decide (issue 27); not yet here.
covered+="tlc-32g nogeo-128g "

# every preset is covered above
for p in $("$FB" --help | awk '/^ *Presets:/ {p = 1; next} p && /^ +[a-z0-9]/ {print $1}'); do
	[[ $covered == *" $p "* ]] || fail "preset $p has no expected verdict here"
done
exit 0
