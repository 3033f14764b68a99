#!/usr/bin/env bash
# `flashbench --analyze POST` on the five mailing-list posts in tests/data/seeds
# (line breaks lost, prompts and comments mixed in) prints, per card, what the
# experts concluded there: erase size, page size, open AUs, FAT area.
. "$(dirname "$0")/../lib.sh"
S="$TESTS_DIR/data/seeds"

# card line, then the verdict lines up to the next card
card() { printf '%s\n' "$out" | awk -v n="card $1 of" 'index($0, n) == 1 {on = 1; print; next} /^card /{on = 0} on'; }
has() { printf '%s\n' "$2" | grep -qF -- "$3" || fail "$1: no '$3' in: $2"; }

run "$FB" --analyze "$S/000_52b01d750a328571.txt"; expect_rc 0
c=$(card 1); has SU04G "$c" "erase size: 2MiB"; has SU04G "$c" "open AUs, linear, 2MiB: 9 (high"
c=$(card 2); has SA04G "$c" "erase size: 4MiB (high"; has SA04G "$c" "page size: 8KiB"
has SA04G "$c" "open AUs, linear, 4MiB: 1 (high"; has SA04G "$c" "open AUs, random, 4MiB: 0 ("
c=$(card 3); has Samsung "$c" "erase size: 2MiB (medium"; has Samsung "$c" "page size: 8KiB"
has Samsung "$c" "open AUs, linear, 2MiB: 2 ("
c=$(card 4); has Amazon "$c" "erase size: 2MiB (high"; has Amazon "$c" "page size: 8KiB"
c=$(card 5); has SDC10 "$c" "erase size: 2MiB (high"; has SDC10 "$c" "page size: 8KiB"
has SDC10 "$c" "open AUs, linear, 2MiB: 1 ("; has SDC10 "$c" "open AUs, random, 2MiB: 0 ("
c=$(card 6); has PNY "$c" "erase size: 6MiB"; has PNY "$c" "open AUs, linear, 6MiB: 2 ("
has PNY "$c" "FAT area: none"

run "$FB" --analyze "$S/001_a295502c4f747fc0.txt"; expect_rc 0
expect_out "erase size: 512KiB \((medium|low)"
expect_out "open AUs, linear, 512KiB: at least 1[78]"

run "$FB" --analyze "$S/002_671fd5f53c81ec54.txt"; expect_rc 0
expect_out "erase size: 4MiB \(high"
expect_out "page size: 8KiB"
expect_out "FAT area: 2 erase blocks, 8MiB"

run "$FB" --analyze "$S/003_b2663e3d0cd85929.txt"; expect_rc 0
expect_out "erase size: 2MiB \(high"
expect_out "open AUs, linear, 2MiB: 5 \(high"
expect_out "open AUs, random, 2MiB: 5 \("

run "$FB" --analyze "$S/004_5705458fcc3c7d7f.txt"; expect_rc 0
expect_out "erase size: 16MiB \(high"
expect_out "open AUs, linear, 16MiB: 11 \(high"
expect_out "open AUs, random, 16MiB: 11 \("
expect_out "FAT area: none"
exit 0
