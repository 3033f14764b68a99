# Sourced by the tests that read the original's tables off a simulated card
# (tests/it/sim-*.sh), after tests/lib.sh: the rates of $out as numbers.
# rates: one rate per row of an --open-au table, bytes per second, in order;
# fat_row N: the rates of the Nth row of a --find-fat table (from 1), one line;
# diff_at SIZE: the diff of the -a row of boundary SIZE (bytes), in ns;
# ge A B [F]: true when A >= F * B (F defaults to 1).
_rate_awk='function rate(x,  u, v) { v = x + 0; u = substr(x, length(x) - 2, 1)
	return u == "K" ? v * 1e3 : u == "M" ? v * 1e6 : u == "G" ? v * 1e9 : v }
function us(x,  v) { v = x + 0; return x ~ /ms$/ ? v * 1e6 : x ~ /µs$/ ? v * 1e3 : x ~ /ns$/ ? v : v * 1e9 }'
rates() { printf '%s\n' "$out" | awk "$_rate_awk"' NF >= 2 { print rate($2) }'; }
fat_row() {
	printf '%s\n' "$out" | awk "$_rate_awk"' NF >= 2 && ++n == '"$1"' {
		s = ""; for (i = 2; i <= NF; i++) s = s (i > 2 ? " " : "") rate($i); print s }'
}
diff_at() { printf '%s\n' "$out" | awk "$_rate_awk"' $1 == "align" && $2 == '"$1"' { print us($NF) }'; }
ge() { awk -v a="$1" -v b="$2" -v f="${3:-1}" 'BEGIN { exit !(a >= f * b) }'; }
# row I (from 1) of a rates list
nth() { printf '%s\n' "$1" | sed -n "$2p"; }
