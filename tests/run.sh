#!/usr/bin/env bash
# Runs the unit test binaries and every integration test. Prints a summary
# of unit checks and of integration tests, then, as the LAST line,
# "N passed, N failed, N skipped" over both. Exit 1 if anything failed.
#
# Integration tests run FB_TEST_JOBS at a time (default 2), the longest
# first (their times of the last run: FB_TEST_TIMES, default beside the unit
# tests), the unit tests beside them. Each finds its own files and loop
# devices; the tests using /dev/zram0 (a single device) run one after
# another in one lane, since a busy zram0 makes them skip. Results print in
# file order, the unit tests' first; a passing test's lines starting with
# "pending " (work known to be left, e.g. layer rules) are shown under it.
# A passing test's lines starting with "# " are shown too (reports such as
# the calibration table), and so are its "skip part: REASON" lines (a part
# it could not run here). The last line counts skipped tests and skipped
# parts by reason. Under CI=true, tests/lib.sh fails a test that skips for
# want of a tool .ci/run installs (tests/ci-tools).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${FLASHBENCH:?set FLASHBENCH to the binary under test}"
: "${UNIT_DIR:?set UNIT_DIR to the unit test binaries}"
export FLASHBENCH UNIT_DIR	# UNIT_DIR: also where tests find vclock.so
# the python3 interpreter itself, for tests/lib.sh (no version manager's shim at every call)
FB_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && export FB_PYTHON
jobs=${FB_TEST_JOBS:-2}
work=$(mktemp -d /tmp/fbrun.XXXXXX)
trap 'rm -rf "$work"' EXIT
# the unit tests that run python3 (tests/pyeval.h) get the interpreter itself too
if [ -x "${FB_PYTHON:-}" ] && mkdir "$work/bin" && ln -s "$FB_PYTHON" "$work/bin/python3"; then
	PATH=$work/bin:$PATH
	export FB_PYBIN=$work/bin	# tests/lib.sh finds it there and makes no link of its own
fi
# whether O_DIRECT works in /dev/shm, tried once here for every test's directory (tests/lib.sh)
if [ -d /dev/shm ] && shm=$(mktemp -d /dev/shm/fbrun.XXXXXX 2>/dev/null); then
	dd if=/dev/zero of="$shm/odirect" bs=4096 count=1 oflag=direct status=none 2>/dev/null &&
		export FB_SHM_ODIRECT=yes
	rm -rf "$shm"
fi
# one python3 for the tests' checks (tests/pyserver.py; tests/lib.sh, pyrun),
# in a process group of its own, ended with the suite
if [ -x "${FB_PYTHON:-}" ] && command -v setsid >/dev/null; then
	setsid "$FB_PYTHON" "$here/pyserver.py" "$work/py" >"$work/py.ready" 2>"$work/py.err" </dev/null &
	FB_PYSERVER_PID=$!
	# ready once it has made its FIFO and said so
	until [ -s "$work/py.ready" ] || ! kill -0 "$FB_PYSERVER_PID" 2>/dev/null; do sleep 0.01; done
	if [ -p "$work/py" ] && kill -0 "$FB_PYSERVER_PID" 2>/dev/null; then
		export FB_PYSERVER=$work/py FB_PYSERVER_PID
		trap 'kill -TERM -- "-$FB_PYSERVER_PID" 2>/dev/null; wait "$FB_PYSERVER_PID" 2>/dev/null; rm -rf "$work"' EXIT
	fi
fi

