#!/usr/bin/env bash
# Every command line in tests/data/seeds (real mailing-list posts) runs as
# typed, with only the device replaced: on a sim: card, and those that write
# at most ~40 MiB (marked L) also on a loop device. Lines the posts garbled
# when their line breaks were lost ("--open- au-nr", "1677721--blocksize")
# are given with the break restored; "$[...]" is bash arithmetic, as typed.
# Each prints the table it asks for (rows, sizes and columns checked).
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1
M=$((1 << 20))

cmds=(
	'L|-a DEV --blocksize=$[4 * 1024]'
	'L|-a DEV --blocksize 1024'
	'L|-a DEV --blocksize=1024 --count=32'
	'L|-a DEV --blocksize=1024 --count=100'
	'L|-O --erasesize=$[512 * 1024] --blocksize=$[4 * 1024] DEV --open-au'
	'L|-O --erasesize=$[512 * 1024] --blocksize=$[4 * 1024] DEV --open-au --random'
	'L|-O --erasesize=$[512 * 1024] --blocksize=$[4 * 1024] DEV --open-au-nr=1'
	'L|-O --erasesize=$[512 * 1024] --blocksize=$[4 * 1024] DEV --open-au-nr=1 --random'
	'-|-O --erasesize=$[512 * 1024] --blocksize=$[4 * 1024] DEV --open-au-nr=17'
	'-|-O --erasesize=$[512 * 1024] --blocksize=$[4 * 1024] DEV --open-au-nr=18 --random'
	'-|-O --erasesize=$[8 * 1024 * 1024] --blocksize=4096 DEV --open-au-nr=1 --random'
	'-|--open-au DEV --erasesize=16777216 --blocksize=1024 --open-au-nr=1'
	'-|--open-au DEV --erasesize=16777216 --blocksize=1048576 --open-au-nr=12'
	'-|--open-au DEV --erasesize=16777216 --blocksize=8192 --open-au-nr=11 --random'
	'-|--open-au DEV --erasesize=8388608 --blocksize=8192 --open-au-nr=11'
	'-|--findfat DEV --erasesize=16777216 --blocksize=512 --fat-nr=4 --random'
	'-|--findfat --fat-nr=6 DEV --blocksize=$[8*1024] --random'
	'-|DEV --findfat --fat-nr=4 --erasesize=$[4 * 1024 * 1024] --blocksize=1024'
	'-|DEV --findfat --fat-nr=5 --erasesize=$[8 * 1024 * 1024]'
	'-|DEV --open-au --open-au-nr=4 --erasesize=$[8 * 1024 * 1024] --random'
	'-|DEV --open-au --open-au-nr=1 --erasesize=$[6 * 1024 * 1024] --blocksize 1536'
	'-|DEV --open-au --open-au-nr=2 --erasesize=$[6 * 1024 * 1024] --blocksize 1536 --offset=$[64 * 1024 * 576] --random'
	'-|DEV --open-au --open-au-nr=6 --erasesize=$[6 * 1024 * 1024] --blocksize 1536 --offset=$[64 * 1024 * 576]'
	'-|DEV --open-au --open-au-nr=3 --erasesize=$[3 * 1024 * 1024] --blocksize 1536 --offset=$[64 * 1024 * 576]'
	'-|DEV --open-au --erasesize=$[2*1024*1024] --blocksize=$[8*1024] --open-au-nr=6 --random'
	'L|DEV --open-au --erasesize=$[1*1024*1024] --blocksize=$[4*1024] --open-au-nr=1'
	'L|DEV --open-au --erasesize=$[2*1024*1024] --blocksize=$[4*1024] --open-au-nr=1 --random'
	'L|DEV --open-au --erasesize=$[2*1024*1024] --blocksize=$[4*1024] --open-au-nr=2'
	'-|DEV --open-au --erasesize=$[2*1024*1024] --blocksize=$[4*1024] --open-au-nr=10'
)

# check_output DEVSIZE ARGS...: $out is the table the arguments ask for: the
# -a rows down to twice the block size, or one rate line per chunk size from
# the erase size down to the block size, with a rate per erase block for
# --findfat (the defaults are 16KiB blocks, 4MiB erase blocks, 6 for --fat-nr)
check_output() {
	local size=$1 test="" b=16384 e=$((4 << 20)) fat=6
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		-a) test=align ;;
		-O | --open-au) test=open-au ;;
		--findfat) test=find-fat ;;
		--blocksize) b=$2; shift ;;
		--blocksize=*) b=${1#*=} ;;
		--erasesize=*) e=${1#*=} ;;
		--fat-nr=*) fat=${1#*=} ;;
		esac
		shift
	done
	case $test in
	align) check_align_table "$b" "$size" ;;
	open-au) check_rate_table "$e" "$b" 1 ;;
	find-fat) check_rate_table "$e" "$b" "$fat" ;;
	*) fail "no test in the command line" ;;
	esac
}

# try WHERE DEVICE SIZE: runs each command with DEV replaced, checks its table
try() {
	local where=$1 dev=$2 size=$3 c line
	for c in "${cmds[@]}"; do
		[ "$where" = sim ] || [ "${c%%|*}" = L ] || continue
		line=${c#*|}
		line=${line//DEV/$dev}
		run bash -c "\"\$0\" $line" "$FB"
		[ "$rc" = 0 ] || fail "$where: flashbench $line: exit $rc: $errout"
		[ -n "$out" ] || fail "$where: flashbench $line: no output"
		eval "set -- $line"	# the arguments as bash gave them to flashbench
		( check_output "$size" "$@" ) || fail "$where: flashbench $line: not the table it asks for"
	done
}

try sim "sim:size=4G,erasesize=4M" $((4 << 30))
need_root
f=$(make_file card 1G)
use_loop "$f"
try loop "$LOOP" $((1 << 30))
exit 0
