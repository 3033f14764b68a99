#!/usr/bin/env bash
# On a terminal, --auto --destructive numbers its steps by the plan: with a
# class claim to check (the card's SD Status) "step N of 6"; without one
# (claims=none, no --claim) the speed-class step does not run, and the
# line says "step N of 5", never "of 6"; read-only, "step 1 of 1". The sim:
# cards run in real time (realtime=PCT) so that the line shows.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || skip "no script(1)"
script -q -T /dev/null -O /dev/null -c true </dev/null >/dev/null 2>&1 || skip "script(1) cannot log timing (-T)"

# steps NAME CMD: the "step N of M" of every line CMD drew on a pseudo-terminal
steps() {
	script -q -O "$T/$1.out" -c "$2 >/dev/null" </dev/null >/dev/null 2>&1
	tr '\r' '\n' <"$T/$1.out" | sed 's/\x1b\[K//g' | grep -aoE '^step [0-9]+ of [0-9]+' | sort -u
}

with=$(steps with "$FB --auto --destructive sim:sdhc-good,realtime=5")
without=$(steps without "$FB --auto --destructive sim:sdhc-good,claims=none,realtime=5")
readonly=$(steps readonly "$FB --auto sim:sdhc-good,realtime=100")
[ -n "$with" ] && [ -n "$without" ] || fail "no step lines drawn: '$with' '$without'"
! printf '%s\n' "$with" | grep -qv ' of 6$' || fail "with a claim, not 6 steps: $with"
! printf '%s\n' "$without" | grep -qv ' of 5$' || fail "without a claim, not 5 steps: $without"
[ -z "$readonly" ] || [ "$readonly" = "step 1 of 1" ] || fail "read-only: $readonly"
exit 0
