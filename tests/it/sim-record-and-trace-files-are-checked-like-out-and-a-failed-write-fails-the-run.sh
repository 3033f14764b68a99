#!/usr/bin/env bash
# A sim: card's record= and trace= files are write paths like -o: a block
# device, an existing file that is no record of flashbench's (a system file:
# it would be appended to), a FIFO nobody reads, the same file as -o, as
# the other one, as standard output, or the backup --restore reads, are refused in one line,
# exit 2, before any I/O, and left as they were. A line that cannot be
# written (record=/dev/full) fails the run, exit 1, naming the file (it
# used to exit 0 with the record lost). A record of an earlier run is
# appended to.
. "$(dirname "$0")/../lib.sh"
dev="sim:sdhc-good"

run "$FB" -O "$dev,record=/dev/full"
expect_rc 1
expect_err "^flashbench: sim: record=/dev/full: No space left on device$"
run "$FB" -a "$dev,trace=/dev/full"
expect_rc 1
expect_err "^flashbench: sim: trace=/dev/full: No space left on device$"

printf 'root:x:0:0:root:/root:/bin/bash\n' > "$T/passwd"
cp "$T/passwd" "$T/passwd.orig"
run "$FB" -O "$dev,trace=$T/passwd"
expect_usage_error "sim: trace=$T/passwd: exists and is no record"
run "$FB" -O "$dev,record=$T/passwd"
expect_usage_error "sim: record=$T/passwd: exists and is no record"
cmp -s "$T/passwd" "$T/passwd.orig" || fail "the refused runs changed $T/passwd"

run "$FB" -O -o "$T/out" "$dev,record=$T/out"
expect_usage_error "the same file as --out=$T/out"
run "$FB" -O "$dev,record=$T/log,trace=$T/./log"
expect_usage_error "the same file as sim: record=$T/log"
[ ! -e "$T/log" ] || fail "a refused run created $T/log"
printf 'flashbench-backup 2\n' > "$T/backup"
run "$FB" --restore="$T/backup" "$dev,trace=$T/backup"
expect_usage_error "the same file as --restore=$T/backup"
: > "$T/stdout"
"$FB" -a "$dev,trace=$T/stdout" > "$T/stdout" 2> "$T/err"
rc=$?; errout=$(cat "$T/err"); out=""
expect_usage_error "sim: trace=$T/stdout: the same file as standard output"
mkfifo "$T/fifo"
run "$FB" -a "$dev,trace=$T/fifo"
expect_usage_error "sim: trace=$T/fifo: a FIFO that nobody reads"

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	loop=$(make_loop "$(make_file blk.img 8M)")
	run "$FB" -a "$dev,trace=$loop"
	expect_usage_error "sim: trace=$loop is a block device"
	[ "$(sectors_written "$loop")" = "$(cat "$T/.writes0.${loop##*/}")" ] || fail "$loop was written"
else
	skip_part "trace= on a block device: needs root and losetup"
fi

printf 'W 0 512\n' > "$T/rec"
run "$FB" -O "$dev,record=$T/rec"
expect_rc 0
[ "$(head -n 1 "$T/rec")" = "W 0 512" ] && [ "$(wc -l < "$T/rec")" -gt 1 ] ||
	fail "the record of an earlier run was not appended to"
exit 0
