#!/usr/bin/env bash
# The calibration table of --auto --destructive (doc/card-facts.md,
# Calibration): 320 simulated cards drawn from the published geometry, every
# verdict per confidence level (right / wrong / unknown), and the bytes and
# device time it writes against the manual sequence with the original's
# options (-a; -O N=1..linear+1; -O --random N=1..random+1; -f); then the
# same cards on a busy host with a CPU hog beside the runs; then, as a table
# of its own, cards as they are made today (SLC caches, RAM buffers, idle
# collection, big blocks, no visible geometry: calibration.py --today).
# Prints the tables as doc/card-facts.md holds them; the last line is the
# summary `make bench` repeats. Never fails on the numbers.
set -u
here=$(cd "$(dirname "$0")" && pwd)
FB=${1:-${FLASHBENCH:-$here/../flashbench}}
command -v python3 >/dev/null || { echo "calibration: needs python3"; exit 0; }
CARDS=${CALIBRATION_CARDS:-320}
SEED=${CALIBRATION_SEED:-2026}
TODAY=${CALIBRATION_TODAY_CARDS:-120}

quiet=$(python3 "$here/calibration.py" "$FB" --cards "$CARDS" --seed "$SEED" --cost --markdown) || exit 1
printf '%s\n\n' "$quiet"
busy=$(python3 "$here/calibration.py" "$FB" --cards "$CARDS" --seed "$SEED" --busy-host --hog --markdown) ||
	exit 1
printf '%s\n\n' "$busy"
today=$(python3 "$here/calibration.py" "$FB" --cards 0 --today "$TODAY" --seed "$SEED" --cost --markdown) ||
	exit 1
printf '%s\n\n' "$today"
cost=$(printf '%s\n' "$quiet" | sed -n 's/^# cost: //p')
echo "calibration: $CARDS cards (seed $SEED); $cost"
