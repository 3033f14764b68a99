#!/usr/bin/env bash
# --capacity whose first round cannot be saved writes nothing and states no
# verdict (never "counterfeit ... stores 0B"): the --backup directory does
# not exist, the file exists, it is a FIFO, its disk is full, or a sector
# the check would overwrite does not read. Text: "no verdict: ..." with
# the cause, exit 1; JSON: status failed, its error the cause, no real size.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool python3
img=$(random_image disk.img 64M)
before=$(cksum < "$img")
loop=$(make_loop "$img")
mkdir "$T/full"
mount -t tmpfs -o size=1M tmpfs "$T/full" || skip "cannot mount a tmpfs"
trap 'umount "$T/full" 2>/dev/null; _cleanup' EXIT
head -c 2M /dev/zero > "$T/full/filler" 2>/dev/null
: > "$T/exists"
mkfifo "$T/fifo"

# check DEVICE CAUSE [ARGS...]: no verdict, the cause named, in text and JSON
check() {
	local dev=$1 cause=$2; shift 2
	run "$FB" --capacity "$@" "$dev"
	expect_rc 1
	first=$(printf '%s\n' "$out" | head -n 1)
	case $first in "no verdict: "*"$cause"*) ;; *) fail "$*: first line: $first" ;; esac
	printf '%s\n' "$out" | grep -Eq "counterfeit|genuine|stores|^real size" && fail "$*: a verdict: $out"
	expect_out "^verdict: +unknown$"
	run "$FB" --capacity --json "$@" "$dev"
	expect_rc 1
	printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin); c = d["capacity"]; st = d["status"]
assert st["state"] == "failed" and sys.argv[1] in st["error"]["message"], st
assert c["verdict"] == "unknown" and "real_max_bytes" not in c, c
assert sys.argv[1] in c["error"], c
assert c["written_bytes"] == 0, c
' "$cause" || fail "$*: JSON: $out"
}

check "$loop" "No such file or directory" --backup="$T/no/such/dir/b"
check "$loop" "exists" --backup="$T/exists"
check "$loop" "exists" --backup="$T/fifo"
check "$loop" "No space left on device" --backup="$T/full/b"
[ ! -e "$T/full/b" ] || fail "a partial backup was left on the full disk"
[ "$(cksum < "$img")" = "$before" ] || fail "the device was written"
# a sector the first round overwrites does not read (a simulated card failing at 4 MiB)
check "sim:size=1G,fail-at=4M" "Input/output error"
exit 0
