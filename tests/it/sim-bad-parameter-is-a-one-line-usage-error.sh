#!/usr/bin/env bash
# A bad sim: parameter is a usage error: exit 2, one line on stderr naming
# the parameter and the value as typed, nothing on stdout, no record file.
. "$(dirname "$0")/../lib.sh"

while read -r spec want; do
	run "$FB" -a "sim:$spec,record=$T/rec"
	expect_rc 2
	[ -z "$out" ] || fail "sim:$spec: stdout: $out"
	[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "sim:$spec: not one line: $errout"
	case $errout in *"$want"*) ;; *) fail "sim:$spec: stderr lacks '$want': $errout" ;; esac
	[ ! -e "$T/rec" ] || fail "sim:$spec: record file created"
done <<'TABLE'
size=0 size=0
size=12x size=12x
size=1000 size=1000
erasesize=5M erasesize=5M
erasesize=0 erasesize=0
pagesize=3000 pagesize=3000
pagesize=48K pagesize=48K
open-au=0 open-au=0
open-au=many open-au=many
open-au=2,random-au=3 random-au=3
noise=51 noise=51
noise=-1 noise=-1
seed=x seed=x
size=64M,fat-aus=17 fat-aus=17
size=64M,fail-at=64M fail-at=64M
colour=red colour=red
sdhc-bad sdhc-bad
emmc,cf-16m cf-16m
size=4G,,seed=1 empty
TABLE
exit 0
