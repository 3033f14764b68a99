#!/usr/bin/env bash
# -O --preserve --backup=B, and B is altered (then, in a second run, truncated)
# while the test runs: the restore checks B's checksum first, writes nothing
# back, exits 1 saying B is damaged and the device still holds the test's
# data, and does not advise a --restore that would refuse B (which it does).
. "$(dirname "$0")/../lib.sh"
img=$(random_image card.img 32M)
odirect_works "$img" || skip "O_DIRECT does not work on $(dirname "$img")"

# complete (its "end" line) before the first write; -O prints its first row
# into a held pipe and waits there, long before its restore
complete() { grep -aqx end "$T/saved" 2>/dev/null; }
for damage in alter truncate; do
	rm -f "$T/saved" "$T/held"
	hold_stdout
	"$FB" -O --preserve --backup="$T/saved" -e 8M -b 4K "$img" >"$T/held" 2>"$T/err" &
	pid=$!
	wait_until "$pid" complete || fail "$damage: no complete backup: $(cat "$T/err")"
	kill -0 "$pid" 2>/dev/null || fail "$damage: -O ended before its first row was read: $(cat "$T/err")"
	size=$(stat -c %s "$T/saved")
	if [ $damage = alter ]; then
		printf 'X' | dd of="$T/saved" bs=1 seek=$((size - 4096)) conv=notrunc status=none
	else
		truncate -s $((size - 4096)) "$T/saved"
	fi
	release_stdout "$pid"
	cp "$T/held.out" "$T/out"
	errout=$(cat "$T/err") out=$(cat "$T/out")
	expect_rc 1
	expect_err "^flashbench: --preserve: $T/saved: the backup is damaged \(checksum or length mismatch\), so nothing was written back: $img still holds the test's data in bytes 16777216 to 33554431"
	printf '%s\n' "$errout" | grep -q -- "--restore $T/saved" && fail "$damage: advised a --restore that refuses: $errout"
	[ -e "$T/saved" ] || fail "$damage: the damaged backup was removed"
	run "$FB" --restore "$T/saved" "$img"
	expect_rc 2
	expect_err "damaged"
done
exit 0
