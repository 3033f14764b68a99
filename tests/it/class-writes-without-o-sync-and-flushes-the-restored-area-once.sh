#!/usr/bin/env bash
# --class opens the device it writes O_DIRECT without O_SYNC: a write is done
# when the device acknowledges it, as fio's direct=1 and the SD Association's
# figures count it (doc/speed-classes.md), with no cache flush after each one;
# after the restore it flushes once (fdatasync on the device, after its last
# write), so the user's data is on the medium before it says "restored". The
# kernel still counts every byte written. An original option writing the
# same device keeps the original's O_SYNC.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool strace
img=$(random_image card.img 256M)
before=$(cksum < "$img")
loop=$(make_loop "$img")
w0=$(sectors_written "$loop")

run traced -f -qq -o "$T/trace" -P "$loop" \
	-e trace=open,openat,openat2,pwrite64,pwritev,pwritev2,io_submit,fsync,fdatasync,sync_file_range \
	"$FB" --class --claim=C10 --erasesize=4M "$loop"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "exit $rc: $errout"
expect_out "^data: +every overwritten byte restored and verified$"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after --class"
written=$((($(sectors_written "$loop") - w0) * 512))
[ "$written" -ge $((128 << 20)) ] || fail "the kernel counted only $written bytes written (area and restore)"
opens=$(grep -E '^[0-9]+ +open(at2?)?\(.*"'"$loop"'"' "$T/trace" | grep -E 'O_RDWR')
[ -n "$opens" ] || fail "strace saw no open of $loop for writing: $(head -n 3 "$T/trace")"
printf '%s\n' "$opens" | grep -q O_DIRECT || fail "not opened O_DIRECT: $opens"
! printf '%s\n' "$opens" | grep -q O_SYNC || fail "--class opened $loop O_SYNC: $opens"
last_write=$(grep -nE '^[0-9]+ +(pwrite64|pwritev2?|io_submit)\(' "$T/trace" | tail -n 1 | cut -d: -f1)
[ -n "$last_write" ] || fail "strace saw no write to $loop: the trace is blind"
flush=$(grep -nE '^[0-9]+ +f(data)?sync\(' "$T/trace" | tail -n 1 | cut -d: -f1)
[ -n "$flush" ] || fail "no fdatasync of $loop after the restore"
[ "$flush" -gt "$last_write" ] || fail "the flush (trace line $flush) came before the last write (line $last_write)"

run traced -f -qq -o "$T/trace-o" -P "$loop" -e trace=open,openat,openat2 \
	"$FB" --open-au --open-au-nr=1 --erasesize=4M --blocksize=1M "$loop"
expect_rc 0
grep -E '^[0-9]+ +open(at2?)?\(.*"'"$loop"'"' "$T/trace-o" | grep -q 'O_RDWR.*O_SYNC\|O_SYNC.*O_RDWR' ||
	fail "--open-au did not open $loop O_RDWR|O_SYNC: $(cat "$T/trace-o")"
exit 0
