#!/usr/bin/env bash
# Every invalid value: exactly one line on stderr naming the option and the
# value, exit 2, nothing on stdout, and no I/O at all (the targets' mtimes
# unchanged after each row and their contents after all rows; with strace,
# no read/write/discard of them either). Each row is its own check; the
# script fails if any row fails.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

F=$T/card			# 32 MiB of known contents, logical block size 512
fill_random "$F" 32
SMALL=$T/small			# too small for any test
head -c 16384 /dev/urandom >"$SMALL"
EMPTY=$T/empty
: >"$EMPTY"
touch -d '2020-01-01 00:00:00' "$F" "$SMALL" "$EMPTY"
use_strace=0
if have_tool strace "the no-read/write check of each row"; then
	strace -o /dev/null true 2>/dev/null && use_strace=1 ||
		skip_part "the no-read/write check of each row: strace cannot trace here"
fi

# option-regex # value-regex # arguments (@F@ @SMALL@ @EMPTY@ replaced)
rows=(
	'blocksize#0#-a -b 0 @F@'
	'blocksize#-4096#-a -b -4096 @F@'
	'blocksize#abc#-a --blocksize=abc @F@'
	'blocksize#1\.5#-a -b 1.5 @F@'
	'blocksize#4q#-O -b 4q @F@'
	'blocksize#99999999999999999999#-a -b 99999999999999999999 @F@'
	'blocksize#1000#-a -b 1000 @F@'
	'blocksize#1000#-O -b 1000 @F@'
	'blocksize#(8M|8388608|8MiB)#-O -e 4M -b 8M @F@'
	'blocksize#(8M|8388608|8MiB)#-f -e 4M -b 8M @F@'
	'erasesize#0#-O -e 0 @F@'
	'erasesize#-4M#-O -e -4M @F@'
	'erasesize#4x#-O --erasesize=4x @F@'
	'erasesize#(1000|4000)#-O -e 4000 -b 1000 @F@'
	'count#0#-a -c 0 @F@'
	'count#-1#-a --count=-1 @F@'
	'count#x#-a -c x @F@'
	'open-au-nr#0#-O --open-au-nr=0 @F@'
	'open-au-nr#-2#-O --open-au-nr=-2 @F@'
	'fat-nr#0#-f --fat-nr=0 @F@'
	'scatter-order#-1#-s --scatter-order=-1 @F@'
	'scatter-order#99#-s --scatter-order=99 @F@'
	'scatter-span#0#-s --scatter-span=0 @F@'
	'interval-order#.#-i @F@'
	'interval-order#0#-i --interval-order=0 @F@'
	'interval-order#99#-i --interval-order=99 @F@'
	'offset#1000#-O --offset=1000 @F@'
	'offset#(64M|67108864)#-O --offset=64M @F@'
	'(offset|open-au-nr)#(30M|31457280|3)#-O --offset=30M --open-au-nr=3 -e 1M @F@'
	'(fat-nr|erasesize)#(20|4M|4194304)#-f --fat-nr=20 @F@'
	'(scatter|span|order)#(16|4096)#-s --scatter-order=16 @F@'
	'@SMALL@#small#-a @SMALL@'
	'@SMALL@#small#-O @SMALL@'
	'@SMALL@#small#-f @SMALL@'
	'@SMALL@#small#-p @SMALL@'
	'@EMPTY@#empty#-a @EMPTY@'
	'@EMPTY@#empty#-O @EMPTY@'
	'device#(no|missing)#-a'
	'device#@F@#-a @F@ @SMALL@'
	'--bogus#unknown#--bogus @F@'
	'-Z#unknown#-Z @F@'
	'@F@#(test|action)#@F@'
	'(auto|align)#(one|only)#-a --auto @F@'
	'json#(one|only)#-a -O --json @F@'
	'discard#garbage#--discard=garbage @F@'
	'discard#0:0#--discard=0:0 @F@'
	'discard#(64M|67108864)#--discard=64M:1M @F@'
	'discard#1000#--discard=1000:4096 @F@'
	'(-b|blocksize)#(value|argument)#-a @F@ -b'
	'on-error#maybe#-a --on-error=maybe @F@'
	# output names: empty or given twice (the first would be ignored)
	'out#(needs a file name|'"''"')#-a --out= @F@'
	'plot#(needs a file name|'"''"')#-a --plot= @F@'
	'backup#(needs a file name|'"''"')#-O --preserve --backup= @F@'
	'out#/dev/null#-a -o /dev/null -o /dev/null @F@'
	'discard#(4k:4k|4096:4096)#--discard=0:4k --discard=4k:4k @F@'
	# 0 is not "the default"; options a run would not honour
	'max-write#=0#--auto --destructive --max-write=0 @F@'
	'max-write#(1M|1048576)#-a --max-write=1M @F@'
	'max-write#(1M|1048576)#--auto --max-write=1M @F@'
	'preserve#auto#--auto --destructive --preserve @F@'
	'preserve#auto#--auto --destructive --preserve --backup=@F@.bak @F@'
	'preserve#auto#--auto --preserve @F@'
	'preserve#align#-a --preserve @F@'
	'force#restore#-O --force @F@'
	'erasesize#8M#--auto -e 8M @F@'
	'offset#(16M|16777216)#--auto --destructive --offset=16M @F@'
	'count#3#--analyze=@F@ -c 3'
	'out#restore#--restore=@SMALL@ -o /dev/null @F@'
	'verbose#analyze#--analyze=@F@ -v'
	'verbose#restore#--restore=@SMALL@ -v @F@'
	# size arithmetic on huge values: the option named, never a wrapped product
	'erasesize#(8192P|9223372036854775808)#-O -e 8192P --offset=0 @F@'
	'erasesize#(1P|1125899906842624)#-O -e 1P @F@'
	'erasesize#(8192P|9223372036854775808)#-f -e 8192P @F@'
	'blocksize#(8192P|9223372036854775808)#-s -b 8192P @F@'
	'blocksize#(8192P|9223372036854775808)#-a -b 8192P @F@'
	'scatter-order#24#-s --scatter-span=1048576 --scatter-order=24 @F@'
	'open-au-nr#1024#-O -e 16M --open-au-nr=1024 --offset=0 @F@'
	'erasesize#5M#-O -e 5M @F@'
	'erasesize#5M#-f --erasesize=5M @F@'
	'plot#x\.png#-a --plot=x.png @F@'
)