# run_units: every unit test program, one after another; its lines in
# $work/units.out, the counts in $work/units.counts (it runs beside the
# integration tests: it would leave a core idle on its own)
run_units() {
	local t out rc line p f u_passed=0 u_failed=0 u_skipped=0 TIMEFORMAT='%R'
	for t in "$UNIT_DIR"/test_*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		{ time out=$("$t" 2>&1); rc=$?; } 2>"$work/.unit.time"
		line=$(printf '%s\n' "$out" | tail -n 1)
		if [ $rc -eq 77 ]; then
			u_skipped=$((u_skipped + 1))
			printf 'skip unit %s: %s\n' "$(basename "$t")" "$line"
			printf '%s\n' "${line#skip: }" >>"$work/.skips"
			continue
		fi
		if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
			p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
		else
			p=0 f=1
		fi
		[ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
		u_passed=$((u_passed + p)); u_failed=$((u_failed + f))
		if [ "$f" -ne 0 ]; then
			printf 'FAIL unit %s\n%s\n' "$(basename "$t")" "$out"
		else
			printf 'ok   unit %s (%d checks, %ss)\n' "$(basename "$t")" "$p" "$(cat "$work/.unit.time")"
		fi
	done >"$work/units.out"
	echo "$u_passed $u_failed $u_skipped" >"$work/units.counts.tmp"
	mv "$work/units.counts.tmp" "$work/units.counts"
}
run_units &
units_pid=$!

# A test still running after FB_TEST_TIMEOUT seconds (default 1800) hangs:
# it is stopped and fails. Only a guard against hangs, far above what any
# test takes on a busy machine; no test decides from time.
timeout_s=${FB_TEST_TIMEOUT:-1800}

# run_one TEST: runs it, leaving its output, exit code, seconds and CPU
# seconds (its own and its children's: what it costs on a quiet machine) in $work
run_one() {
	local name=${1##*/} TIMEFORMAT='%3R %3U %3S'
	name=${name%.sh}
	{ time FB_PYCPU=$work/$name.pycpu timeout "$timeout_s" bash "$1" > "$work/$name.out" 2>&1 </dev/null
	  echo $? > "$work/$name.rc.tmp"; } 2> "$work/$name.time"
	mv "$work/$name.rc.tmp" "$work/$name.rc"
}

tests=() serial=()
for t in "$here"/it/*.sh; do
	[ -f "$t" ] && tests+=("$t")
done
[ "${#tests[@]}" -gt 0 ] && mapfile -t serial < <(grep -lE 'make_zram|use_zram' "${tests[@]}")

i_passed=0 i_failed=0 i_skipped=0 next=0 units_shown=0
# ms VAR TEXT: VAR = TEXT's seconds (time's %3R, pyserver's figure) in milliseconds
ms() {
	local i=${2%%.*} f=000
	[ "$i" = "$2" ] || f=${2#*.}000
	printf -v "$1" %d $((10#${i:-0} * 1000 + 10#${f:0:3}))
}

# times_of NAME: secs = "W.Ws, CPU C.Cs": its seconds, and its CPU seconds: its own and
# its children's and what its checks took in tests/pyserver.py (no process started)
times_of() {
	local w u s c l m
	read -r w u s <"$work/$1.time"
	ms u "$u"; ms s "$s"; ms w "$w"
	c=$((u + s))
	if [ -f "$work/$1.pycpu" ]; then
		while read -r l; do ms m "$l"; c=$((c + m)); done <"$work/$1.pycpu"
	fi
	printf -v secs '%d.%ds, CPU %d.%ds' $(((w + 50) / 1000)) $(((w + 50) / 100 % 10)) \
		$(((c + 50) / 1000)) $(((c + 50) / 100 % 10))
}

# report_done: prints the unit tests once they are done, then, in file
# order, every finished integration test not yet printed
report_done() {
	local t name rc out secs reason line pend shown parts
	if [ "$units_shown" = 0 ]; then
		[ -f "$work/units.counts" ] || return 0
		cat "$work/units.out"
		read -r u_passed u_failed u_skipped <"$work/units.counts"
		units_shown=1
	fi
	while [ "$next" -lt "${#tests[@]}" ]; do
		t=${tests[$next]}; name=${t##*/}; name=${name%.sh}
		[ -f "$work/$name.rc" ] || return 0
		rc=$(<"$work/$name.rc"); out=$(<"$work/$name.out")
		times_of "$name"
		case $rc in
		0) i_passed=$((i_passed + 1)); printf 'ok   %s (%s)\n' "$name" "$secs"
		   # work a passing test knows is left to do, a report the test wants shown
		   # (calibration), a part it could not run here
		   # (in that order; read without a process started)
		   pend= shown= parts=
		   while IFS= read -r line; do
			case $line in
			'pending '*) pend+="     $line"$'\n' ;;
			'# '*) shown+="$line"$'\n' ;;
			'skip part: '*) parts+="     $line"$'\n'
				printf 'part: %s\n' "${line#skip part: }" >>"$work/.skips" ;;
			esac
		   done <<<"$out"
		   printf '%s' "$pend$shown$parts" ;;
		77) i_skipped=$((i_skipped + 1))
		    reason=${out##*$'\n'}
		    printf 'skip %s: %s\n' "$name" "$reason"
		    printf '%s\n' "${reason#skip: }" >>"$work/.skips" ;;
		*) i_failed=$((i_failed + 1)); printf 'FAIL %s (exit %d, %s)\n%s\n' "$name" "$rc" "$secs" "$out" ;;
		esac
		next=$((next + 1))
	done
}

# The longest first (as long as they took last time, in $times; a test not
# seen yet counts as long): the last to finish is then a short one. Results
# still print in file order.
times=${FB_TEST_TIMES:-$UNIT_DIR/../it-times}
declare -A took=()
if [ -f "$times" ]; then
	while read -r name secs; do took[$name]=$secs; done <"$times"
fi
order=$(for t in "${tests[@]}"; do
	name=${t##*/}; name=${name%.sh}
	echo "${took[$name]:-100000} $t"
done | sort -k1,1nr -s | cut -d' ' -f2-)

running=0
if [ "${#serial[@]}" -gt 0 ]; then
	( for t in "${serial[@]}"; do run_one "$t"; done ) &
	running=1
fi
while IFS= read -r t; do
	case " ${serial[*]} " in *" $t "*) continue ;; esac
	while [ "$running" -ge "$jobs" ]; do
		wait -n -p ended
		[ "${ended:-}" = "$units_pid" ] || running=$((running - 1))	# the unit tests run beside
		report_done
	done
	run_one "$t" &
	running=$((running + 1))
done <<<"$order"
# every job but tests/pyserver.py, which runs until the suite ends
for p in $(jobs -p); do [ "$p" = "${FB_PYSERVER_PID:-}" ] || wait "$p"; done
report_done
# what each took, for the next run's order
for t in "${tests[@]}"; do
	name=${t##*/}; name=${name%.sh}
	[ -f "$work/$name.time" ] && read -r secs _ <"$work/$name.time" && printf '%s %s\n' "$name" "${secs%.*}"
done >"$times.tmp" 2>/dev/null && mv "$times.tmp" "$times" 2>/dev/null

echo "unit checks: $u_passed passed, $u_failed failed ($u_skipped test programs skipped)"
echo "integration tests: $i_passed passed, $i_failed failed, $i_skipped skipped"
# skipped tests and parts by reason, most frequent first: "(2 needs root; part: 1 ...)"
by_reason=""
if [ -s "$work/.skips" ]; then
	by_reason=" ($(sort "$work/.skips" | uniq -c | sort -k1,1nr -k2 |
		sed -E 's/^ *([0-9]+) (part: )?(.*)/\2\1 \3/' | paste -sd';' | sed 's/;/; /g'))"
fi
echo "$((u_passed + i_passed)) passed, $((u_failed + i_failed)) failed, $((u_skipped + i_skipped)) skipped$by_reason"
[ $((u_failed + i_failed)) -eq 0 ]
