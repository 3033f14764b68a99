#!/usr/bin/env bash
# `make mutate`: the mutation score. Each mutant below is one small bug: a
# substitution in one line of one file. It is applied to a copy of the tree
# (the working tree is never touched), the copy is rebuilt, and the tests
# that should notice the bug run against it; the first that fails kills it.
# Prints "killed", "SURVIVED" or "ERROR" per mutant, then the score.
# Exit 0 only if every mutant chosen was killed.
#
#   bench/mutate.sh [all | ci | NAME...]   (make mutate MUTANTS=ci)
#   bench/mutate.sh --list
#   bench/mutate.sh --check     (only: does each mutant still apply?)
#
# "ci" is the fixed handful .ci/run runs (fast ones, killed by unit tests or a
# short integration test): one in each folder (and in vm.c, dev.c and
# flashbench.c), so that a change anywhere that blinds its tests shows in CI. A mutant whose line is gone or no longer unique
# (someone changed the code) is an ERROR, never "killed": update its FROM.
# So is one that no longer builds, and one whose tests fail or skip without
# the mutant (they cannot judge it).
#
# Adding a mutant: one line `m NAME LAYER FILE FROM TO TESTS [ci]`.
#   FROM  text found on exactly one line of FILE (keep it short, but unique)
#   TO    what replaces FROM on that line (the rest of the line stays)
#   TESTS space-separated: test_NAME (a unit test in build/tests) or the name
#         of a tests/it script without .sh; the cheapest that should kill
#         it first. "all" runs the whole `make check`.
# Choose a line that states a rule a test's name promises (not one that
# only moves text around), and one that other work is unlikely to rewrite.
# A new feature adds its mutants here.
set -u
{	# read whole before it runs: editing this file during a run cannot derail it
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

NAMES=() LAYERS=() FILES=() FROMS=() TOS=() TESTS=() CIS=()
m() {
	NAMES+=("$1") LAYERS+=("$2") FILES+=("$3") FROMS+=("$4") TOS+=("$5") TESTS+=("$6") CIS+=("${7:-}")
}

# ---- measurement (measure/*): the original's I/O and the figures from it ----
m align-diff-halves-the-sum measurement measure/measure.c \
	'row->on_ns - (row->pre_ns + row->post_ns) / 2;' 'row->on_ns - (row->pre_ns + row->post_ns) / 3;' \
	'json-of-every-test-on-a-sim-card-parses-and-holds-the-text-output-data sim-align-diff-is-high-from-the-erase-size-up-and-lower-below'
m align-on-block-straddles-at-its-middle measurement measure/measure.c \
	'align_sweep(prog, size, place, n, -bs / 2),' 'align_sweep(prog, size, place, n, -bs / 4),' \
	'align-reads-seven-places-pre-then-on-then-post-per-try-on-a-simulated-card'
m align-top-is-size-over-seven measurement measure/measure.c \
	'while (top < size / ALIGN_POSITIONS && top <= UINT64_MAX / 2)' 'while (top < size / ALIGN_POSITIONS / 2 && top <= UINT64_MAX / 2)' \
	'align-prints-the-full-table-on-a-regular-file' ci
m align-has-three-times-power-of-two-rows measurement measure/measure.c \
	'add_boundary(a / 4 * 3, bs, lbs, out, &n, max);' ';' \
	'align-prints-the-full-table-on-a-regular-file'
m open-au-writes-0x5a measurement measure/measure_rates.c \
	'vm_op(prog, VM_WRITE_5A, 0, 0, NULL);' 'vm_op(prog, VM_WRITE_ONES, 0, 0, NULL);' \
	'open-au-writes-0x5a-to-erase-blocks-twelve-erase-sizes-apart-in-a-scrambled-order'
m find-fat-erase-blocks-are-adjacent measurement measure/measure_rates.c \
	'(int)p->fat_nr, 1, 0, p->erasesize);' '(int)p->fat_nr, 1, 0, 2 * p->erasesize);' \
	'find-fat-writes-each-leading-erase-block-whole-per-block-size'
m rate-rows-go-down-to-the-block-size measurement measure/measure_rates.c \
	'bs >= p->blocksize && n < 64; bs /= 2)' 'bs > p->blocksize && n < 64; bs /= 2)' \
	'open-au-prints-padded-rate-lines-on-a-regular-file'
m program-rate-is-the-mean-of-the-chunks-rates measurement measure/measure_rates.c \
	'return vm_op(prog, VM_LEN_FIXED, (int64_t)bs, 0, vm_op(prog, VM_AVG, 0, 0, chunks));' \
	'return vm_op(prog, VM_LEN_FIXED, (int64_t)bs, 0, vm_op(prog, VM_MIN, 0, 0, chunks));' \
	'original-command-lines-do-the-originals-io-and-print-its-output-on-the-recorded-cases'
m program-region-is-at-16mib measurement measure/measure.c \
	'return p->offset_set ? p->offset : PROGRAM_OFFSET;' 'return p->offset_set ? p->offset : PROGRAM_OFFSET / 2;' \
	'program-writes-and-reads-only-its-4mib-region-at-16mib-in-the-original-order'
m program-chunks-go-down-to-512-bytes measurement measure/measure.c \
	'return d->lbs > 512 ? d->lbs : 512;' 'return d->lbs > 1024 ? d->lbs : 1024;' \
	'program-writes-and-reads-only-its-4mib-region-at-16mib-in-the-original-order program-prints-a-rate-per-pattern-and-block-size-on-a-regular-file'
m interval-access-time-is-the-fits-intercept measurement measure/measure_read.c \
	'r->fit_access_ns = (int64_t)((sy - slope * sx) / n);' 'r->fit_access_ns = (int64_t)((sy - slope * sx) / (n + 1));' \
	'original-command-lines-do-the-originals-io-and-print-its-output-on-the-recorded-cases'

# ---- the VM (vm.c): generators and reductions ----
m vm-min-keeps-the-smallest vm vm.c \
	'r->ns < f->best.ns))' 'r->ns > f->best.ns))' \
	'test_vm' ci
m vm-average-divides-by-the-count vm vm.c \
	'r.ns = f->ns / f->n;' 'r.ns = f->ns / (f->n + 1);' \
	'test_vm'
m vm-rate-is-bytes-per-second vm vm.c \
	'return (double)(bytes * 1000000000u / (uint64_t)ns);' 'return (double)(bytes * 1000000u / (uint64_t)ns);' \
	'test_vm'
m vm-first-failure-is-kept vm vm.c \
	'if (c->nfailures++ == 0)' 'if (c->nfailures++ == 1)' \
	'test_vm io-error-mid-test-is-reported-with-its-offset'
m vm-lfsr-stays-in-range vm vm.c \
	'if (o->v < o->n)' 'if (o->v <= o->n)' \
	'test_orders'
m vm-lfsr-starts-from-0xace1 vm vm.c \
	'return (uint32_t)(0xace1u & ((1ull << bits) - 1));' 'return (uint32_t)(0xace3u & ((1ull << bits) - 1));' \
	'test_orders'
m vm-lfsr-of-8-bits-taps-the-originals-polynomial vm vm.c \
	'[8] = { 6, 5, 4 }' '[8] = { 6, 5, 3 }' \
	'test_orders'
m vm-order-has-8-bits-at-least vm vm.c \
	'o->bits = clamp_bits(b < 8 ? 8 : b);' 'o->bits = clamp_bits(b < 9 ? 9 : b);' \
	'test_orders'
m vm-order-ends-with-place-0 vm vm.c \
	'return i % o->n == o->n - 1 ? 0 : next_below(o);' 'return i % o->n == 0 ? 0 : next_below(o);' \
	'test_orders'
m vm-scatter-order-starts-with-place-0 vm vm.c \
	'return i % o->n == 0 ? 0 : next_below(o);' 'return i % o->n == 1 ? 0 : next_below(o);' \
	'test_orders'

# ---- the device layer (dev.c, backends/) ----
m dev-counts-bytes-read device dev.c \
	'd->bytes_read += read;' 'd->bytes_read += read / 2;' \
	'test_dev' ci
m dev-refuses-a-range-past-the-end device dev.c \
	'return len && off <= d->size && len <= d->size - off &&' 'return len && off <= d->size &&' \
	'test_dev'
m class-writes-without-o-sync commands cmd/run.c \
	'o->action == ACT_CLASS ? DEV_NOSYNC : 0;' '0;' \
	'class-writes-without-o-sync-and-flushes-the-restored-area-once'
m file-bracket-holds-only-the-io device backends/dev_file.c \
	'int r = dev_fd_transfer(d->fd, buf, len, off, write);' 'int r = (fsync(d->fd), dev_fd_transfer(d->fd, buf, len, off, write));' \
	'test_timing_bracket' ci
m dev-counts-saving-as-saving device dev.c \
	'dev_count(d, IO_SAVE, len, 0);' 'dev_count(d, IO_VERIFY, len, 0);' \
	'test_dev capacity-and-auto-count-every-byte-they-move-as-the-device-counts-it'
m sim-realtime-lasts-its-share-of-the-modelled-time device backends/dev_sim.c \
	'owed += ns * pct / 100;' 'owed += ns * pct / 1000;' \
	'progress-never-pauses-two-seconds-during-auto-and-capacity-on-a-terminal'
m idle-sleep-goes-on-after-a-signal-without-a-stop device dev.c \
	'== EINTR &&' '== EINTR && 0 &&' \
	'test_dev'
m file-discard-punches-the-range device backends/dev_file.c \
	'if (fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0)' \
	'if (fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len / 2) < 0)' \
	'discard-clears-the-range-and-nothing-else-on-a-regular-file'

# ---- the simulated card (sim/*): page cost, and cards as they are made today ----
m sim-a-write-below-a-page-costs-the-page sim sim/sim.c \
	'return (double)pages_touched(off, len, unit) * transfer(unit, bps);' \
	'return (double)len / (double)unit * transfer(unit, bps);' \
	'sim-writes-below-the-page-size-lose-throughput' ci
m slc-cache-ends-at-its-size sim sim/sim_today.c \
	's->slc_used += (double)n;' 's->slc_used += (double)n / 2;' \
	'test_sim sim-cache-cards-show-no-collapse-inside-the-cache-and-a-cliff-past-it'
m ram-buffer-makes-the-host-wait-when-full sim sim/sim_today.c \
	'if (s->buf_bytes > cap)' 'if (s->buf_bytes > 2 * cap)' \
	'test_sim sim-buffered-cards-write-the-first-rows-after-a-pause-at-bus-speed'
m idle-gc-tidies-after-the-pause sim sim/sim.c \
	'(double)ns >= gc_after)' '(double)ns >= 100 * gc_after)' \
	'test_sim'
m hidden-geometry-has-no-erase-block-step sim sim/sim.c \
	'if (!s->cfg.today.hidden && crosses(off, len, s->cfg.erasesize))' 'if (crosses(off, len, s->cfg.erasesize))' \
	'test_sim sim-card-without-visible-geometry-shows-no-align-step-and-no-collapse'

# ---- safety (safety/*, the guards in flashbench.c) ----
m refuses-a-mounted-device safety safety/safety_target.c \
	'if (mountinfo_each(src->mountinfo, family_mount, ms)) {' 'if (0 && mountinfo_each(src->mountinfo, family_mount, ms)) {' \
	'test_safety open-au-refuses-a-loop-device-whose-ext4-filesystem-is-mounted'
m refuses-a-read-only-device safety safety/safety_target.c \
	'if (r == 0 && is_read_only(&fam.m[0])) {' 'if (r == 0 && 0 && is_read_only(&fam.m[0])) {' \
	'test_safety open-au-refuses-a-read-only-loop-device-in-one-line'
m refuses-the-device-as-output safety safety/safety_target.c \
	'if (S_ISREG(dev.st_mode) && dev.st_dev == out->st_dev && dev.st_ino == out->st_ino) {' \
	'if (0 && S_ISREG(dev.st_mode) && dev.st_dev == out->st_dev && dev.st_ino == out->st_ino) {' \
	'test_safety outputs-that-are-the-device-or-back-it-are-refused-before-any-io'
m restore-writes-back-every-chunk safety safety/preserve.c \
	'e = full_io(pv.fd, (void *)src, c, off, true);' 'e = full_io(pv.fd, (void *)src, c / 2, off, true);' \
	'preserve-and-ctrl-c-during-open-au-leave-the-loop-device-unchanged'
m a-damaged-backup-is-not-written-back safety safety/preserve.c \
	'if (pv.backup_fd >= 0 && (r = backup_verify_data(pv.backup_fd, &pv.meta, pv.chunk)) != 0) {' \
	'if (0 && pv.backup_fd >= 0 && (r = backup_verify_data(pv.backup_fd, &pv.meta, pv.chunk)) != 0) {' \
	'a-backup-damaged-during-the-run-is-not-written-back'
m restore-writes-are-counted-as-restoring safety safety/preserve.c \
	'dev_count(d, IO_RESTORE, 0, restored_bytes);' 'dev_count(d, IO_MEASURE, 0, restored_bytes);' \
	'capacity-and-auto-count-every-byte-they-move-as-the-device-counts-it'
m verify-reads-are-counted-as-verifying safety safety/preserve.c \
	'dev_count(d, IO_VERIFY, verified_bytes, 0);' 'dev_count(d, IO_SAVE, verified_bytes, 0);' \
	'capacity-and-auto-count-every-byte-they-move-as-the-device-counts-it'
m backup-checksum-covers-the-header safety safety/backup.c \
	'uint64_t sum = h->version >= 2 ? h->header_sum : CHECKSUM_INIT, at = h->data_offset;' \
	'uint64_t sum = CHECKSUM_INIT, at = h->data_offset;' \
	'test_safety a-backup-whose-span-table-was-swapped-shifted-or-bit-flipped-is-refused-before-any-write'
m old-backup-checksum-covers-the-data-only safety safety/backup.c \
	'uint64_t sum = h->version >= 2 ? h->header_sum : CHECKSUM_INIT, at = h->data_offset;' \
	'uint64_t sum = h->header_sum, at = h->data_offset;' \
	'test_safety' ci
m backup-announces-each-of-its-spans safety safety/backup.c \
	'return ended && h->spans && h->nspans == seen && h->size && h->lbs && h->data_offset ? 0' \
	'return ended && h->spans && h->size && h->lbs && h->data_offset ? 0' \
	'test_safety'
m backup-is-removed-after-a-verified-restore safety safety/backup.c \
	'if (unlink(file) == 0)' 'if (0)' \
	'test_safety preserve-removes-its-backup-after-a-verified-restore-so-the-command-can-run-again'
m partial-backup-is-known-as-one safety safety/backup.c \
	'} else if (f && being_written(f)) {' '} else if (0) {' \
	'test_safety a-partial-backup-left-by-a-run-stopped-while-saving-is-removed-and-said'
m old-backup-goes-back-only-with-force safety safety/restore.c \
	'if (h->version < 2 && !force) {' 'if (h->version < 2 && 0) {' \
	'test_safety'
m restored-backup-goes-back-only-with-force safety safety/restore.c \
	'if (h->restored && !force) {' 'if (h->restored && 0) {' \
	'test_safety a-restored-backup-is-removed-and-never-offered-again'
m a-signal-exits-128-plus-its-number safety safety/signals.c \
	'return first_signal ? 128 + first_signal : 0;' 'return first_signal ? 127 + first_signal : 0;' \
	'test_safety'
m mountinfo-reads-the-minor-number safety safety/mounts.c \
	'm->minor = (unsigned int)min;' 'm->minor = (unsigned int)maj;' \
	'test_safety'
m busy-names-the-exclusive-holder safety safety/busy.c \
	'snprintf(msg, n, "%s is busy: %s has it open exclusively" REFUSAL, path, who);' \
	'snprintf(msg, n, "%s is busy: %s has it open exclusively" REFUSAL, path, path);' \
	'open-au-explains-a-loop-device-held-open-exclusively-elsewhere'
m a-usage-error-names-the-option safety flashbench.c \
	'run_usage_error("--%s%s%s: --%s %s", option_name(c), *o->given[c] ? "=" : "",' \
	'run_usage_error("%.0s%.0s%.0s--%s %s", option_name(c), *o->given[c] ? "=" : "",' \
	'capacity-bad-input-is-one-line-exit-2-and-no-io' ci

# ---- identity (identity/*): the card's registers ----
m sd-cid-year-counts-from-2000 identity identity/sd_registers.c \
	'c->year = 2000 + (unsigned int)reg_bits(r, 16, 19, 12);' 'c->year = 2001 + (unsigned int)reg_bits(r, 16, 19, 12);' \
	'test_identity' ci
m mmc-cid-month-is-bits-15-to-12 identity identity/sd_registers.c \
	'c->month = (unsigned int)reg_bits(r, 16, 15, 12);' 'c->month = (unsigned int)reg_bits(r, 16, 15, 13);' \
	'test_identity'
m sdhc-csd-size-is-bits-69-to-48 identity identity/sd_registers.c \
	'c->c_size = (uint32_t)reg_bits(r, 16, 69, 48);' 'c->c_size = (uint32_t)reg_bits(r, 16, 69, 49);' \
	'test_identity'

# ---- commands (cmd/*) ----
m rows-go-out-as-they-are-measured commands cmd/run.c \
	'fflush(rs->f);' ';' \
	'rows-appear-as-measured-and-never-mix-with-the-progress-line'
m analyze-reads-standard-input-for-a-dash commands cmd/analyze_cmd.c \
	'FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");' 'FILE *f = fopen(path, "rb");' \
	'test_analyze_cmd analyze-reads-standard-input-given-a-dash' ci

# ---- the results' words (results/*) ----
m a-run-that-held-is-named-holds results results/results_names.c \
	'case RUN_HOLDS: return "holds";' 'case RUN_HOLDS: return "held";' \
	'auto-json-is-one-document-with-verdicts-cost-and-raw-data' ci

# ---- analysis (analyze/*) ----
m erase-size-rule-starts-at-128k analysis analyze/analyze_align_levels.c \
	'if (l->lv[k].at >= ERASE_MIN && l->lv[k].at <= ERASE_MAX' 'if (l->lv[k].at > ERASE_MIN && l->lv[k].at <= ERASE_MAX' \
	'auto-confidence-is-calibrated-on-a-matrix-of-cards-with-real-card-phenomena'
m open-au-collapse-is-a-drop-per-halving analysis analyze/analyze.h \
	'#define STEP_COLLAPSE 0.75' '#define STEP_COLLAPSE 0.3' \
	'test_analyze analyze-finds-the-geometry-in-saved-runs-on-simulated-cards'
m erase-step-ratio analysis analyze/analyze.h \
	'#define STEP_RATIO 1.5' '#define STEP_RATIO 3.0' \
	'test_analyze analyze-reaches-the-experts-conclusions-on-each-seed-post' ci

# ---- renderers (report/*, lib/units.c) ----
m json-align-rows-carry-positions renderers report/report_json.c \
	'jw_int(w, "positions", row->positions);' ';' \
	'every-document-kind-carries-every-field-the-schema-requires'
m json-on-is-the-on-time renderers report/report_json.c \
	'ns_or_null(w, "on_ns", row->on_ns, row->failed);' 'ns_or_null(w, "on_ns", row->pre_ns, row->failed);' \
	'json-of-every-test-on-a-sim-card-parses-and-holds-the-text-output-data'
m text-fields-are-padded-to-seven renderers report/report_text.c \
	'fprintf(f, "%-7s ", s);' 'fprintf(f, "%-6s ", s);' \
	'open-au-prints-padded-rate-lines-on-a-regular-file' ci
m svg-scatter-points-hold-their-values renderers report/report_svg.c \
	'series_add(&c->s[0], r->points[i].off, r->points[i].min_ns, r->points[i].failed);' \
	'series_add(&c->s[0], r->points[i].off, r->points[i].min_ns / 2, r->points[i].failed);' \
	'plot-draws-a-well-formed-svg-with-every-data-point-for-align-open-au-find-fat-and-scatter'
m json-names-each-purpose-as-counted renderers report/report_traffic.c \
	'static const char *const purpose_key[IO_PURPOSES] = { "measure", "save", "restore", "verify" };' \
	'static const char *const purpose_key[IO_PURPOSES] = { "restore", "save", "measure", "verify" };' \
	'capacity-and-auto-count-every-byte-they-move-as-the-device-counts-it'
m size-suffixes-are-binary renderers lib/units.c \
	'uint64_t m = 1ull << (10 * (u - units));' 'uint64_t m = 1ull << (9 * (u - units));' \
	'test_units'
m json-escapes-every-control-character renderers lib/json.c \
	'if (c < 0x20 || c == 0x7f) {' 'if (c < 0x1f || c == 0x7f) {' \
	'test_json' ci
m times-switch-to-ms-at-1000us renderers lib/units.c \
	'{ 1e3, 3, "µs" }, { 1e6, 3, "ms" }, { 1e9, 4, "s" },' '{ 1e3, 3, "µs" }, { 1e7, 3, "ms" }, { 1e9, 4, "s" },' \
	'test_units'

m svg-coinciding-series-share-a-legend-entry renderers report/report_svg_draw.c \
	'#define COINCIDE_PX 2.0' '#define COINCIDE_PX 0.0' \
	'test_svg'
m svg-mark-labels-stay-off-the-data renderers report/report_svg_draw.c \
	'!box_is_free(o, &b, taken, *ntaken, x))' '0)' \
	'open-au-plot-marks-where-the-rate-collapses'
m svg-noise-band-widens-the-axis renderers report/report_svg.c \
	'c->y.min_span = BAND_SPAN * half;' 'c->y.min_span = 0;' \
	'align-plot-of-a-device-without-steps-draws-its-noise-floor-as-a-band'
m svg-random-runs-are-squares renderers report/report_svg.c \
	'int cycle = rank / SVG_COLORS, shape = 2 * cycle + random;' 'int cycle = rank / SVG_COLORS, shape = 2 * cycle;' \
	'plot-draws-a-well-formed-svg-with-every-data-point-for-align-open-au-find-fat-and-scatter'
m class-plot-goes-log-across-decades renderers checks/class_plot.c \
	'return lo > 0 && hi >= DECADE * lo;' 'return false;' \
	'class-plot-puts-each-promise-beside-its-measurement'

# ---- advice (auto/advice.c) ----
m ext4-stride-is-one-page advice auto/advice.c \
	'a->stride = page >= 4096 ? page / 4096 : 1;' 'a->stride = page >= 4096 ? page / 2048 : 1;' \
	'auto-json-is-one-document-with-verdicts-cost-and-raw-data'
m ext4-stripe-is-one-erase-block advice auto/advice.c \
	'a->stripe_width = a->au / 4096 ? a->au / 4096 : 1;' 'a->stripe_width = a->au / 8192 ? a->au / 8192 : 1;' \
	'auto-json-is-one-document-with-verdicts-cost-and-raw-data'
m partitions-start-on-an-erase-block advice auto/advice.c \
	'a->start = a->unit;' 'a->start = a->unit / 2;' \
	'test_auto auto-json-is-one-document-with-verdicts-cost-and-raw-data'

# ---- capacity (checks/capacity.c) ----
m a-genuine-card-is-genuine capacity checks/capacity.c \
	'} else if (r->real_hi < r->addressable) {' '} else if (r->real_hi <= r->addressable) {' \
	'capacity-finds-every-simulated-fake-with-its-real-size-and-flags-no-genuine-card'
m a-wrapping-fake-is-found-where-it-wraps capacity checks/capacity.c \
	'r->real_lo = r->real_hi = c->min_alias;' 'r->real_lo = r->real_hi = c->min_alias * 2;' \
	'capacity-finds-every-simulated-fake-with-its-real-size-and-flags-no-genuine-card'
m labels-are-compared-whole capacity checks/capacity.c \
	'if (memcmp(p, c->expect, c->u) != 0)' 'if (memcmp(p, c->expect, 64) != 0)' \
	'test_capacity' ci

# ---- --class (checks/class*.c) ----
m short-outranks-unknown-within-a-claim class checks/class_verdict.c \
	'} else if (q->verdict == CV_UNKNOWN && c->verdict == CV_MET) {' '} else if (q->verdict == CV_UNKNOWN) {' \
	'test_class'
m short-outranks-unknown-across-claims class checks/class_verdict.c \
	'else if (r->claims[i].verdict == CV_UNKNOWN && r->verdict == CV_MET)' 'else if (r->claims[i].verdict == CV_UNKNOWN)' \
	'test_class'

# ---- --auto's decisions and words (auto/*) ----
m replicas-that-disagree-are-no-agreement auto auto/auto_verdicts.c \
	'n += run_counts(s, &s->runs[i], nr, random) && s->runs[i].verdict == v;' \
	'n += run_counts(s, &s->runs[i], nr, random);' \
	'auto-gives-a-count-confidence-only-where-two-replicas-agree-at-n-and-n-plus-one'
m fast-writes-back-without-a-pause-are-no-buffer auto auto/auto_cache.c \
	'|| tail_from(t, end, n, steady, false) >= 0)' ')' \
	'test_auto'
m a-buffer-is-told-by-its-drain auto auto/auto_cache.c \
	'return auto_drain_agrees(took, idle, fast_ns, slow_ns);' 'return false;' \
	'test_auto'
m no-drain-look-on-small-erase-blocks auto auto/auto_cache.c \
	'bool drained = b && s->erasesize > BUFFER_OLD_ERASE && drain_confirms' 'bool drained = b && drain_confirms' \
	'test_auto'
m a-buffer-holds-less-than-went-in-fast auto auto/auto_state.c \
	'return (uint64_t)((double)fast * (1 - slow_rate / fast_rate));' 'return fast;' \
	'test_auto'
m a-buffer-blurs-by-what-it-holds auto auto/auto_state.c \
	'uint64_t held = auto_buffer_holds(s->buffer_bytes, s->buffer_fast_rate, s->buffer_slow_rate);' 'uint64_t held = s->buffer_bytes;' \
	'test_auto'
m a-drain-takes-what-the-idle-drained auto auto/auto_cache.c \
	'return 2 * took >= expect && took <= 2 * expect;' 'return true;' \
	'test_auto'
m small-blocks-behind-a-buffer-keep-two-rows auto auto/auto_verdicts.c \
	'return s->erasesize <= SMALL_ERASE && !s->buffer_bytes;' 'return s->erasesize <= SMALL_ERASE;' \
	'test_auto'
m one-row-collapses-only-beyond-the-noise auto auto/auto_verdicts.c \
	'1 - ratio[0] > NOISE_SIGMAS * noise[0])' '1)' \
	'test_auto'
m a-low-count-is-worded-as-uncertain auto auto/auto_report.c \
	'bool sure = c->conf > CONF_LOW;' 'bool sure = c->conf >= CONF_LOW;' \
	'auto-rerun-commands-for-an-uncertain-count-run-as-printed' ci
m small-blocks-mapping-unit-keeps-up-clearly auto auto/auto_verdicts.c \
	'double keep_up = half || s->erasesize <= SMALL_ERASE ? CLEAR_HOLD : HOLD_RATIO;' 'double keep_up = half ? CLEAR_HOLD : HOLD_RATIO;' \
	'test_auto'
m a-fakes-partitions-end-inside-what-it-stores advice auto/advice.c \
	'a->end = c->real_lo / a->unit * a->unit;' 'a->end = (c->real_lo + a->unit - 1) / a->unit * a->unit;' \
	'auto-advice-lines-run-as-printed-on-image-files'

# ---- the progress line (lib/progress.c) ----
m progress-shows-after-a-second progress lib/progress.c \
	'#define SHOW_AFTER_NS	1000000000LL' '#define SHOW_AFTER_NS	100000000LL' \
	'test_progress' ci
m progress-is-redrawn-while-nothing-ticks progress lib/progress.c \
	'#define KEEPALIVE_NS	500000000LL' '#define KEEPALIVE_NS	2500000000LL' \
	'test_progress progress-never-pauses-two-seconds-during-auto-and-capacity-on-a-terminal'
m progress-at-most-five-a-second progress lib/progress.c \
	'#define REFRESH_NS	200000000LL' '#define REFRESH_NS	20000000LL' \
	'test_progress progress-shows-on-a-terminal-during-a-long-run'
m progress-eta-plans-a-collapse-not-yet-measured-as-slow progress lib/progress_eta.c \
	'#define SLOW_KEY_FACTOR 10.0' '#define SLOW_KEY_FACTOR 1.0' \
	'test_progress'
m progress-eta-counts-a-known-pause progress lib/progress_eta.c \
	'return ns + (w->pause_ns > 0 ? (double)w->pause_ns : 0);' 'return ns;' \
	'test_progress'

# ---- h45: a buffer's pace and a write cache that takes the FAT check ----
m fat-buffer-pace-steps-less-than-a-clear-margin analysis analyze/analyze_open_au.c \
	' && lead < FAT_CLEAR * row->rate[k];' ';' \
	'test_analyze'
m fat-inside-a-write-cache-is-not-determinable auto auto/auto_plan.c \
	'	s->fatest.conf = CONF_NONE;' '	return;' \
	'auto-counts-open-blocks-past-a-write-cache-or-says-the-cache-hides-them'
m runs-holding-past-a-fall-went-to-the-cache auto auto/auto_plan.c \
	'return !s->cache_bytes || (s->regime && s->lin.n >= OPEN_AU_MAX_NR);' 'return !s->cache_bytes;' \
	'test_auto'

# ---- h50: cards as they are made today ----
m random-opening-behind-a-buffer-writes-the-unit auto auto/auto_open.c \
	'if (random && s->buffer_bytes && s->map_unit > chunk) {' 'if (0) {' \
	'test_auto'
m two-unclear-small-random-replicas-end-the-search auto auto/auto_open.c \
	'return s->erasesize <= UNCLEAR_PAIR_ERASE && random && reps >= 2' 'return s->erasesize <= UNCLEAR_PAIR_ERASE && random && reps >= 3' \
	'test_auto'
m two-unclear-random-replicas-only-up-to-128k auto auto/auto_open.c \
	'#define UNCLEAR_PAIR_ERASE (128u << 10)' '#define UNCLEAR_PAIR_ERASE (256u << 10)' \
	'test_auto'
m fat-thin-lead-over-collapsed-columns-is-none auto auto/auto_fat.c \
	'typical >= CLEAR_COLLAPSE * ref ||' 'typical >= 0 * ref ||' \
	'test_auto'
m open-au-larger-row-dip-alone-holds analysis analyze/analyze_open_au.c \
	'if (n >= 2 && ratio[n - 2] >= COLLAPSE_RATIO && ratio[n - 1] > ratio[n - 2] &&' 'if (0 &&' \
	'test_analyze'

# ---- h52: --auto's -a places are auto_run's, not its caller's ----
m auto-alignment-places-are-auto-runs auto auto/auto_align.c \
	'ap.align_spread = true;' 'ap.align_spread = s->p->align_spread;' \
	'test_auto'

# ---- h49: --auto's class step without O_SYNC ----
m class-step-reopens-without-o-sync device dev.c \
	'int flags = (fl & (O_ACCMODE | O_DIRECT | O_NOATIME)) | O_CLOEXEC;' 'int flags = (fl & (O_ACCMODE | O_DIRECT | O_NOATIME | O_SYNC)) | O_CLOEXEC;' \
	'auto-class-step-writes-without-o-sync-and-the-other-steps-with-it'
m auto-class-step-writes-by-the-second-descriptor auto auto/auto_class.c \
	'int nosync = dev_set_nosync(s->d, true);' 'int nosync = 0;' \
	'auto-class-step-writes-without-o-sync-and-the-other-steps-with-it'

# ---- h49: the run ETA (lib/progress*.c, auto/auto_progress.c) ----
m progress-eta-key-like-takes-its-factor progress lib/progress_eta.c \
	'		*slower *= factor;' '		*slower *= 1;' \
	'test_progress'
m progress-eta-rekeyed-work-leaves-its-old-key progress lib/progress_eta.c \
	'	progress_fit_merge(&r->k[from - 1], f, -1);' ';' \
	'test_progress'
m progress-eta-keeps-the-run-under-way-apart progress lib/progress.c \
	'if (pr.piece[k].ns > 0 && without.ns >= PIECE_APART_NS)' 'if (0)' \
	'auto-run-eta-holds-within-30-percent-from-the-middle-on'
m auto-eta-rekeys-a-run-by-what-it-turned-out progress auto/auto_progress.c \
	'progress_rekey_last(outcome_key(&s->runs[s->nruns - 1]));' 'progress_rekey_last(0);' \
	'auto-run-eta-holds-within-30-percent-from-the-middle-on'
m auto-eta-plans-the-run-under-way progress auto/auto_progress.c \
	'	if (done < full)' '	if (0)' \
	'auto-run-eta-holds-within-30-percent-from-the-middle-on'
m auto-eta-plans-collapses-past-the-expected-count progress auto/auto_progress.c \
	'bool holds = nr <= open;' 'bool holds = true;' \
	'auto-run-eta-holds-within-30-percent-from-the-middle-on'
m analyze-reads-a-one-row-run-against-another-runs-row analysis analyze/analyze_open_au.c \
	'if (r->nrows != 1 || !row_ok(&r->rows[0]))' 'if (1)' \
	'test_analyze analyze-reads-a-one-row-open-au-run-only-against-another-runs-same-size-row'

# ---- h56: the open-AU searches planned on the population's counts ----
m auto-eta-expects-the-populations-median-count progress auto/auto_progress.c \
	'if (weight[n] > 0 && 2 * sum >= all)' 'if (weight[n] > 0)' \
	'auto-run-eta-holds-within-30-percent-from-the-middle-on'

# ---- h63: the run ETA's priors and its recent rate ----
m progress-eta-young-key-goes-at-its-prior progress lib/progress_eta.c \
	'if (!(own->ns >= MIN_NS) || own->bytes >= (double)w->bytes)' 'if (1)' \
	'test_progress'
m progress-recent-rate-spans-three-seconds progress lib/progress.c \
	'#define RECENT_MIN_NS	3000000000LL' '#define RECENT_MIN_NS	1000000000LL' \
	'test_progress'
m progress-eta-large-writes-measured-go-per-byte progress lib/progress_eta.c \
	'bool per_io = small && f->bytes / f->ios < SMALL_IO;' 'bool per_io = small;' \
	'test_progress'
m auto-eta-plans-the-random-reference-from-the-fat-run progress auto/auto_progress.c \
	'double f = cbrt(fat / holds);' 'double f = RANDOM_REFERENCE_FACTOR;' \
	'auto-run-eta-plans-the-random-reference-from-the-fat-runs-rate'

# ---- h53: a restore through a descriptor without O_SYNC is flushed, also on Ctrl-C ----
m restore-without-o-sync-is-flushed safety safety/preserve.c \
	'return fdatasync(pv.fd) < 0 ? errno : 0;' 'return 0;' \
	'class-stopped-by-ctrl-c-flushes-the-restored-area-before-it-exits'
m a-failed-restore-flush-is-a-failed-restore safety safety/preserve.c \
	'if (e && r == 0) {' 'if (0) {' \
	'class-whose-restore-flush-fails-is-a-failed-restore-naming-device-and-error'
m preserve-ignores-sigpipe-until-restored safety safety/preserve.c \
	'sigaction(SIGPIPE, &ignore, &pv_old_sigpipe);' ';' \
	'preserve-restores-the-device-even-when-the-output-pipe-is-closed'

# ---- h57: judging a change against chance (bench/calibration.py) ----
m calibration-reroll-moves-the-seed bench bench/calibration.py \
	'f"seed={int(m.group(1)) + 1000 * k}"' 'f"seed={int(m.group(1)) + 0 * k}"' \
	'calibration-reroll-draws-the-same-cards-again-and-max-erase-keeps-the-small-ones'
m calibration-max-erase-keeps-the-limit bench bench/calibration.py \
	'c["erase"] and c["erase"] <= limit]' 'c["erase"] and c["erase"] < limit]' \
	'calibration-reroll-draws-the-same-cards-again-and-max-erase-keeps-the-small-ones'
m calibration-band-lowest-to-highest bench bench/calibration_band.py \
	'return f"{min(values):g} .. {max(values):g}"' 'return f"{max(values):g} .. {max(values):g}"' \
	'calibration-band-spans-the-draws-and-counts-wrong-answers-at-high-and-medium'
m calibration-band-counts-medium-wrong bench bench/calibration_band.py \
	'for _, w in cells[:2])' 'for _, w in cells[:1])' \
	'calibration-band-spans-the-draws-and-counts-wrong-answers-at-high-and-medium'

# ---- h59: analyze --json gives a one-row run the verdict the series read ----
m analyze-json-run-verdict-is-the-series-reading analysis cmd/analyze_cmd.c \
	'analyze_open_au_series_run(s->runs, s->nrs, s->nruns, page, i)' 'analyze_open_au_run(s->runs[i], page)' \
	'analyze-reads-a-one-row-open-au-run-only-against-another-runs-same-size-row'

# ---- h60: no confident FAT verdict the columns cannot support ----
m fat-buffer-paced-column-is-not-the-area auto auto/auto_fat.c \
	'paced[c] = paced[c] && row->rate[c] < FAT_BUFFER_PACE * later;' 'paced[c] = false;' \
	'test_auto'
m fat-none-over-held-columns-past-the-random-count-is-low auto auto/auto_fat.c \
	'if (row->ncols <= s->rnd.n || !(ref > 0))' 'if (1)' \
	'test_auto'
m fat-rows-inside-the-buffer-time-no-column auto auto/auto_fat.c \
	'if (!row || row > s->buffer_bytes)' 'if (1)' \
	'test_auto'
m page-row-a-quarter-up-the-step-is-low analysis analyze/analyze_align.c \
	's.max_below >= PAGE_BELOW_HIDES * s.h' 's.max_below > s.h' \
	'test_analyze'
m page-thin-level-between-is-low analysis analyze/analyze_align.c \
	'mid < PAGE_MID_SURE * s.h' 'mid < 0' \
	'test_analyze'

# ---- h65: a count behind a RAM buffer that blurs every row, where the runs show the limit ----
m buffer-count-a-hold-that-collapsed-again-is-a-cache auto auto/auto_verdicts.c \
	'if (r->nr == n && r->verdict == RUN_COLLAPSED)' 'if (0)' \
	'test_auto'
m buffer-count-needs-two-collapses-past-it auto auto/auto_verdicts.c \
	'return held && at_next >= 2;' 'return held && at_next >= 1;' \
	'test_auto'
m buffer-count-stands-instead-of-not-determinable auto auto/auto_plan.c \
	' && !auto_count_stands_behind_buffer(s, random, c)' '' \
	'test_auto'

# ---- h67: a random count the budget left without a run is "not determinable (budget)" ----
m no-random-run-needs-the-budget-reached auto auto/auto_verdicts.c \
	'if (!random || out->conf != CONF_NONE || !s->cap_hit || s->nd_rnd.reason' 'if (!random || out->conf != CONF_NONE || s->nd_rnd.reason' \
	'test_auto'
m no-random-run-needs-a-linear-run auto auto/auto_verdicts.c \
	'	    !(l.hold || l.collapse))' '	    0)' \
	'test_auto'
m no-random-run-budget-twice-the-bytes-written auto auto/auto_verdicts.c \
	'uint64_t want = (2 * s->d->bytes_written' 'uint64_t want = (s->d->bytes_written' \
	'test_auto'
m no-random-run-is-not-determinable auto auto/auto_verdicts.c \
	'	note_no_random_run(s, random, out);' '' \
	'test_auto'
m unclear-above-a-hold-is-at-least auto auto/auto_verdicts.c \
	'out->at_least = !b.collapse || only_unclear_above(s, random, b);' 'out->at_least = !b.collapse;' \
	'test_auto'
m unclear-above-needs-no-replica-collapsed auto auto/auto_verdicts.c \
	'&& s->runs[i].verdict != RUN_UNCLEAR)' '&& 0)' \
	'test_auto'
m unclear-above-a-larger-n-decides auto auto/auto_verdicts.c \
	'return false;	/* a larger N measured decides */' ';' \
	'test_auto'
m unclear-above-at-a-collapses-level-is-a-collapse auto auto/auto_verdicts.c \
	'if (r[0] <= COLLAPSE_LEVEL && r[1] <= COLLAPSE_LEVEL)' 'if (0)' \
	'test_auto'
m unclear-above-is-read-in-linear-runs-only auto auto/auto_verdicts.c \
	'if (random || !b.collapse || auto_combined_verdict' 'if (!b.collapse || auto_combined_verdict' \
	'test_auto'

# ---- a count not determinable here gives its own line, not the plain rerun hint ----
m a-not-determinable-count-gets-no-plain-rerun-hint auto auto/auto_report.c \
	'return have && c->conf <= CONF_LOW && !nd->reason;' 'return have && c->conf <= CONF_LOW;' \
	'auto-whose-budget-ran-out-before-any-random-run-says-so-and-its-line-finishes-the-count'

# ---------------------------------------------------------------------------

# --check: only whether each mutant still applies (its FROM on exactly one line)
if [ "${1:-}" = --check ]; then
	bad=0
	for i in "${!NAMES[@]}"; do
		n=$(grep -cF -- "${FROMS[i]}" "$root/${FILES[i]}" 2>/dev/null)
		[ "${n:-0}" = 1 ] && continue
		echo "ERROR    ${NAMES[i]} (${FILES[i]}): no longer applies: '${FROMS[i]}' is on ${n:-0} lines, not 1"
		bad=1
	done
	[ "$bad" = 0 ] && echo "all ${#NAMES[@]} mutants apply"
	exit "$bad"
fi
if [ "${1:-}" = --list ] || [ "${1:-}" = -l ]; then
	for i in "${!NAMES[@]}"; do
		printf '%-42s %-12s %s%s\n' "${NAMES[i]}" "${LAYERS[i]}" "${FILES[i]}" "${CIS[i]:+  (ci)}"
	done
	exit 0
fi

# the mutants chosen
chosen=()
[ $# -gt 0 ] || set -- all
for a in "$@"; do
	found=0
	for i in "${!NAMES[@]}"; do
		if [ "$a" = all ] || { [ "$a" = ci ] && [ -n "${CIS[i]}" ]; } || [ "$a" = "${NAMES[i]}" ]; then
			chosen+=("$i"); found=1
		fi
	done
	[ "$found" = 1 ] || { echo "mutate: no mutant named $a (bench/mutate.sh --list)" >&2; exit 2; }
done

work=$(mktemp -d /tmp/fbmutate.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir "$tree"
# the tree as it is (tracked and new files, not build output)
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
	tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$tree" -xf - ||
	{ echo "mutate: cannot copy the tree" >&2; exit 2; }

# what the chosen mutants need built and run
units=() its=() whole=0
for i in "${chosen[@]}"; do
	for t in ${TESTS[i]}; do
		case $t in
		all) whole=1 ;;
		test_*) case " ${units[*]} " in *" $t "*) ;; *) units+=("$t") ;; esac ;;
		*) [ -f "$tree/tests/it/$t.sh" ] || { echo "mutate: ${NAMES[i]}: no test $t" >&2; exit 2; }
		   case " ${its[*]} " in *" $t "*) ;; *) its+=("$t") ;; esac ;;
		esac
	done
