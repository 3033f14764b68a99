#!/usr/bin/env bash
# Outputs are emptied only once every check has passed, right before the
# first device write: a run refused after they are opened (here: --backup
# names a file that exists) leaves an existing -o/--plot file as it was and
# creates no new one. The image is unchanged.
. "$(dirname "$0")/../lib.sh"
img=$(random_image card.img 32M)
before=$(cksum < "$img")
echo "earlier results" > "$T/out.txt"
echo "<svg/>" > "$T/plot.svg"
echo "an earlier backup" > "$T/saved"

run "$FB" -O --preserve --backup="$T/saved" -e 1M -o "$T/out.txt" --plot="$T/plot.svg" "$img"
expect_rc 1
expect_err "backup=$T/saved: exists, and is no backup --restore would take: choose another name$"
[ "$(cat "$T/out.txt")" = "earlier results" ] || fail "-o file emptied by a refused run"
[ "$(cat "$T/plot.svg")" = "<svg/>" ] || fail "--plot file emptied by a refused run"
[ "$(cksum < "$img")" = "$before" ] || fail "image changed"

run "$FB" -O --preserve --backup="$T/saved" -e 1M -o "$T/new.txt" --plot="$T/new.svg" "$img"
expect_rc 1
[ ! -e "$T/new.txt" ] && [ ! -e "$T/new.svg" ] || fail "a refused run left new output files"

# once it runs, the old contents are replaced, not appended to
rm "$T/saved"
run "$FB" -O --preserve --backup="$T/saved" -e 1M -o "$T/out.txt" --plot="$T/plot.svg" "$img"
expect_rc 0
grep -q "earlier results" "$T/out.txt" && fail "old -o contents kept"
grep -q '^1MiB' "$T/out.txt" || fail "no results in -o file"
head -c 5 "$T/plot.svg" | grep -q '<' || fail "no plot"
grep -q '^<svg/>$' "$T/plot.svg" && fail "old --plot contents kept"
[ "$(cksum < "$img")" = "$before" ] || fail "image changed"
exit 0