# Contents are checksummed once around all rows (32 MiB per row made this
# test slow); every row checks the mtimes, which any write or discard moves.
before_f=$(fingerprint "$F") before_s=$(fingerprint "$SMALL") before_e=$(fingerprint "$EMPTY")
mtimes() { stat -c %.9Y "$F" "$SMALL" "$EMPTY"; }
before_m=$(mtimes)
failures=0 row_failed=0
row_fail() {
	echo "FAIL row [$1]: $2" >&2
	row_failed=1
}
traced_io() {
	grep -E '^[0-9]+ +(pread|pwrite|read|write|fallocate|ioctl)' "$T/trace" | head -n 3
}

# check_row ARGS OPT_RE VAL_RE: runs one bad invocation and checks it
check_row() {
	local args=$1 opt_re=${2//$T/<T>} val_re=${3//$T/<T>} nl io msg
	# shellcheck disable=SC2086
	run "$FB" $args
	[ "$rc" = 2 ] || { row_fail "$args" "exit $rc, want 2; stderr: $errout"; return; }
	# with --json, stdout holds the error as a JSON document (run validates it)
	[ -z "$out" ] || [[ " $args " == *" --json "* ]] || row_fail "$args" "stdout: $out"
	nl=$(printf '%s' "$errout" | grep -c '')
	[ "$nl" = 1 ] || row_fail "$args" "$nl lines on stderr, want 1: $errout"
	msg=${errout//$T/<T>}	# so a random temp name cannot match a value
	printf '%s\n' "$msg" | grep -qE -- "$opt_re" || row_fail "$args" "stderr does not name /$opt_re/: $errout"
	printf '%s\n' "$msg" | grep -qE -- "$val_re" || row_fail "$args" "stderr does not name value /$val_re/: $errout"
	if [ "$use_strace" = 1 ]; then
		# again under strace, for reads too; LeakSanitizer cannot run traced
		# shellcheck disable=SC2086
		traced -f -qq --seccomp-bpf -o "$T/trace" \
			-e trace=pread64,pwrite64,preadv,pwritev,preadv2,pwritev2,read,write,fallocate,ioctl \
			-P "$F" -P "$SMALL" -P "$EMPTY" "$FB" $args >/dev/null 2>&1
		io=$(traced_io)
		[ -z "$io" ] || row_fail "$args" "I/O on the target: $io"
	fi
	[ "$(mtimes)" = "$before_m" ] || { row_fail "$args" "a target's mtime changed"; before_m=$(mtimes); }
}

subst() { local s=${1//@F@/$F}; s=${s//@SMALL@/$SMALL}; printf '%s' "${s//@EMPTY@/$EMPTY}"; }
for row in "${rows[@]}"; do
	IFS='#' read -r opt_re val_re args <<<"$row"
	row_failed=0
	check_row "$(subst "$args")" "$(subst "$opt_re")" "$(subst "$val_re")"
	failures=$((failures + row_failed))
done

[ "$(fingerprint "$F")" = "$before_f" ] || fail "$F changed during the bad-input rows"
[ "$(fingerprint "$SMALL")" = "$before_s" ] || fail "$SMALL changed during the bad-input rows"
[ "$(fingerprint "$EMPTY")" = "$before_e" ] || fail "$EMPTY changed during the bad-input rows"

# the strace check can see I/O: a valid -a on the same file shows its reads
if [ "$use_strace" = 1 ]; then
	traced -f -qq --seccomp-bpf -o "$T/trace" \
		-e trace=pread64,pwrite64,preadv,pwritev,preadv2,pwritev2,read,write,fallocate,ioctl \
		-P "$F" -P "$SMALL" -P "$EMPTY" "$FB" -a -c 1 "$F" >/dev/null 2>&1
	[ -n "$(traced_io)" ] || fail "strace saw no reads of $F from a valid -a: the no-I/O check is blind"
fi

# values that look odd but are valid: 4k is 4096 (not 4), 4M is 4 MiB
row_failed=0
run "$FB" -a -b 4k -c 1 "$F"
[ "$rc" = 0 ] || row_fail "-a -b 4k" "exit $rc: $errout"
[[ $out == *$'\n'"align 8192"$'\t'* ]] || row_fail "-a -b 4k" "last row is not 8192 (2 x 4096): ${out##*$'\n'}"
run "$FB" -a -b 8K -c 1 "$F"
[ "$rc" = 0 ] || row_fail "-a -b 8K" "exit $rc: $errout"
[[ $out == *$'\n'"align 16384"$'\t'* ]] || row_fail "-a -b 8K" "last row is not 16384"
use_shm_file g 32
run "$FB" -O -e 4M -b 4M "$SHMFILE"
[ "$rc" = 0 ] || row_fail "-O -e 4M -b 4M" "exit $rc: $errout"
[[ $out =~ ^4MiB\ {4}$RATE_RE\ +$ ]] || row_fail "-O -e 4M -b 4M" "want one 4MiB line: $out"

[ "$failures" = 0 ] || fail "$failures of ${#rows[@]} bad-input rows failed"
[ "$row_failed" = 0 ] || fail "a valid value was refused"
