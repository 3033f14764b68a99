# Sourced by tests/it/*.sh after lib.sh: checks of the original text formats
# (doc/output-formats.md) on $out.

TIME_RE='-?[0-9]+(\.[0-9]+)?(ns|µs|ms|s)'
RATE_RE='[0-9]+(\.[0-9]+)?(B|K|M|G)/s'
SIZE_RE='[0-9]+(\.[0-9]+)?(B|KiB|MiB|GiB)'

# fmt_size BYTES: the tool's binary size format, "4MiB", "1.5MiB", "768KiB"
fmt_size() {
	awk -v b="$1" 'BEGIN {
		if (b < 1024) { printf "%dB\n", b; exit }
		if (b < 1048576) { printf "%.3gKiB\n", b / 1024; exit }
		if (b < 1073741824) { printf "%.3gMiB\n", b / 1048576; exit }
		printf "%.4gGiB\n", b / 1073741824 }'
}

# halving_sizes ERASE BLOCK: formatted sizes from ERASE halving down to >= BLOCK
halving_sizes() {
	local s=$1
	while [ "$s" -ge "$2" ]; do
		fmt_size "$s"
		s=$((s / 2))
	done
}

# to_bytes SIZE: 4M -> 4194304 (test-side, for building expectations)
to_bytes() {
	awk -v s="$1" 'BEGIN {
		m = 1; u = substr(s, length(s))
		if (u == "K" || u == "k") m = 1024; else if (u == "M") m = 1048576; else if (u == "G") m = 1073741824
		if (m > 1) s = substr(s, 1, length(s) - 1)
		printf "%d\n", s * m }'
}

# check_align_table BLOCKSIZE DEVSIZE: every line of $out is an -a row,
# boundaries descend from the smallest power of two >= DEVSIZE / 7 through
# 2^n and 3*2^(n-1) down to 2*BLOCKSIZE.
check_align_table() {
	local bs=$1 size=$2
	local line re n=0 prev=0 a
	local -a rows=()
	re=$'^align ([0-9]+)\tpre '"$TIME_RE"$'\ton '"$TIME_RE"$'\tpost '"$TIME_RE"$'\tdiff '"$TIME_RE"'$'
	[ -n "$out" ] || fail "-a printed nothing"
	while IFS= read -r line; do
		[[ $line =~ $re ]] || fail "not an -a row: '$line'"
		a=${BASH_REMATCH[1]}
		[ "$prev" = 0 ] || [ "$a" -lt "$prev" ] || fail "boundaries not descending at '$line'"
		prev=$a
		rows+=("$a")
		n=$((n + 1))
	done <<<"$out"
	[ "${rows[-1]}" = $((2 * bs)) ] || fail "last boundary ${rows[-1]}, want $((2 * bs))"
	[ "${rows[0]}" -le "$size" ] || fail "first boundary ${rows[0]} beyond the device ($size)"
	# the original's top M = 2 * bs * 2^k, the first at least size / 7, then
	# M/2 ... 2 * bs; where M is a power of two, the 3*2^(n-1) between them
	local top=${rows[0]} m=$((2 * bs))
	while [ "$m" -lt $((size / 7)) ]; do m=$((m * 2)); done
	[ "$top" = "$m" ] || fail "largest boundary $top, want $m (2 * $bs doubled up to $size / 7)"
	local -a want=()
	for ((a = top; a >= 2 * bs; a /= 2)); do
		want+=("$a")
		[ $((top & (top - 1))) = 0 ] && [ $((a / 4 * 3)) -ge $((2 * bs)) ] && [ $((a % 4)) = 0 ] &&
			want+=($((a / 4 * 3)))
	done
	[ "${rows[*]}" = "${want[*]}" ] || fail "boundaries: ${rows[*]}; want ${want[*]}"
}

