#!/usr/bin/env bash
# The text report of --auto --destructive: the verdict for each property,
# partition/filesystem advice for that geometry, then the raw tables in the
# original formats, ready to paste into a mailing-list post.
. "$(dirname "$0")/../lib.sh"

run "$FB" --auto --destructive --max-write=4G sim:sdhc-good
expect_rc 0
expect_out "^  erase block size +4MiB \((high|medium) confidence\)"
expect_out "^  page size +16KiB"
expect_out "^  open erase blocks +8 \("
expect_out "^  open, random writes +4 \("
expect_out "^  FAT-optimised area +2 erase blocks, 8MiB at the start"
expect_out "^  written +[0-9.]+[MG]iB \([0-9.]+% of the card\) in "
expect_out "^\\\$ .*flashbench --auto --destructive --max-write=4G sim:sdhc-good$"
expect_out "^Wrote [0-9.]+[MG]iB \([0-9]+ bytes\) to sim:sdhc-good\.$"
# plain words before the numbers
expect_out "^  Writing to 8 places at once is fine; a 9th makes the card copy whole blocks \([0-9.]+x slower\)\.$"
expect_out "^  The first 8MiB \(2 erase blocks\) take small writes faster: a FAT area\.$"
# the advice runs as printed once /dev/sdX names the card
expect_out "^    printf 'label: dos\\\\nstart=2048, size=14336, type=e\\\\nstart=16384\\\\n' \| sudo sfdisk /dev/sdX$"
expect_out "^    sudo mkfs\.vfat -F 16 -s 1 /dev/sdX1$"
expect_out "^    sudo mkfs\.ext4 -b 4096 -E stride=4,stripe_width=1024 /dev/sdX2$"
expect_out "^    sudo mkfs\.f2fs -f -s 2 /dev/sdX2$"
# the evidence behind each verdict only with -v
printf '%s\n' "$out" | grep -q "and its multiples" && fail "evidence without -v"
expect_out "^align 4194304	pre [0-9.]+µs	on [0-9.]+µs	post [0-9.]+µs	diff [0-9.]+µs$"
expect_out "^\\\$ flashbench --open-au sim:sdhc-good --erasesize=4MiB .*--open-au-nr=8 "
expect_out "^[0-9]+KiB +[0-9.]+M/s $"	# the runs' decision rows, a few chunks a block (issue 26)
expect_out "^\\$ flashbench --open-au .*--open-au-nr=9 .*# collapsed, rows from [0-9]+KiB, --auto's probe: "
expect_out "^\\\$ flashbench --find-fat sim:sdhc-good "
run "$FB" --auto -v sim:sdhc-good
expect_rc 0
expect_out "^  +step: diff at 4MiB .*median"
