/* Interpreting measurements: erase size, page size, open AUs, FAT area. */
#ifndef FB_ANALYZE_H
#define FB_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

/*
 * Thresholds of the analysis, in one place. Sources: doc/flash-card-model.md
 * (§n below), doc/real-cards.tsv, doc/card-facts.md (the facts by section),
 * the seed posts (tests/data/seeds), and the calibration matrix (tests/it/
 * auto-confidence-is-calibrated-...sh) where a value was measured.
 *
 *   name              value    what                                  source
 *   ERASE_MIN         128KiB   smallest erase block                  SD AU_SIZE 4; 128 KB NAND of ~2008 cards
 *   ERASE_MAX         64MiB    largest erase block / AU              SD AU_SIZE F, the SDXC maximum
 *   MAX_PAGE          256KiB   a larger step below the erase size    effective pages 2..48 KiB seen
 *                              is not a page
 *   MAX_ODD_PAGE      64KiB    largest 3*2^n page (48 KiB seen)      SanDisk Ultra 64GB (doc/real-cards.tsv)
 *   STEP_RATIO        1.5      a plateau is >= 1.5x the one below    seeds: 2..50x; drift/noise < 1.3x
 *   GROUP_RATIO       1.2      an allocation-group rise, evidence    card-facts, read boundaries (1-2 GiB)
 *                              only (never the erase size)
 *   MID_LEVEL         0.2      a single row between two levels is    §5 (README): 5/53/150 us = 8 KiB
 *                              one of its own (page read in pairs)   pages, 16 KiB multi-plane
 *   NOISE_FRACTION    0.02     a step under 2% of a read is noise    loop devices, RAM disks (measured)
 *   PAGE_OVER_DIP     0.25     a page level stands above zero by a   card-facts, "Page steps and noise";
 *                              quarter of the depth of a level below the calibration matrix (kept every
 *                              it that sinks below zero (noise)      right page, lost the dips)
 *   MIN_GOOD_ROWS     6        fewer good -a rows: unknown           card-facts, "Failed rows"
 *   STEP_COLLAPSE     0.75     throughput ratio per halving in a     §3: 0.5 when time per
 *                              collapse                              write is constant
 *   GC_FRACTION       0.25     collapse: a write costs >= 1/4 of     seeds: 0.4..0.7 s per write for
 *                              rewriting an erase block              4 MiB AUs (SA04G, SD4GB)
 *   WEAK_GC_FRACTION  0.05     ... or 1/20 when it starts well       seed 000 random runs (partial GC)
 *                              above the page (MIN_GC_START)
 *   MAX_PAGE_HINT     64KiB    larger -a "pages" are not pages       effective pages <= 48 KiB
 *   REF_SLOW          0.75     a run this much slower than N=1 at    sim matrix: >= 0.94 within the
 *                              its smallest row collapsed            limit, <= 0.65 one block over
 *   REF_CLEAR         0.65     ... clearly so (medium confidence)    same
 *   RANDOM_SLOW       0.35     random writes under 0.35 of the       card-facts, random mode: a third is
 *                              linear rate (rows >= E/32) are not    none open; Lexar CF (seed 004):
 *                              "open"                                0.4 at 512 KiB, experts count 11
 *   MAP_UNIT_FAST     0.5      random writes at least half the       SU04G (seed 000): 512 KiB random at
 *                              linear rate from a size up: a         0.94 of linear, 256 KiB at 0.28
 *                              mapping unit
 *   MAP_UNIT_CLIFF    0.5      --auto: every row below the unit at   a write of half the unit pays its
 *                              half the unit's rate or less          own time and the unit's copy;
 *                                                                    no unit: SA04G random 0.68 at E/2,
 *                                                                    0.6 at E/4 (a gradual decline)
 *   SMALL_ERASE       512KiB   random counts on erase blocks this    calibration matrix: one block over
 *                              small are low confidence              the limit hides (cheap GC)
 *   COLLAPSE_RATIO    0.6      a row under 0.6 of the reference's    card-facts, writes: one block over
 *                              same row collapsed (rows E/4, E/8)    the limit <= 0.35 (GC ~ a block
 *                                                                    rewrite per write); bench/calibration
 *   HOLD_RATIO        0.8      a row at 0.8 of it or more held       percent noise and stretched accesses
 *                                                                    cost <= 10% of a row
 *   NOISE_SIGMAS      3        a row differs from the reference      issue 20 cause 3: host jitter and
 *                              only beyond 3x the replicas' spread   busy spells swamp fast rows
 *   CLEAR_COLLAPSE    0.45     a deciding collapse this deep, held   bench/calibration: "high" needs
 *   CLEAR_HOLD        0.9      rows this close to the reference:     both margins in every replica
 *                              high confidence
 *   SETTLE_QUIET      1.4      settle writes within 1.4x the clean   the time of a write with nothing
 *                              time per write: nothing left to pay   owed (bench/calibration)
 *   REFERENCE_AGREE   0.1      the reference is measured again       percent noise averages out over a
 *                              until its two fastest replicas agree  row; a busy spell does not
 *                              within 10% at the decision rows
 *   FAT_SCATTER       0.15     --find-fat columns scattering more    a page-mapped block saves >= 15% on
 *                              than this: "none" is medium at most   writes of a page or two (FAT rows)
 *                              (twice as much: low)
 *   FAT_MIN_SPEEDUP   1.15     leading columns this much over the    the same saving; the simulator's
 *                              typical later one stand out           FAT areas: 1.3x at a page
 *   FAT_ROW_MARGIN    1.05     ... and faster than every later       a fast later column: open slots,
 *   FAT_SHARE         0.7      column (none of them fast) in this    not the place (issue 27: columns
 *                              share of the rows: a FAT area (0.85:  1 and 4 fast, no FAT area)
 *                              high when clear)
 *   FAT_CLEAR         1.5      a FAT area under 1.5x the fastest     a RAM buffer makes the first writes
 *                              later column is low confidence        after a pause ~1.4x faster
 *   PAGE_BELOW_HIDES  0.25     a row below the page step at a        a page read in pairs at the step
 *                              quarter of the step's median or       leaves its one row there (emmc,
 *                              more: the page is low                 8 KiB pages, 16 KiB multi-plane:
 *                                                                    26.9 of 78.2us); calibration: 44
 *                                                                    right, 6 wrong (card-facts)
 *   PAGE_MID_SURE     0.4      a one-row level between (pairs)       a diluted row, not a page: 3 right,
 *                              under 0.4 of the step above it: low   3 wrong under it, 84 right over
 *   FAT_BUFFER_PACE   2.0      over collapsed later columns, a       a buffer that takes part of a
 *                              leading column under 2x them in       column's writes after a fast one
 *                              every row is a buffer's pace, not     paces it 1.3-2x (usb3-64g 1.64x,
 *                              the area (which runs >= 5x there)     FAT areas 5.9-40x; card-facts)
 *   FAT_TAIL_STEADY   1.02     later columns each no faster than     a RAM buffer drains at the card's
 *   FAT_TAIL_DROP     1.03     the one before (x this), the first    rate while the next columns are
 *                              two this much over the last (a fall-  written (emmc51: 15.9, 8.6, 7.3,
 *                              off over two columns): buffered, low  7.0, 6.8 MB/s, no FAT area)
 *
 * The -a staircase (analyze/analyze_align_levels.c; card-facts, "A page level can be several rows
 * wide", "A step on a raised floor is a step"): a level is STEP_RATIO and 5 sigma over the one
 * below, or GROUP_RATIO and 10 sigma (the PQI 32 GB card: +30%, ten times the scatter); rises
 * of 2 sigma that miss this are undecided (low); a row 0.4 of the way to another level, or a
 * 3*2^n row off its predicted level, leaves the table to the step search.
 */
