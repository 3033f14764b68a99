#!/usr/bin/env bash
# A card that fails mid-test (sim: fail-at=): the failing write is reported
# with device, offset, length and errno; no throughput for it; exit 1.
. "$(dirname "$0")/../lib.sh"
# -O writes its two erase blocks at 16 MiB and 12 erase sizes on, at 64 MiB
dev="sim:size=256M,erasesize=4M,fail-at=67108864"

run "$FB" -O "$dev"
expect_rc 1
expect_err "^flashbench: $dev: write failed at offset 67108864 \(4194304 bytes\): Input/output error$"
expect_out "^4MiB +failed"
printf '%s\n' "$out" | grep -q '/s' && fail "a throughput was printed: $out"

run "$FB" -O --on-error=continue "$dev"
expect_rc 1
expect_err "write failed at offset 67108864 \(4194304 bytes\): Input/output error"
expect_err "[1-9][0-9]* I/O operations failed"
exit 0
