#!/usr/bin/env bash
# The original's -O with --blocksize=--erasesize prints one row a run: a row
# that cannot fall against smaller rows of its own. Alone it is unknown (one
# row, nothing to compare) with what to rerun, never "holds"; beside another
# run's row of the same size (N=1's) it collapses at a fraction of that rate
# and holds within the noise of it. The JSON's per-run verdicts say the same.
. "$(dirname "$0")/../lib.sh"

cat > "$T/one.txt" <<'POST'
$ sudo ./flashbench -O --open-au-nr=3 --erasesize=4M --blocksize=4M /dev/sdc
4MiB    19.6M/s
POST
run "$FB" --analyze "$T/one.txt"; expect_rc 0
expect_out "^  open AUs, linear, 4MiB: unknown$"
expect_out "unknown at N=3 \(one row, nothing to compare\): rerun it with --open-au-nr=1"
! printf "%s\n" "$out" | grep -q "holds at N=" || fail "a lone one-row run was read as holding: $out"
run "$FB" --json --analyze "$T/one.txt"; expect_rc 0	# its own verdict in the document too
expect_out '"runs": \[\{"nr": 3, "verdict": "unclear"\}\]'

cat > "$T/three.txt" <<'POST'
$ sudo ./flashbench -O --open-au-nr=1 --erasesize=4M --blocksize=4M /dev/sdc
4MiB    20M/s
$ sudo ./flashbench -O --open-au-nr=3 --erasesize=4M --blocksize=4M /dev/sdc
4MiB    19.6M/s
$ sudo ./flashbench -O --open-au-nr=5 --erasesize=4M --blocksize=4M /dev/sdc
4MiB    5.1M/s
POST
run "$FB" --analyze "$T/three.txt"; expect_rc 0
expect_out "^  open AUs, linear, 4MiB: 3 \(low confidence\)$"
expect_out "holds at N=1,3; collapses at N=5; at N=5 the one 4MiB row runs at 26% of N=1's"
run "$FB" --json --analyze "$T/three.txt"; expect_rc 0
expect_out '\{"nr": 3, "verdict": "holds"\}, \{"nr": 5, "verdict": "collapsed"\}'
exit 0
