#!/usr/bin/env bash
# Two runs at once on one regular image file: while a -p --preserve run
# holds the file (its BSD lock, flock LOCK_EX, taken before its first
# write), every other run that would write to it (-p --preserve, -O,
# --discard, --capacity, --class, --auto --destructive, --restore of the
# first run's own backup) and every read-only one (-a: it would time the
# writes too) is refused in one line, exit 1, naming the first run's process
# id and command line, and writes nothing; the first run then ends normally
# and the file holds what it held before both. Read-only runs share: -a
# beside -a runs, and a run that writes is refused beside them. A run of
# another device may not write its results (-o) over the held image.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/two_runs.bash"

img=$(random_image img 160M)
cp "$img" "$T/orig"
hold "$img" "$FB" -p --preserve --backup="$T/first.backup" "$img"
[ -s "$T/first.backup" ] || fail "the held run saved nothing before its first write"
refused_beside_held "$img" "$FB" -p --preserve "$img"
refused_beside_held "$img" "$FB" -O -b 64K "$img"
refused_beside_held "$img" "$FB" --discard=16M:4M "$img"
refused_beside_held "$img" "$FB" --capacity "$img"
refused_beside_held "$img" "$FB" --class --claim=C10 "$img"
refused_beside_held "$img" "$FB" --auto --destructive --max-write=64M "$img"
refused_beside_held "$img" "$FB" --restore="$T/first.backup" "$img"
refused_beside_held "$img" "$FB" -a "$img"
expect_err "would time its I/O too"
# nor does a run of another device write its results over the held image
run "$FB" -a -c 1 -o "$img" sim:sdhc-good
expect_rc 2
expect_err "--out=$img is locked by process $held_pid"
release
[ "$held_rc" = 0 ] || fail "the first run: exit $held_rc: $(cat "$T/held.err")"
cmp -s "$img" "$T/orig" || fail "the image differs from what it held before both runs"

# read-only runs share the file; a run that writes waits for none of them
hold "$img" "$FB" -a -c 1 "$img"
run "$FB" -a -c 1 "$img"
expect_rc 0
refused_beside_held "$img" "$FB" -p --preserve "$img"
expect_err "another run is reading it"
release
[ "$held_rc" = 0 ] || fail "the held -a: exit $held_rc: $(cat "$T/held.err")"
cmp -s "$img" "$T/orig" || fail "the image changed"
exit 0
