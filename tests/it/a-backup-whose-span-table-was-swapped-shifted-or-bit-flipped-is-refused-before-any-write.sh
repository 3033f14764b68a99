#!/usr/bin/env bash
# The checksum of a --backup file covers its header, every span included:
# a backup whose span table was swapped (two spans of equal length trade
# offsets), shifted by one sector, or hit by one flipped bit is refused by
# --restore (exit 2, "damaged") before it writes anything, where restoring
# would put each block where another belonged and "verify" it.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool python3
img=$(random_image disk.img 32M)
loop=$(make_loop "$img")

backup_of_killed_run "$loop" "$T/saved"
[ "$(grep -ac '^span ' "$T/saved")" -ge 2 ] || fail "fewer than two spans: $(grep -a '^span' "$T/saved")"
after_kill=$(cksum < "$img")

# damage MODE: a copy of the backup with its span table altered as MODE says
damage() {
	pyrun - "$T/saved" "$T/$1" "$1" <<'PY'
import re, sys
src, dst, mode = sys.argv[1:]
b = bytearray(open(src, "rb").read())
head = b[:4096].split(b"\nend\n")[0].decode()
spans = re.findall(r"^span (\d+) (\d+)$", head, re.M)
lines = head.split("\n")
idx = [i for i, l in enumerate(lines) if l.startswith("span ")]
if mode == "swapped":
    (o1, l1), (o2, l2) = spans[0], spans[1]
    assert l1 == l2, spans
    lines[idx[0]], lines[idx[1]] = "span %s %s" % (o2, l1), "span %s %s" % (o1, l2)
elif mode == "shifted":
    o, l = spans[0]
    lines[idx[0]] = "span %d %s" % (int(o) + 512, l)
else:  # one bit of one digit of an offset, keeping it a multiple of 512 on the device
    o, l = spans[1]
    for pos in range(len(o)):
        for bit in (1, 2, 4, 8):
            c = chr(ord(o[pos]) ^ bit)
            n = o[:pos] + c + o[pos + 1:]
            if c.isdigit() and n[0] != "0" and int(n) % 512 == 0 and int(n) + int(l) <= 32 << 20 and n != o:
                break
        else:
            continue
        break
    else:
        sys.exit("no one-bit flip keeps the span on the device")
    lines[idx[1]] = "span %s %s" % (n, l)
data_at = int(re.search(r"^data-offset (\d+)$", head, re.M).group(1))
new = ("\n".join(lines) + "\nend\n").encode()
assert len(new) <= data_at
open(dst, "wb").write(new + b"\0" * (data_at - len(new)) + b[data_at:])
PY
}

for mode in swapped shifted bitflip; do
	damage "$mode" || fail "could not make the $mode backup"
	run "$FB" --restore "$T/$mode" "$loop"
	expect_rc 2
	expect_err "^flashbench: --restore: $T/$mode: damaged .*not restoring$"
	[ "$(cksum < "$img")" = "$after_kill" ] || fail "a $mode backup was written back"
done
# the backup itself still goes back
run "$FB" --restore "$T/saved" "$loop"
expect_rc 0
exit 0
