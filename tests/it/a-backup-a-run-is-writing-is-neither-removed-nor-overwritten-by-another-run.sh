#!/usr/bin/env bash
# The --backup file a run is writing is locked (flock) while the run lasts:
# a second run on another device that names the same file as its --backup
# (it read as a partial backup and was removed), -o or --plot (they
# truncated it), standard output, or --restore of it (it read as a partial
# backup and was removed, or was restored over a device still under test)
# is refused naming the first run, and the file is left alone. A -o onto a
# complete backup no run holds is refused too: it may be the only copy of
# the data. The first run then ends normally and its device is as before.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/two_runs.bash"

img=$(random_image img 160M)
other=$(random_image other 160M)
cp "$img" "$T/orig"
bk="$T/first.backup"
hold "$img" "$FB" -p --preserve --backup="$bk" "$img"
[ -s "$bk" ] || fail "the held run saved nothing before its first write"
sum=$(cksum < "$bk")
refused() {	# RC CMD...: CMD exits RC naming the held run, and the backup is untouched
	local want=$1
	shift
	run "$@"
	[ "$rc" = "$want" ] || fail "'$*' beside the held run: exit $rc, want $want; stderr: $errout"
	expect_err "locked by process $held_pid \\([^)]*flashbench"
	[ -e "$bk" ] || fail "'$*' removed the backup the held run is writing"
	[ "$(cksum < "$bk")" = "$sum" ] || fail "'$*' changed the backup the held run is writing"
}
refused 2 "$FB" -p --preserve --backup="$bk" "$other"
refused 2 "$FB" --capacity --backup="$bk" "$other"
refused 2 "$FB" -a -c 1 -o "$bk" "$other"
ln -s "$bk" "$T/first.svg"	# a plot's name ends in .svg
refused 2 "$FB" -a -c 1 --plot="$T/first.svg" "$other"
refused 1 "$FB" --restore="$bk" "$img"
refused 1 "$FB" --restore="$bk" --force "$other"
run bash -c '"$@" >> "$0"' "$bk" "$FB" -a -c 1 "$other"
expect_rc 2
expect_err "standard output is locked by process $held_pid"
[ "$(cksum < "$bk")" = "$sum" ] || fail "standard output appended to the held run's backup"
release
[ "$held_rc" = 0 ] || fail "the first run: exit $held_rc: $(cat "$T/held.err")"
cmp -s "$img" "$T/orig" || fail "the image differs from what it held before"

# a complete backup nobody holds: -o and --plot would destroy the only copy
loop=$(make_loop "$other")
backup_of_killed_run "$loop" "$T/kept"
sum=$(cksum < "$T/kept")
run "$FB" -a -c 1 -o "$T/kept" "$img"
expect_usage_error "--out=$T/kept is a backup of $loop"
ln -s "$T/kept" "$T/kept.svg"
run "$FB" -a -c 1 --plot="$T/kept.svg" "$img"
expect_usage_error "--plot=$T/kept.svg is a backup of $loop"
[ "$(cksum < "$T/kept")" = "$sum" ] || fail "a refused output changed the backup"
exit 0
