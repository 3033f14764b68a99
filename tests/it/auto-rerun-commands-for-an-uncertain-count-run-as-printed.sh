#!/usr/bin/env bash
# Issue 20, cause 4: a count whose deciding runs disagree is "low", with the
# commands that would settle it: --auto again, and the --open-au runs at N
# and N+1 to repeat. Every one of them runs as printed (the tool accepts it,
# exit 0, the table it prints), here on the same simulated card through a
# very busy host. The plain words say such a count as uncertain.
. "$(dirname "$0")/../lib.sh"

card="sim:emmc,size=8G,erasesize=2M,open-au=5,random-au=5,fat-aus=0,stretch=20,noise=10,spikes=2,seed=6"
run "$FB" --auto --destructive "$card"; expect_rc 0
# (one count at least: since h67 the linear one reads "at least 3", its runs at N=4 all
# unclear, and the random one 5, low)
expect_out "^  open(, random writes| erase blocks) +[0-9]+ \(low confidence\)$"
# and the plain words say it as uncertain, never as what the card does: for
# each count of low confidence, "looked fine", "may make", "not certain"
for what in "open erase blocks|" "open, random writes|out of order "; do
	n=$(printf '%s\n' "$out" | sed -nE "s/^  ${what%|*} +([0-9]+) \(low confidence\)$/\1/p")
	[ -n "$n" ] || continue
	case $n in 1) places="1 place" ;; *) places="$n places" ;; esac
	expect_out "^  Writing ${what#*|}to $places at once looked fine; a [0-9]+(st|nd|rd|th) may make the card copy whole blocks \(not certain: see rerun below\)\.$"
done
rerun=$(printf '%s\n' "$out" | sed -n '/^  rerun /,/^$/p')
expect_out "^ +or run each of these twice and compare the last rows:$"
n=0
while read -r cmd; do
	case $cmd in flashbench\ *) ;; *) continue ;; esac
	n=$((n + 1))
	case $cmd in *--auto*) continue ;; esac	# the whole run again: it ran above
	args=${cmd#flashbench }
	# shellcheck disable=SC2086	# the line is split as a shell would split it
	run "$FB" $args
	[ "$rc" = 0 ] || fail "'$cmd' does not run as printed: exit $rc: $errout"
	expect_out "^[0-9.]+[KM]iB +[0-9.]+[KM]/s"
done < <(printf '%s\n' "$rerun" | sed 's/^ *\(rerun \)\? *//')
[ "$n" -ge 3 ] || fail "no --open-au commands to repeat in: $rerun"
exit 0
