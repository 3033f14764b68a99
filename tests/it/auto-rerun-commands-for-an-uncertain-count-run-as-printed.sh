#!/usr/bin/env bash
# Issue 20, cause 4: a count whose deciding runs disagree is "low", with the
# commands that would settle it: --auto again, and the --open-au runs at N
# and N+1 to repeat. Every one of them runs as printed (the tool accepts it,
# exit 0, the table it prints), here on the same simulated card through a
# very busy host.
. "$(dirname "$0")/../lib.sh"

card="sim:emmc,size=8G,erasesize=2M,open-au=5,random-au=5,fat-aus=0,stretch=20,noise=10,spikes=2,seed=6"
run "$FB" --auto --destructive "$card"; expect_rc 0
expect_out "^  open erase blocks +[0-9]+ \(low confidence\)$"
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