done
targets=(flashbench build/tests/vclock.so)
for u in "${units[@]}"; do targets+=("build/tests/$u"); done
build() { make -s -C "$tree" "${targets[@]}" >"$work/build.log" 2>&1; }

# run_test NAME: 0 pass, 77 skip, else fail; output in $work/test.out. The
# limit only guards against a hang (a mutant that loops), as in tests/run.sh.
limit=${FB_TEST_TIMEOUT:-1800}
FB_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && export FB_PYTHON
run_test() {
	case $1 in
	all) FB_TEST_JOBS=${FB_TEST_JOBS:-2} make -s -C "$tree" check >"$work/test.out" 2>&1 ;;
	test_*) timeout "$limit" "$tree/build/tests/$1" >"$work/test.out" 2>&1 ;;
	*) FLASHBENCH=$tree/flashbench UNIT_DIR=$tree/build/tests timeout "$limit" bash "$tree/tests/it/$1.sh" \
		>"$work/test.out" 2>&1 </dev/null ;;
	esac
}

echo "mutate: building the copy in $tree"
build || { echo "mutate: the unmutated tree does not build:"; tail -n 20 "$work/build.log"; exit 2; }
# Each test must pass without any mutant, or its verdict on one means nothing.
echo "mutate: ${#chosen[@]} mutants; first their $((${#units[@]} + ${#its[@]} + whole)) tests without any"
declare -A usable=()
for t in "${units[@]}" "${its[@]}" $([ "$whole" = 1 ] && echo all); do
	run_test "$t"; rc=$?
	if [ "$rc" = 0 ]; then
		usable[$t]=1
	else
		echo "mutate: $t does not pass without a mutant (exit $rc): $(tail -n 2 "$work/test.out" | tr '\n' ' ')"
	fi
