#!/usr/bin/env bash
# The bash completion completes options, sizes in numeric order, option values,
# sim: presets and parameters (as the binary lists them), and whole block
# devices from /sys/block, but those only once a test option is on the line.
. "$(dirname "$0")/../lib.sh"
repo=$(cd "$TESTS_DIR/.." && pwd)
# shellcheck source=../../completion/flashbench
. "$repo/completion/flashbench"

# complete LINE: COMPREPLY for the cursor at the end of LINE, as one line
complete_line() {
	COMP_LINE=$1 COMP_POINT=${#1} COMP_WORDS=("$FB")
	COMPREPLY=()
	_flashbench
	printf '%s\n' "${COMPREPLY[*]}"
}
has() { [[ " $1 " == *" $2 "* ]] || fail "completing '$3' gave '$1', lacks '$2'"; }

r=$(complete_line "flashbench --open-au-")
[ "$r" = "--open-au-nr=" ] || fail "--open-au- -> '$r'"
r=$(complete_line "flashbench --findf"); [ "$r" = "--findfat" ] || fail "--findf -> '$r'"
r=$(complete_line "flashbench -"); for o in -a -O -f -s -i -p --json --plot= --preserve --auto --analyze= -V; do has "$r" "$o" "-"; done

# sizes after an option, in both spellings; '=' is a word break, so only the value comes back
r=$(complete_line "flashbench --erasesize=1"); for s in 1M 1.5M 12M 16M; do has "$r" "$s" "--erasesize=1"; done
r=$(complete_line "flashbench -b 16"); [ "$r" = "16K 16M" ] || fail "-b 16 -> '$r'"
r=$(complete_line "flashbench -e "); [ "$r" = "$(printf '%s\n' $r | sort -h | tr '\n' ' ' | sed 's/ $//')" ] ||
	fail "sizes are not in numeric order: '$r'"
has "$r" 1.5M "-e"
r=$(complete_line "flashbench --on-error="); [ "$r" = "stop continue" ] || fail "--on-error= -> '$r'"

# sim: presets and parameters come from the binary's --help
presets=$("$FB" --help | awk '/^ *Presets:/ {p = 1; next} p && /^ +[a-z0-9]/ {print $1; next} p {exit}')
[ -n "$presets" ] || fail "--help lists no sim: presets"
r=$(complete_line "flashbench -a sim:")
for p in $presets erasesize= open-au= noise=; do has "$r" "$p" "sim:"; done
r=$(complete_line "flashbench -a sim:$(echo "$presets" | head -n 1),no")
has "$r" "$(echo "$presets" | head -n 1),noise=" "sim:PRESET,no"

# block devices: every whole device with a size shows up as /dev/NAME
# (only those there before and after: parallel tests attach loop devices)
sized() { for d in /sys/block/*; do [ "$(cat "$d/size" 2>/dev/null)" -gt 0 ] 2>/dev/null && echo "${d##*/}"; done; }
before=$(sized)
r=$(complete_line "flashbench -a /dev/")
for d in $(comm -12 <(echo "$before" | sort) <(sized | sort)); do
	has "$r" "/dev/$d" "/dev/"
done
has "$(complete_line "flashbench -a s")" "sim:" "s"
# no test yet: a device is not what comes next
for d in /sys/block/*; do
	[ -e "$d" ] && [ "$(cat "$d/size")" != 0 ] || continue
	case " $(complete_line "flashbench /dev/") " in *" /dev/${d##*/} "*) fail "/dev/${d##*/} offered before a test option" ;; esac
	has "$(complete_line "flashbench -v --auto /dev/")" "/dev/${d##*/}" "--auto /dev/"
	has "$(complete_line "flashbench -Oc 2 /dev/")" "/dev/${d##*/}" "-Oc 2 /dev/"
	break
done

# file names for --plot
touch "$T/run.svg"
r=$(complete_line "flashbench --plot=$T/ru"); [ "$r" = "$T/run.svg" ] || fail "--plot=FILE -> '$r'"
exit 0
