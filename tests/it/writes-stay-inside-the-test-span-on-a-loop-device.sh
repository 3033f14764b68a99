#!/usr/bin/env bash
# On a loop device over a file of random bytes: after -O and -f, every byte
# outside the span the test covers is unchanged (and the span itself did change).
. "$(dirname "$0")/../lib.sh"
need_root
M=$((1 << 20))
img=$(random_image disk.img 32M)
cp "$img" "$T/orig"
loop=$(make_loop "$img")

# same START END: bytes [START, END) of the image equal the original's
same() {
	cmp -s -i "$1:$1" -n $(($2 - $1)) "$img" "$T/orig"
}

# span START END OPTIONS...: run, then compare the rest of the device
span() {
	local start=$1 end=$2; shift 2
	cp "$T/orig" "$img"	# the loop device reads the file's page cache
	run "$FB" "$@" "$loop"
	expect_rc 0
	same 0 "$start" || fail "$*: bytes before $start changed"
	same "$end" $((32 * M)) || fail "$*: bytes from $end on changed"
	same "$start" "$end" && fail "$*: the span was not written"
	return 0
}

span $((20 * M)) $((26 * M)) -O --offset=20M -e 2M --open-au-nr=3 -b 256K
span $((16 * M)) $((18 * M)) -O -r -e 1M -b 64K
span 0 $((4 * M)) -f -e 1M --fat-nr=4 -b 256K
exit 0