done

killed=0 survived=0 errors=0
for i in "${chosen[@]}"; do
	name=${NAMES[i]} f=$tree/${FILES[i]} from=${FROMS[i]} to=${TOS[i]}
	what="$name (${LAYERS[i]}, ${FILES[i]})"
	if [ ! -f "$f" ]; then
		echo "ERROR    $what: the file is gone"; errors=$((errors + 1)); continue
	fi
	n=$(grep -cF -- "$from" "$f")
	if [ "$n" != 1 ]; then
		echo "ERROR    $what: no longer applies: '$from' is on $n lines, not 1"
		errors=$((errors + 1)); continue
	fi
	cp "$f" "$work/orig"
	FROM=$from TO=$to awk '{
		i = index($0, ENVIRON["FROM"])
		if (i) $0 = substr($0, 1, i - 1) ENVIRON["TO"] substr($0, i + length(ENVIRON["FROM"]))
		print }' "$work/orig" >"$f"
	verdict="" by=""
	if cmp -s "$f" "$work/orig"; then
		verdict=ERROR by="the substitution changes nothing"
	elif ! build; then
		verdict=ERROR by="does not build: $(grep -m1 'error' "$work/build.log")"
	else
		for t in ${TESTS[i]}; do
			[ -n "${usable[$t]:-}" ] || continue
			run_test "$t"; rc=$?
			if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
				verdict=killed by="by $t"
				break
			fi
		done
		if [ -z "$verdict" ]; then
			judged=0
			for t in ${TESTS[i]}; do [ -n "${usable[$t]:-}" ] && judged=1; done
			if [ "$judged" = 0 ]; then
				verdict=ERROR by="none of its tests passes without it: ${TESTS[i]}"
			else
				verdict=SURVIVED by="${TESTS[i]} passed; ${FILES[i]}: '$from' -> '$to'"
			fi
		fi
	fi
	cp "$work/orig" "$f"
	touch "$f"	# newer than its object: the next build compiles it again
	case $verdict in
	killed) killed=$((killed + 1)) ;;
	SURVIVED) survived=$((survived + 1)) ;;
	*) errors=$((errors + 1)) ;;
	esac
	printf '%-8s %s %s\n' "$verdict" "$what" "$by"
done
build >/dev/null 2>&1

total=${#chosen[@]}
echo "mutation score: $killed of $total killed ($((total ? 100 * killed / total : 0))%), $survived survived, $errors errors"
[ "$killed" = "$total" ]
exit
}
