#!/usr/bin/env bash
# --capacity on a matrix of simulated cards: fakes storing 1/64 of what they
# advertise up to one sector less, powers of two and not, wrapping or losing
# writes, with and without a write cache: each is called counterfeit with its
# real size to the byte, exit 1. Genuine cards (with and without a cache)
# are called genuine, exit 0.
. "$(dirname "$0")/../lib.sh"
passed=0 failed=0

check() {	# spec want-verdict want-bytes want-mode
	local spec=$1 verdict=$2 bytes=$3 mode=$4 want_rc=1
	[ "$verdict" = genuine ] && want_rc=0
	run "$FB" --capacity --json "sim:$spec"
	got=$(printf '%s' "$out" | python3 -c '
import json, sys
c = json.load(sys.stdin)["capacity"]
print(c["verdict"], c["real_min_bytes"], c["real_max_bytes"], c["failure_mode"])' 2>&1)
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$verdict $bytes $bytes $mode" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL sim:$spec: exit $rc (want $want_rc), got '$got', want '$verdict $bytes $bytes $mode' $errout"
	fi
}

G=$((1 << 30)) M=$((1 << 20))
for size_g in 8 64; do
	adv=$((size_g * G))
	for real in $((adv / 64)) $((adv / 3 / 512 * 512)) $((adv / 2)) $((adv * 15 / 128)) \
		    $((adv - 4 * M - 512)) $((adv - 512)) 123456512; do
		for fake in wrap drop; do
			mode=wraps; [ $fake = drop ] && mode=lost
			for cache in "" ",cache=4M"; do
				check "size=${size_g}G,real-size=$real,fake=$fake$cache" counterfeit "$real" "$mode"
			done
		done
	done
	check "size=${size_g}G" genuine "$adv" none
	check "size=${size_g}G,cache=4M" genuine "$adv" none
done
# small cards, a fake smaller than the labelled area, the default mode, presets
check "size=64M,real-size=3M" counterfeit $((3 * M)) wraps
check "size=64M,real-size=3M,fake=drop,cache=1M" counterfeit $((3 * M)) lost
check "size=1T,real-size=1000000000000" counterfeit 1000000000000 wraps
check "sdxc-tlc,real-size=7.5G" counterfeit $((15 * G / 2)) wraps
for p in microsd-cheap sdhc-good emmc sdxc-tlc cf-16m; do
	check "$p" genuine "$(( $("$FB" --capacity --json "sim:$p" | python3 -c 'import json,sys; print(json.load(sys.stdin)["capacity"]["advertised_bytes"])') ))" none
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
