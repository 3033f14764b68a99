#!/usr/bin/env bash
# tests/layers.sh [SRCDIR]: checks the layer rules of the sources from their
# #include "..." lines (and, for two rules, from what a file calls or
# declares). Each rule prints "ok", "FAIL" with the offending include chain,
# or "pending" when it does not hold yet but is listed in PENDING below: the
# restructuring that makes it hold has not been done. Exit 1 if a rule that
# is not pending fails. A pending rule that holds is reported so it can be
# taken off the list.
#
# The layers, bottom up:
#   device     dev.c dev.h backends/ (dev.c checks and counts, a backend per
#              kind of device does the I/O), and the simulated card sim/
#   vm         vm.[ch]: runs I/O programs on a device, returns data
#   measure    measure/: the original's tests as vm programs, returning data
#   analysis   analyze/: data in, verdicts out (and the parser of pasted posts)
#   renderers  report/, lib/json.[ch]: data and verdicts in, text/JSON/SVG out
#   commands   flashbench.c parses and dispatches; cmd/, auto/ and checks/
#              call the layers above in order.
set -u
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src" || exit 2

# Rules that do not hold yet (the restructuring is a later piece of work).
PENDING=" "
PENDING=" $(echo $PENDING) "	# one space between names

# files VAR GLOB...: VAR = the files matching the globs, in this directory,
# that exist, sorted, once each (in this shell: no fork, the rules are many)
files() {
	local -n into=$1
	local -A seen=()
	local g f i list=()
	shift
	for g in "$@"; do
		for f in $g; do
			[ -f "$f" ] && [ -z "${seen[$f]:-}" ] || continue
			seen[$f]=1
			for ((i = ${#list[@]}; i > 0; i--)); do	# in order (few files: insertion)
				[[ ${list[i - 1]} > $f ]] || break
				list[i]=${list[i - 1]}
			done
			list[i]=$f
		done
	done
	printf -v into '%s\n' "${list[@]}"
	into=${into%$'\n'}
}
files DEVICE 'dev.c' 'dev.h' 'backends/dev_*.[ch]'
files SIM 'sim/*.[ch]'
files VM 'vm.c' 'vm.h'
files MEASURE 'measure/*.[ch]'
files ANALYSIS 'analyze/*.[ch]'
files RENDERERS 'report/*.[ch]' 'lib/json.c' 'lib/json.h'

# DIRECT[file]: the project headers file includes, read once for all files
declare -A DIRECT=()
while read -r f h; do
	DIRECT[$f]+="$h "
done < <(awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/) {
		s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"$/, "", s)
		print FILENAME, s }' ./*.c ./*.h ./*/*.c ./*/*.h 2>/dev/null | sed 's|^\./||')
direct() { printf '%s\n' ${DIRECT[$1]:-}; }	# project headers FILE includes

# REACH[file]: "header<TAB>chain" lines for every project header the file
# includes, directly or through other headers; computed once for all files
# here (the rules run in subshells: no fork per file and rule)
declare -A REACH=()
reach_of() {
	local -A seen=()
	local queue=("$1") chain=("$1") i=0 f h lines=
	while [ "$i" -lt "${#queue[@]}" ]; do
		f=${queue[$i]}
		for h in ${DIRECT[$f]:-}; do
			[ -n "${seen[$h]:-}" ] && continue
			seen[$h]=1
			lines+="$h"$'\t'"${chain[$i]} -> $h"$'\n'
			queue+=("$h"); chain+=("${chain[$i]} -> $h")
		done
		i=$((i + 1))
	done
	REACH[$1]=$lines
}
for f in "${!DIRECT[@]}"; do reach_of "$f"; done

# no_reach "FILES" HEADER...: FILES reach none of the headers
no_reach() {
	local f h c b bad=0
	for f in $1; do
		while IFS=$'\t' read -r h c; do
			[ -n "$h" ] || continue
			for b in "${@:2}"; do
				if [[ $h == $b ]]; then echo "    $c"; bad=1; fi
			done
		done <<<"${REACH[$f]:-}"
	done
	return $bad
}

# no_direct "FILES" HEADER...: FILES include none of the headers themselves
no_direct() {
	local f h b bad=0
	for f in $1; do
		for h in ${DIRECT[$f]:-}; do
			for b in "${@:2}"; do
				if [[ $h == $b ]]; then echo "    $f -> $h"; bad=1; fi
			done
		done
	done
	return $bad
}

# no_match "FILES" ERE: no line of FILES outside comments matches (one awk for all of them)
no_match() {
	[ -n "$1" ] || return 0
	# shellcheck disable=SC2086	# FILES are words
	RE=$2 awk '
		FNR == 1 { incomment = 0 }
		{ line = $0; sub(/\/\/.*$/, "", line); out = ""
		  while (line != "") {
			if (incomment) { p = index(line, "*/"); if (!p) { line = ""; break }
				line = substr(line, p + 2); incomment = 0 }
			else { p = index(line, "/*"); if (!p) { out = out line; line = ""; break }
				out = out substr(line, 1, p - 1); line = substr(line, p + 2); incomment = 1 } }
		  if (out ~ ENVIRON["RE"]) { print "    " FILENAME ":" FNR ": " out; bad = 1 } }
		END { exit bad }' $1
}

# plain_data "FILES": every project header FILES include includes none itself
plain_data() {
	local f h bad=0
	for f in $1; do
		for h in ${DIRECT[$f]:-}; do
			if [ -n "${DIRECT[$h]:-}" ]; then
				echo "    $f -> $h, which includes ${DIRECT[$h]}"
				bad=1
			fi
		done
	done
	return $bad
}

# The folders: every directory holding sources, but tests/ and bench/.
FOLDERS=$(for f in */*.c */*.h; do [ -f "$f" ] && echo "${f%%/*}"; done | grep -Ev '^(tests|bench|build.*)$' | sort -u)
USER_FILES="flashbench.c dev.c dev.h vm.c vm.h"

# folder_of PATH: the folder a source or an included header belongs to; the
# user's files at the top are their own layers: dev (dev.c, dev.h), vm, flashbench
folder_of() {
	case $1 in
	*/*) echo "${1%%/*}" ;;
	*) local b=${1%.*}; echo "$b" ;;
	esac
}

# may_use FOLDER: what FOLDER/README's "May use:" line allows (words that are
# folders), in $MAY_USE (read in this shell: no fork)
may_use() {
	local line
	MAY_USE=
	[ -f "$1/README" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in "May use:"*) ;; *) continue ;; esac
		line=${line#May use:}
		while [[ $line == *"("*")"* ]]; do	# (comments) out
			line=${line%%"("*}${line#*")"}
		done
		MAY_USE=$line
		return 0
	done <"$1/README"
}

# uses_only "FILES" LAYER...: FILES include headers of the LAYERs only
uses_only() {
	local f h hd bad=0 allowed=" ${*:2} "
	for f in $1; do
		for h in ${DIRECT[$f]:-}; do
			case $h in */*) hd=${h%%/*} ;; *) hd=${h%.*} ;; esac	# as folder_of, without a fork
			case $allowed in *" $hd "*) ;; *) echo "    $f -> $h ($hd is not allowed)"; bad=1 ;; esac
		done
	done
	return $bad
}
# only_allowed FOLDER: FOLDER's files include headers of FOLDER, or of what its README allows
only_allowed() {
	local mine
	files mine "$1/*.c" "$1/*.h"
	may_use "$1"
	# shellcheck disable=SC2086	# the README's words
	uses_only "$mine" "$1" $MAY_USE
}

# says_what_it_owns FOLDER...: each has a README with an "Owns:" and a "May use:" line
says_what_it_owns() {
	local d bad=0
	for d in "$@"; do
		grep -q '^Owns:' "$d/README" 2>/dev/null && grep -q '^May use:' "$d/README" ||
			{ echo "    $d/README: no 'Owns:' or no 'May use:' line"; bad=1; }
	done
	return $bad
}

# only_user_files_on_top: the top level holds no source but the user's
only_user_files_on_top() {
	local f bad=0
	for f in *.c *.h; do
		[ -f "$f" ] || continue
		case " $USER_FILES " in *" $f "*) ;; *) echo "    $f: belongs in a folder"; bad=1 ;; esac
	done
	return $bad
}

PRINTS='(^|[^[:alnum:]_])(printf|fprintf|vfprintf|dprintf|puts|fputs|putchar|fputc|perror|errx?|warnx?)[[:space:]]*\('

RULE_OUT=$(mktemp) || exit 2
trap 'rm -f "$RULE_OUT"' EXIT
rule() {	# rule NAME CHECK...: the check runs in this shell, its lines into $RULE_OUT
	local name=$1 out rc
	shift
	"$@" >"$RULE_OUT"; rc=$?
	out=$(<"$RULE_OUT")
	case "$rc:$PENDING" in
	0:*" $name "*) echo "ok      $name (was pending: take it off PENDING in tests/layers.sh)"; passed=$((passed + 1)) ;;
	0:*) echo "ok      $name"; passed=$((passed + 1)) ;;
	*:*" $name "*) echo "pending $name (TODO: does not hold yet)"; printf '%s\n' "$out"; pending=$((pending + 1)) ;;
	*) echo "FAIL    $name"; printf '%s\n' "$out"; failed=$((failed + 1)) ;;
	esac
}

passed=0 failed=0 pending=0
# The device layer is the bottom: it knows nothing above it.
rule device-includes-nothing-above-it no_direct "$DEVICE" \
	vm.h 'measure/*' 'analyze/*' 'report/*' lib/json.h lib/progress.h 'safety/*' 'auto/*' 'identity/*'
# The simulated card is a device: it knows nothing of the tests run on it.
rule simulator-knows-nothing-of-the-tests no_reach "$SIM" \
	vm.h 'measure/*' 'analyze/*' 'report/*' lib/json.h lib/progress.h 'safety/*' 'auto/*' 'tests/*' '*/tests/*'
files VM_C vm.c
rule vm-prints-nothing no_match "$VM_C" "$PRINTS"
# Progress reaches the vm as a callback, not as a header.
rule vm-knows-no-progress-bar no_reach "$VM" lib/progress.h
rule measurement-renders-and-interprets-nothing no_reach "$MEASURE" 'report/*' lib/json.h 'analyze/*'
rule analysis-renders-nothing no_reach "$ANALYSIS" 'report/*' lib/json.h
rule analysis-sees-no-device no_reach "$ANALYSIS" dev.h vm.h
rule renderers-see-no-device no_reach "$RENDERERS" dev.h vm.h
# Verdicts are computed before rendering and handed over as data.
rule renderers-run-no-analysis no_reach "$RENDERERS" 'analyze/*'
files FLASHBENCH_C flashbench.c
rule flashbench-c-only-parses-and-dispatches no_direct "$FLASHBENCH_C" dev.h vm.h measure/measure.h
# Result types live in headers that include nothing of ours.
files RESULT_HEADERS analyze/analyze.h report/report.h
rule results-are-plain-data plain_data "$RESULT_HEADERS"
files ANALYZE_H analyze/analyze.h
rule commands-have-their-own-headers no_match "$ANALYZE_H" '(auto_run|analyze_cmd_file)[[:space:]]*\('

# Each device backend lives in one file (backends/dev_file.c, backends/dev_sim.c): everyone
# else asks dev.h (dev_simulated(), dev_kind(), ...), never the sim: card in
# struct dev. Pending: flashbench.c and report/report_json.c still read d->sim.
files ALL '*.c' '*.h' '*/*.c' '*/*.h'
rule backends-in-one-place no_match "$(printf '%s\n' "$ALL" | grep -Ev '^(tests/.*|backends/dev_sim\.c|sim/.*)$')" \
	'(->|\.)sim([^[:alnum:]_]|$)'

# The house: the user's files on top, every other concern in a folder that
# says what it owns and may use, and includes nothing else.
rule the-top-level-holds-only-the-users-files only_user_files_on_top
rule every-folder-says-what-it-owns-and-may-use says_what_it_owns $FOLDERS
for d in $FOLDERS; do
	rule "$d-uses-only-what-its-readme-allows" only_allowed "$d"
done
# The user's files at the top are layers too.
files DEV_FILES dev.c dev.h
rule dev-uses-only-lib uses_only "$DEV_FILES" dev lib
rule vm-uses-only-dev-and-results uses_only "$VM" vm dev results

echo "layer rules: $passed hold, $failed broken, $pending pending"
[ "$failed" -eq 0 ]
