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

# span "START:END ..." OPTIONS...: run; every span changed, every byte
# outside them did not
span() {
	local spans=$1 prev=0 r start end; shift
	cp "$T/orig" "$img"	# the loop device reads the file's page cache
	run "$FB" "$@" "$loop"
	expect_rc 0
	for r in $spans; do
		start=${r%:*} end=${r#*:}
		same "$prev" "$start" || fail "$*: bytes in $prev..$start changed"
		same "$start" "$end" && fail "$*: the span $start..$end was not written"
		prev=$end
	done
	same "$prev" $((32 * M)) || fail "$*: bytes from $prev on changed"
	return 0
}

# -O's erase blocks are 12 erase sizes apart, or as far apart as fits
span "$((20 * M)):$((22 * M)) $((24 * M)):$((26 * M)) $((28 * M)):$((30 * M))" \
	-O --offset=20M -e 2M --open-au-nr=3 -b 256K
span "$((16 * M)):$((17 * M)) $((28 * M)):$((29 * M))" -O -r -e 1M -b 64K
span "0:$((4 * M))" -f -e 1M --fat-nr=4 -b 256K
exit 0
