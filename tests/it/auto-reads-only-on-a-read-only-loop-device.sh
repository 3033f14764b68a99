#!/usr/bin/env bash
# --auto without --destructive works on a read-only loop device (it opens the
# device read-only): identity, alignment verdict and advice, exit 0. It never
# even tries to write: under strace every open of the device is O_RDONLY and
# there is no write, discard or zero-out call on it, only reads (the kernel
# would refuse a write here, so an unchanged image alone proves nothing).
. "$(dirname "$0")/../lib.sh"
need_root
need_tool strace
f=$(make_file card.img 256M)
dd if=/dev/urandom of="$f" bs=1M count=4 conv=notrunc status=none
sum=$(cksum < "$f")
loop=$(make_loop "$f" -r)

run traced -f -qq -o "$T/trace" -P "$loop" \
	-e trace=open,openat,openat2,read,pread64,preadv,preadv2,write,pwrite64,pwritev,pwritev2,writev,fallocate,ioctl,sync_file_range \
	"$FB" --auto "$loop"
expect_rc 0
expect_out "^\\\$ .*flashbench --auto $loop\$"
expect_out "size: +268435456"
expect_out "^  erase block size "
expect_out "sudo sfdisk $loop\$"	# the advice names the device measured
expect_out "^align [0-9]+	pre "
grep -qE '^[0-9]+ +open(at2?)?\(.*"'"$loop"'"' "$T/trace" || fail "strace saw no open of $loop: $(head -n 3 "$T/trace")"
opens=$(grep -E '^[0-9]+ +open(at2?)?\(' "$T/trace" | grep -E 'O_(RDWR|WRONLY)')
[ -z "$opens" ] || fail "opened $loop for writing: $opens"
writes=$(grep -E '^[0-9]+ +(write|pwrite64|pwritev2?|writev|fallocate|sync_file_range)\(' "$T/trace" | head -n 3)
[ -z "$writes" ] || fail "tried to write to $loop: $writes"
ioctls=$(grep -E '^[0-9]+ +ioctl\(' "$T/trace" | grep -E 'BLK(DISCARD|SECDISCARD|ZEROOUT|FLSBUF|RRPART|PG)|_IOC\(_IOC_WRITE' | head -n 3)
[ -z "$ioctls" ] || fail "a writing ioctl on $loop: $ioctls"
[ "$(grep -cE '^[0-9]+ +(read|pread64|preadv2?)\(' "$T/trace")" -gt 100 ] ||
	fail "strace saw hardly any reads of $loop: the trace is blind"
[ "$(cksum < "$f")" = "$sum" ] || fail "the image changed"
exit 0
