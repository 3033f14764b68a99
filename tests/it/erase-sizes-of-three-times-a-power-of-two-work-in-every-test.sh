#!/usr/bin/env bash
# -e 1.5M, 3M, 6M, 12M: -O and -f list 6MiB 3MiB 1.5MiB 768KiB ...;
# -a, -s and -i use no erase size: as the original they run without it,
# saying so in one line.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 128; f=$SHMFILE
for e in 1.5M 3M 6M 12M; do
	eb=$(to_bytes "$e")
	run "$FB" -O -e "$e" -b $((eb / 16)) "$f"
	expect_rc 0
	check_rate_table "$eb" $((eb / 16)) 1
	run "$FB" --open-au --random --open-au-nr=3 -e "$e" -b $((eb / 4)) "$f"
	expect_rc 0
	check_rate_table "$eb" $((eb / 4)) 1
	run "$FB" -f --fat-nr=3 -e "$e" -b $((eb / 8)) "$f"
	expect_rc 0
	check_rate_table "$eb" $((eb / 8)) 3 2
	for t in "-a -c 1" "-s --scatter-order=2" "-i --interval-order=2"; do
		run "$FB" $t -e "$e" "$f"
		expect_rc 0
		[[ $errout =~ ^flashbench:\ --erasesize=$e:\ no\ effect\ on\ --(align|scatter|interval)\ \(accepted,\ as\ the\ original\ did\)$ ]] ||
			fail "$t -e $e: stderr '$errout', want one line that -e has no effect"
	done
done
