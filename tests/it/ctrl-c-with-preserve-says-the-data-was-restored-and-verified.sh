#!/usr/bin/env bash
# Ctrl-C during a write test with --preserve: once the saved data is written
# back and verified, one line says so (the file is as before, exit 130).
. "$(dirname "$0")/../lib.sh"
img=$(random_image disk.img 32M)
before=$(sha256sum <"$img")
$INTERRUPTIBLE "$FB" -O --preserve -b 4K "$img" >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 1 300); do	# until it writes (its save is done)
	[ "$(sha256sum <"$img")" != "$before" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.02
done
kill -0 "$pid" 2>/dev/null || fail "-O ended before it could be interrupted: $(cat "$T/err")"
kill -INT "$pid"
wait "$pid"; rc=$?
errout=$(cat "$T/err")
expect_rc 130
[ "$(sha256sum <"$img")" = "$before" ] || fail "the file differs from before"
[ "$(grep -c 'restored and verified' "$T/err")" = 1 ] ||
	fail "not one line saying the data was restored and verified: $errout"
expect_err "^flashbench: $img: interrupted; what the test overwrote is restored and verified$"
exit 0
