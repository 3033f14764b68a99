#!/usr/bin/env bash
# "sdb" where no such file is here but /dev/sdb is a block device: the
# error says "did you mean /dev/sdb?". A mistyped long option (--block-size,
# --atuo, --jsno) is a usage error naming the option it likely was, value
# kept; one too far from any gets no guess. Nothing is read or written.
. "$(dirname "$0")/../lib.sh"

dev=$(for d in /dev/loop[0-9]* /dev/zram0 /dev/vda; do [ -b "$d" ] && echo "$d" && break; done)
[ -n "$dev" ] || skip "no block device to name"
name=${dev#/dev/}
cd "$T" || fail "no $T"
for t in -a --auto; do
	run "$FB" $t "$name"
	expect_rc 1
	[ "$errout" = "flashbench: $name: No such file or directory; did you mean $dev?" ] ||
		fail "$t $name: '$errout'"
done
run "$FB" -a "no-such-$name"
expect_rc 1
case $errout in *"did you mean"*) fail "a guess for a name that is nothing: $errout" ;; esac
run "$FB" -a --json "$name"
expect_rc 1
printf '%s\n' "$out" | grep -q "did you mean $dev?" || fail "--json: the document lacks the hint: $out"

check() {	# ARGS... -- WANT: the one line on stderr
	local args=() want
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	want=$2
	run "$FB" "${args[@]}"
	expect_rc 2
	[ "$errout" = "flashbench: $want" ] || fail "${args[*]}: '$errout', want '$want'"
}
check -a --block-size=1k sim:sdhc-good -- "--block-size=1k: unknown option; did you mean --blocksize=1k?"
check --atuo sim:sdhc-good -- "--atuo: unknown option; did you mean --auto?"
check -a --jsno sim:sdhc-good -- "--jsno: unknown option; did you mean --json?"
check -O --erase-size 4M sim:sdhc-good -- "--erase-size: unknown option; did you mean --erasesize?"
check --auto --destrcutive sim:sdhc-good -- "--destrcutive: unknown option; did you mean --destructive?"
check -a --frobnicate sim:sdhc-good -- "--frobnicate: unknown option (see --help)"
exit 0
