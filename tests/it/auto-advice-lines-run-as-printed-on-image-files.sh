#!/usr/bin/env bash
# Every command line a --auto report prints runs as printed and keeps the
# user's data, for every preset, a counterfeit card, a card whose page
# does not show and one too small for the write tests at its erase size,
# read-only and --destructive: the partition script on an
# image file of the advertised size that already holds a GPT table (a used
# card), each mkfs alternative on its own image of its partition that holds
# an old filesystem, every flashbench line on the same sim: card. On a fake
# every partition ends inside what it stores and the advice says to return
# it; read-only, it gives the --capacity line; the FAT partition covers the
# fast area, ends aligned and is of the FAT type the advice names; every
# flashbench line writes inside what a fake stores (a small one: its runs
# measured inside the real size are not offered as lines to run).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/advice_lines.bash"

presets=$("$FB" --help | sed -n '/^  Presets:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ "$(printf '%s\n' "$presets" | wc -l)" -ge 11 ] || fail "no preset list in --help: $presets"
specs="$(printf 'sim:%s\n' $presets)
sim:sdhc-good,real-size=7475M
sim:sdhc-good,real-size=256M
sim:sdhc-good,pagesize=1K
sim:size=256M,erasesize=64M"

while IFS= read -r spec; do
	check_report "$spec" --destructive
	check_report "$spec" ""
done <<<"$specs"
[ "$ran" -gt 100 ] || fail "only $ran lines ran"
# too small for --open-au at 64MiB erase blocks: it says so, and prints no --open-au line to rerun
check_report sim:size=256M,erasesize=64M --destructive
printf '%s\n' "$text" | grep -q "^  The open erase block tests could not run:$" ||
	fail "no word on why the open erase blocks are unknown: $(printf '%s\n' "$text" | sed -n '/^Verdict/,/^What/p')"
echo "$ran lines ran as printed"
exit 0