# check_padded_fields LINE NFIELDS [GAP]: the original's layout, never
# truncated: each field padded to 7 bytes, then one space (the size field
# and --open-au's rate) or GAP spaces (2 for the rates of --find-fat and -p)
check_padded_fields() {
	local line=$1 nf=$2 gap=${3:-1} rest=$1 tok pad i g
	for ((i = 0; i < nf; i++)); do
		[[ $rest =~ ^([^ ]+)( +)(.*)$ ]] || fail "field $((i + 1)) missing in '$line'"
		tok=${BASH_REMATCH[1]} pad=${BASH_REMATCH[2]} rest=${BASH_REMATCH[3]}
		g=$gap; [ "$i" = 0 ] && g=1
		if [ ${#tok} -lt 7 ]; then
			[ ${#pad} = $((7 - ${#tok} + g)) ] || fail "field '$tok' not padded to 7 bytes + $g space(s) in '$line'"
		else
			[ ${#pad} = "$g" ] || fail "field '$tok' followed by ${#pad} spaces in '$line'"
		fi
		FIELDS[i]=$tok
	done
	[ -z "$rest" ] || fail "extra text '$rest' in '$line'"
}

# check_rate_table ERASE BLOCK NCOLS [GAP]: one line per size from ERASE
# halving to BLOCK, each "<size> <rate>..." with NCOLS rates, padded fields
# (GAP: the spaces after a rate, 1 for --open-au, 2 for --find-fat).
check_rate_table() {
	local e=$1 b=$2 nc=$3 gap=${4:-1} line i=0 c
	local -a sizes
	mapfile -t sizes < <(halving_sizes "$e" "$b")
	local nlines
	nlines=$(printf '%s\n' "$out" | wc -l)
	[ "$nlines" = "${#sizes[@]}" ] || fail "$nlines lines, want ${#sizes[@]} (${sizes[*]}): $out"
	[[ $out != *$'\t'* ]] || fail "rate table contains tabs"
	while IFS= read -r line; do
		FIELDS=()
		check_padded_fields "$line" $((nc + 1)) "$gap"
		[ "${FIELDS[0]}" = "${sizes[i]}" ] || fail "line $((i + 1)) size '${FIELDS[0]}', want '${sizes[i]}'"
		for ((c = 1; c <= nc; c++)); do
			[[ ${FIELDS[c]} =~ ^$RATE_RE$ ]] || fail "'${FIELDS[c]}' is not a rate in '$line'"
		done
		i=$((i + 1))
	done <<<"$out"
}

# fill_random FILE SIZE_MIB: a file with known (random) contents
fill_random() {
	[ -x "${UNIT_DIR:-}/random_bytes" ] && "$UNIT_DIR/random_bytes" $(($2 * 1048576)) >"$1" ||
		head -c $(($2 * 1048576)) /dev/urandom >"$1"
}

# fingerprint FILE: contents checksum and mtime (ns)
fingerprint() {
	echo "$(cksum <"$1") $(stat -c %.9Y "$1")"
}

# use_loop FILE [losetup options]: sets LOOP (FILE must be in $T)
use_loop() {
	LOOP=$(make_loop "$@") || fail "cannot attach a loop device over $1"
}

# use_zram SIZE: sets ZRAM
use_zram() {
	ZRAM=$(make_zram "$1") || fail "cannot set up zram"
}

# use_shm_file NAME SIZE_MIB: a zero-filled regular file on tmpfs (fast
# writes), removed on exit; sets SHMFILE. Not for loop devices (use $T).
use_shm_file() {
	if [ -z "${SHM:-}" ]; then
		SHM=$(mktemp -d /dev/shm/fbtest.XXXXXX) || fail "no /dev/shm"
		trap '_cleanup; rm -rf "$SHM"' EXIT
	fi
	truncate -s "$2M" "$SHM/$1" || fail "cannot create $SHM/$1"
	SHMFILE=$SHM/$1
}

# check_interval ORDER: $out is -i output: size rows 512*2^i, the fit line
# (or a "no fit: why" line), then one overhead line per size ("n/a" with no
# fit). The same lines whatever the timing.
check_interval() { # ORDER
	local -a lines
	mapfile -t lines <<<"$out"
	local n=0 i line ovh='-?[0-9.e+-]+'
	while [[ ${lines[n]:-} =~ ^([0-9]+)\ bytes:\ min\ ($TIME_RE)\ avg\ ($TIME_RE)\ max\ ($TIME_RE):\ [0-9.e+]+\ MB/s$ ]]; do
		[ "${BASH_REMATCH[1]}" = $((512 << n)) ] || fail "row $n is ${BASH_REMATCH[1]} bytes, want $((512 << n))"
		n=$((n + 1))
	done
	[ "$n" = "$1" ] || fail "$n size rows for order $1: $out"
	if [[ ${lines[n]:-} =~ ^no\ fit:\ .+$ ]]; then
		ovh='n/a'
	else
		[[ ${lines[n]:-} =~ ^[0-9.e+]+\ MB/s,\ $TIME_RE\ access\ time$ ]] || fail "no fit line after the rows: ${lines[n]:-}"
	fi
	for ((i = 0; i < n; i++)); do
		line=${lines[n + 1 + i]:-}
		[[ $line =~ ^bytes\ $((512 << i)),\ time\ [0-9]+\ overhead\ $ovh$ ]] || fail "overhead line $i: '$line'"
	done
	[ ${#lines[@]} = $((2 * n + 1)) ] || fail "${#lines[@]} lines, want $((2 * n + 1))"
}

# check_program [SMALLEST]: $out is the original's -p table: one line per
# chunk size from 2MiB halving down to SMALLEST (512), each the size and 8
# unlabelled rates, padded fields (two spaces after a rate), nothing else.
check_program() { # [SMALLEST]
	local -a sizes
	mapfile -t sizes < <(halving_sizes $((2 << 20)) "${1:-512}")
	local nlines line i=0 c
	nlines=$(printf '%s\n' "$out" | wc -l)
	[ "$nlines" = "${#sizes[@]}" ] || fail "$nlines lines, want ${#sizes[@]} (${sizes[*]}): $out"
	while IFS= read -r line; do
		FIELDS=()
		check_padded_fields "$line" 9 2
		[ "${FIELDS[0]}" = "${sizes[i]}" ] || fail "line $((i + 1)) size '${FIELDS[0]}', want '${sizes[i]}'"
		for ((c = 1; c <= 8; c++)); do
			[[ ${FIELDS[c]} =~ ^$RATE_RE$ ]] || fail "'${FIELDS[c]}' is not a rate in '$line'"
		done
		i=$((i + 1))
	done <<<"$out"
}

# check_scatter LINES STEP: $out is LINES "%f\t%f" lines, offsets STEP bytes apart.
check_scatter() { # LINES STEP_BYTES
	local bad
	bad=$(printf '%s\n' "$out" | awk -v want="$1" -v step="$2" '
		function bad(why) { print "line " NR ": " why; failed = 1; exit }
		!/^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]\t[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { bad("not a scatter line: " $0) }
		{ split($0, f, "\t"); o = f[1] * 1048576; w = (NR - 1) * step }
		o < w - 1 || o > w + 1 { bad("offset " f[1] " MiB, want " w " bytes") }
		!(f[2] > 0 && f[2] < 1000) { bad("time " f[2] " ms") }
		END { if (!failed && NR != want) print NR " lines, want " want }')
	[ -z "$bad" ] || fail "$bad"
}