#define ERASE_MIN (128 * 1024)
#define ERASE_MAX (64ull * 1024 * 1024)
#define MAX_PAGE (256 * 1024)
#define MAX_ODD_PAGE (64 * 1024)
#define STEP_RATIO 1.5
#define GROUP_RATIO 1.2
#define MID_LEVEL 0.2
#define NOISE_FRACTION 0.02
#define PAGE_OVER_DIP 0.25
#define MIN_GOOD_ROWS 6
#define STEP_COLLAPSE 0.75
#define GC_FRACTION 0.25
#define WEAK_GC_FRACTION 0.05
#define MIN_GC_START (32 * 1024)
#define MAX_PAGE_HINT (64 * 1024)
#define REF_SLOW 0.75
#define REF_CLEAR 0.65
#define RANDOM_SLOW 0.35
#define MAP_UNIT_FAST 0.5
#define MAP_UNIT_CLIFF 0.5
#define SMALL_ERASE (512 * 1024)
#define COLLAPSE_RATIO 0.6
#define HOLD_RATIO 0.8
#define NOISE_SIGMAS 3.0
#define CLEAR_COLLAPSE 0.45
#define CLEAR_HOLD 0.9
#define SETTLE_QUIET 1.4
#define REFERENCE_AGREE 0.1
#define FAT_SCATTER 0.15
#define FAT_MIN_SPEEDUP 1.15
#define FAT_ROW_MARGIN 1.05
#define FAT_SHARE 0.7
#define FAT_SURE_SHARE 0.85
#define FAT_CLEAR 1.5
#define FAT_BUFFER_PACE 2.0
#define PAGE_BELOW_HIDES 0.25
#define PAGE_MID_SURE 0.4
#define FAT_TAIL_STEADY 1.02
#define FAT_TAIL_DROP 1.03
#define NOISE_GATE 0.25

