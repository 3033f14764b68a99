#!/usr/bin/env bash
# -o or --plot naming a FIFO that nobody reads: open() would wait for a
# reader before any I/O, for ever (and SA_RESTART made one Ctrl-C restart
# the wait). It is refused at once instead: exit 1, one line naming the
# FIFO. A FIFO with a reader works as before.
. "$(dirname "$0")/../lib.sh"
mkfifo "$T/fifo" "$T/fifo.svg" || skip "cannot make a FIFO"

for opt in -o=fifo --plot=fifo.svg; do
	run_or_hang "$FB" -a "${opt%%=*}" "$T/${opt#*=}" sim:sdhc-good
	[ "$rc" != 124 ] || fail "$opt: waits for a reader"
	expect_rc 1
	expect_err "^flashbench: $T/${opt#*=}: a FIFO that nobody reads: start its reader first$"
done

# a reader (this shell, which holds the FIFO open both ways, so no open waits)
exec 3<>"$T/fifo"
run_or_hang "$FB" -a -o "$T/fifo" sim:sdhc-good
expect_rc 0
exec 4<"$T/fifo" 3<&-	# the table stays in the FIFO: read it to its end (no writer is left)
cat <&4 >"$T/read"
exec 4<&-
grep -q "^align " "$T/read" || fail "the reader got no table: $(head -n 3 "$T/read")"
exit 0
