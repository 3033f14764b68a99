#!/usr/bin/env bash
# --capacity on a matrix of simulated cards: fakes storing 1/64 of what they
# advertise up to one sector less, powers of two and not, wrapping or losing
# writes, with and without a write cache: each is called counterfeit with its
# real size to the byte, exit 1. Genuine cards (with and without a cache)
# are called genuine, exit 0.
. "$(dirname "$0")/../lib.sh"
n=0 failed=0
mkdir "$T/docs"

# check SPEC WANT-VERDICT WANT-BYTES WANT-MODE: the exit status now, the
# document with the others at the end (one python3 reads them all)
check() {
	local spec=$1 verdict=$2 bytes=$3 mode=$4 want_rc=1
	[ "$verdict" = genuine ] && want_rc=0
	run "$FB" --capacity --json "sim:$spec"
	n=$((n + 1))
	printf '%s\n' "$out" >"$T/docs/$n.json"
	printf 'sim:%s\t%s %s %s %s\n' "$spec" "$verdict" "$bytes" "$bytes" "$mode" >"$T/docs/$n.want"
	if [ "$rc" != "$want_rc" ]; then
		failed=$((failed + 1))
		echo "FAIL sim:$spec: exit $rc (want $want_rc) $errout"
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
	check "$p" genuine advertised none	# its own advertised size, read below
done

bad=$(pyrun - "$T/docs" "$n" <<'PY'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    spec, want = open(os.path.join(d, "%d.want" % i)).read().rstrip("\n").split("\t")
    try:
        c = json.load(open(os.path.join(d, "%d.json" % i)))["capacity"]
        got = "%s %s %s %s" % (c["verdict"], c["real_min_bytes"], c["real_max_bytes"], c["failure_mode"])
        want = want.replace("advertised", str(c["advertised_bytes"]))
    except (ValueError, KeyError, TypeError) as e:
        got = "no capacity document: %r" % e
    if got != want:
        print("FAIL %s: got '%s', want '%s'" % (spec, got, want))
PY
)
[ -z "$bad" ] || { printf '%s\n' "$bad"; failed=$((failed + $(printf '%s\n' "$bad" | wc -l))); }
echo "$((n - failed)) of $n passed"
[ "$failed" = 0 ]