/* -a data -> erase-block size and page size */
void analyze_align(const struct align_result *r, struct size_estimate *erase,
		   struct size_estimate *page);

/* a second witness of the erase size (sysfs preferred_erase_size, --erasesize of runs) */
void analyze_cross_check_erase(struct size_estimate *erase, uint64_t pref, const char *source);

/* one --open-au run: did small-block throughput collapse (time per write ~ constant)? */
enum collapse analyze_open_au_run(const struct rate_result *r, uint64_t pagesize_hint);
/*
 * Rows of an --open-au run against the same rows of a reference (the same
 * mode with one erase block, or linear writes): ratio[i] is the run's rate
 * over the reference's, noise[i] the reference replicas' relative spread.
 * COLLAPSED when every row (at least two) is clearly slower and the smaller
 * one by STEP_COLLAPSE more, HOLDS when every row keeps up within the noise,
 * else UNCLEAR (issue 20, causes 3, 4).
 */
enum collapse analyze_open_au_against(const double *ratio, const double *noise, int n);

/* runs[i] was made with open-au-nr = nrs[i] (ascending) */
void analyze_open_au_series(const struct rate_result *const *runs, const long long *nrs, int nruns,
			    uint64_t pagesize_hint, struct count_estimate *out);
/*
 * The verdict of runs[k] as the series reads it: a run of one row speaks
 * only against another run's same-size row (unclear where none has one),
 * any other run as analyze_open_au_run reads it alone.
 */
enum collapse analyze_open_au_series_run(const struct rate_result *const *runs, const long long *nrs,
					 int nruns, uint64_t pagesize_hint, int k);
/* --find-fat data -> FAT-optimised area at the start */
void analyze_find_fat(const struct rate_result *r, struct fat_estimate *out);

/*
 * Two --open-au runs with the same N and mode at erase sizes a < b: median
 * over shared block sizes (page..a/2) of rate(b)/rate(a); 0 if none shared.
 * Clearly above 1 (>= 1.5) means the smaller size makes the card
 * garbage-collect more: the erase size is at least b's.
 */
double analyze_open_au_gain(const struct rate_result *smaller_e, const struct rate_result *bigger_e,
			    uint64_t pagesize_hint);

#endif
