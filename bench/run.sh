#!/usr/bin/env bash
# `make bench`: runs every bench/*.sh (each prints figures and ratios, never
# pass/fail on time), then repeats each one's summary (its last line) for the
# README's performance section. Exit 1 only if a benchmark itself broke.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export FLASHBENCH=${FLASHBENCH:-$here/../flashbench}
summaries=()
broken=0

for b in "$here"/*.sh; do
	name=$(basename "$b" .sh)
	[ "$name" = run ] && continue
	[ "$name" = mutate ] && continue	# the mutation score: `make mutate`
	echo "== $name"
	out=$(bash "$b" "$FLASHBENCH" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	if [ "$rc" -ne 0 ]; then
		broken=1
		summaries+=("$name: broken (exit $rc)")
	else
		summaries+=("$(printf '%s\n' "$out" | tail -n 1)")
	fi
done

echo
echo "== summary ($(date -u +%Y-%m-%d), $(uname -m), $(nproc) CPUs; command: make bench)"
printf '%s\n' "${summaries[@]}"
exit "$broken"
