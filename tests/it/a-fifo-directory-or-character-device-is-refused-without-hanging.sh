#!/usr/bin/env bash
# Anything but a block device or a regular file as <device> is refused at
# once, naming what it is: a FIFO nobody writes to (open() would block
# forever), a directory, a character device. Read and write tests alike,
# and --restore onto one; nor does a FIFO as a backup file hang anything.
# Nothing is read from or written to them.
. "$(dirname "$0")/../lib.sh"

mkfifo "$T/fifo" || skip "no mkfifo"
mkdir "$T/dir"
for target in "$T/fifo:FIFO" "$T/dir:directory" "/dev/null:character device"; do
	path=${target%%:*} kind=${target#*:}
	for test in -a -O -f -s "--discard=0:4k" --auto; do
		run_or_hang "$FB" $test "$path"
		[ "$rc" != 124 ] || fail "$test $path hung"
		expect_rc 1
		expect_err "^flashbench: $path: not a block device or regular file \\(an? $kind\\)$"
	done
done
echo 'flashbench-backup 1' > "$T/bak"
run_or_hang "$FB" --restore "$T/bak" "$T/fifo"
[ "$rc" != 124 ] || fail "--restore onto a FIFO hung"
[ "$rc" != 0 ] || fail "--restore onto a FIFO succeeded"
# a FIFO as the backup to restore from, or as an existing --backup: no hang either
img=$(random_image card.img 32M)
before=$(cksum < "$img")
run_or_hang "$FB" --restore "$T/fifo" "$img"
expect_rc 2
expect_err "^flashbench: --restore: $T/fifo: not a regular file$"
run_or_hang "$FB" -O --preserve --backup="$T/fifo" -e 1M "$img"
expect_rc 1
expect_err "backup=$T/fifo: exists, and is no backup --restore would take"
[ "$(cksum < "$img")" = "$before" ] || fail "$img changed"
exit 0
