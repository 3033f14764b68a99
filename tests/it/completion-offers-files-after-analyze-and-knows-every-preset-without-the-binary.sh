#!/usr/bin/env bash
# Completing --analyze offers saved files (and "-" for standard input), in
# both spellings; where the binary cannot be asked, the completion's own list
# still holds every sim: preset and parameter the binary's --help names.
. "$(dirname "$0")/../lib.sh"
repo=$(cd "$TESTS_DIR/.." && pwd)
# shellcheck source=../../completion/flashbench
. "$repo/completion/flashbench"

# complete BIN LINE: COMPREPLY for the cursor at the end of LINE, as one line
complete_line() {
	COMP_LINE=$2 COMP_POINT=${#2} COMP_WORDS=("$1")
	COMPREPLY=()
	_flashbench
	printf '%s\n' "${COMPREPLY[*]}"
}

touch "$T/sdb-align.txt" "$T/sdb-open-au.txt"
r=$(complete_line "$FB" "flashbench --analyze $T/sdb-" | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$r" = "$T/sdb-align.txt $T/sdb-open-au.txt " ] || fail "--analyze FILE -> '$r'"
r=$(complete_line "$FB" "flashbench --analyze=$T/sdb-a")
[ "$r" = "$T/sdb-align.txt" ] || fail "--analyze=FILE -> '$r'"
r=$(complete_line "$FB" "flashbench --analyze -")
[ "$r" = "-" ] || fail "--analyze - -> '$r'"
cd "$T" && r=$(complete_line "$FB" "flashbench --analyze ")
for w in - sdb-align.txt sdb-open-au.txt; do
	[[ " $r " == *" $w "* ]] || fail "--analyze <TAB> lacks '$w': '$r'"
done

# the fallback list, used when the binary does not answer --help
listed=$("$FB" --help | awk '
	/^ *Presets:/ { p = 1; next }
	p && /^ +[a-z0-9]/ { print $1; next }
	p { p = 0 }
	/^ +[a-z][a-z-]*=/ { sub(/=.*/, "=", $1); print $1 }' | sort -u)
[ "$(printf '%s\n' "$listed" | grep -c -v =)" -ge 11 ] || fail "--help lists too few presets: $listed"
fallback=$(_flashbench_sim_words /nonexistent/flashbench | sort -u)
missing=$(comm -23 <(printf '%s\n' "$listed") <(printf '%s\n' "$fallback"))
[ -z "$missing" ] || fail "the completion's fallback list lacks: $(echo $missing)"
r=$(complete_line /nonexistent/flashbench "flashbench -a sim:mu")
[ "$r" = "multiplane-32g multiplane=" ] || fail "sim:mu without the binary -> '$r'"
exit 0
