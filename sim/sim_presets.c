/*
 * The simulator's presets (each real card's comment names the runs and
 * figures it reproduces), their lookup, and the sim: help text.
 */
#include "sim/sim_internal.h"

#include <stdio.h>
#include <string.h>

#define CFG(sz, es, ps, o, r, f) \
	{ .size = (sz), .erasesize = (es), .pagesize = (ps), .open_au = (o), \
	  .random_au = (r), .fat_aus = (f), .seed = 1, .fail_at = SIM_NO_FAIL }
#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* Used when the spec names no preset. */
const struct preset sim_generic_preset = {
	NULL, NULL, CFG(4 * GiB, 4 * MiB, 16 * KiB, 2, 1, 1),
	{ 300 * US, 20 * MBPS, 90 * US, 200 * US, 200 * US, 12 * MBPS,
	  1.0, 3 * MS, 300 * US, 16 * MBPS, 100 * US, 0 },
};

static const struct preset presets[] = {
	{ "microsd-cheap", "8GiB microSD, 4MiB AU, 16KiB page, open 1, random 0, FAT 0",
	  CFG(8 * GiB, 4 * MiB, 16 * KiB, 1, 0, 0),
	  { 400 * US, 12 * MBPS, 80 * US, 180 * US, 300 * US, 6 * MBPS,
	    0.8, 4 * MS, 500 * US, 8 * MBPS, 200 * US, 0 } },
	{ "sdhc-good", "32GiB SDHC, 4MiB AU, 16KiB page, open 8, random 4, FAT 2",
	  CFG(32 * GiB, 4 * MiB, 16 * KiB, 8, 4, 2),
	  { 250 * US, 22 * MBPS, 100 * US, 200 * US, 150 * US, 18 * MBPS,
	    1.0, 2 * MS, 200 * US, 25 * MBPS, 100 * US, 0 } },
	{ "emmc", "16GiB eMMC, 512KiB AU, 8KiB page, open 16, random 16, FAT 0",
	  CFG(16 * GiB, 512 * KiB, 8 * KiB, 16, 16, 0),
	  { 100 * US, 80 * MBPS, 40 * US, 90 * US, 80 * US, 25 * MBPS,
	    0.8, 1 * MS, 100 * US, 40 * MBPS, 50 * US, 0 } },
	{ "sdxc-tlc", "64GiB TLC SDXC, 12MiB AU, 16KiB page, open 4, random 2, FAT 1",
	  CFG(64 * GiB, 12 * MiB, 16 * KiB, 4, 2, 1),
	  { 300 * US, 40 * MBPS, 100 * US, 220 * US, 200 * US, 15 * MBPS,
	    1.1, 5 * MS, 300 * US, 20 * MBPS, 100 * US, 0 } },
	{ "cf-16m", "32GiB CF card, 16MiB AU, 32KiB page, open 4, random 1, FAT 1",
	  CFG(32 * GiB, 16 * MiB, 32 * KiB, 4, 1, 1),
	  { 200 * US, 30 * MBPS, 120 * US, 260 * US, 150 * US, 20 * MBPS,
	    1.0, 6 * MS, 300 * US, 25 * MBPS, 100 * US, 0 } },
	/* ---- modelled on real cards (seeds in tests/data/seeds, doc/card-facts.md) ---- */
	/*
	 * Kingston SA04G through a USB reader (seed 000 card 2, seed 002): 1 KiB
	 * reads ~2 ms, diff ~1.2 ms from 4 MiB up, ~25 us below; linear 4.7 MB/s
	 * with one erase block, N=2 collapses to 6 KB/s at 4 KiB (0.68 s a write:
	 * 4 MiB rewritten at ~6 MB/s); random collapses at N=1; first 2 AUs FAT.
	 */
	{ "sa04g", "Kingston SA04G 4GB microSD: 4MiB AU, 8KiB page, open 1, random 0, FAT 2",
	  { .size = 4 * GiB, .erasesize = 4 * MiB, .pagesize = 8 * KiB, .open_au = 1,
	    .random_au = 0, .fat_aus = 2, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .spikes = 1 } },
	  { 1900 * US, 20 * MBPS, 25 * US, 1200 * US, 200 * US, 5 * MBPS,
	    0.5, 3 * MS, 300 * US, 6 * MBPS, 100 * US, 0 } },
	/*
	 * Kingston SDC10/4GB (seed 000 card 5): reads ~2 ms, diff ~500 us from
	 * 2 MiB, ~60-90 us from 8 KiB, ~35 us below; linear 12.5 MB/s at N=1,
	 * N=2 collapses (512 KiB at 1.79 MB/s: 0.29 s a write); random slow at N=1.
	 */
	{ "sdc10", "Kingston SDC10 4GB microSD: 2MiB AU, 8KiB page, open 1, random 0, FAT 2",
	  { .size = 4 * GiB, .erasesize = 2 * MiB, .pagesize = 8 * KiB, .open_au = 1,
	    .random_au = 0, .fat_aus = 2, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .spikes = 1 } },
	  { 1950 * US, 20 * MBPS, 50 * US, 430 * US, 150 * US, 13 * MBPS,
	    0.3, 3 * MS, 300 * US, 7 * MBPS, 100 * US, 0 } },
	/*
	 * SanDisk SU04G (seed 000 card 1): 1 ms reads, weak diffs (30-100 us);
	 * linear 13 MB/s holds to N=9 and collapses at 10 (65 KB/s at 16 KiB);
	 * random 12 MB/s down to 512 KiB, 3.5 MB/s at 256 KiB at any N: a 512 KiB
	 * mapping unit.
	 */
	{ "su04g", "SanDisk SU04G 4GB microSD: 2MiB AU, 8KiB page, open 9, 512KiB random unit",
	  { .size = 4 * GiB, .erasesize = 2 * MiB, .pagesize = 8 * KiB, .open_au = 9,
	    .random_au = 9, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .map_unit = 512 * KiB, .spikes = 2 } },
	  { 950 * US, 20 * MBPS, 10 * US, 70 * US, 100 * US, 14 * MBPS,
	    0.3, 3 * MS, 300 * US, 6 * MBPS, 100 * US, 0 } },
	/*
	 * Micron MMC02G eMMC (seed 003): diff ~450 us from 2 MiB, ~57 us below, no
	 * page step; linear and random hold at N=5 (4.4 MB/s), collapse at 6.
	 */
	{ "mmc02g", "Micron 2GB eMMC: 2MiB erase block, open 5, random 5, FAT 0",
	  { .size = 2 * GiB, .erasesize = 2 * MiB, .pagesize = 8 * KiB, .open_au = 5,
	    .random_au = 5, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL },
	  { 300 * US, 20 * MBPS, 0 * US, 390 * US, 150 * US, 5 * MBPS,
	    0.3, 2 * MS, 200 * US, 6 * MBPS, 100 * US, 0 } },
	/*
	 * Lexar 16GB CompactFlash (seed 004): diff ~120 us from 16 MiB, ~29 us from
	 * 16 KiB, ~3 us below; 56 MB/s; holds at N=11, collapses at 12, random too.
	 */
	{ "lexar-cf", "Lexar 16GB CF: 16MiB AU, 16KiB page, open 11, random 11, FAT 0",
	  { .size = 16 * GiB, .erasesize = 16 * MiB, .pagesize = 16 * KiB, .open_au = 11,
	    .random_au = 11, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL },
	  { 60 * US, 60 * MBPS, 26 * US, 92 * US, 60 * US, 60 * MBPS,
	    0.3, 4 * MS, 200 * US, 60 * MBPS, 50 * US, 0 } },
	/*
	 * Issue 11's real table: <=2 KiB ~3 us, 4 KiB ~40 us, 8 KiB..1 MiB ~120 us,
	 * >=2 MiB ~250 us, a further rise at 2 GiB on a 32 GB card; reads spike.
	 */
	{ "multiplane-32g", "32GiB SDHC: 2MiB AU, 4KiB pages read in pairs, 2GiB groups, open 4",
	  { .size = 32 * GiB, .erasesize = 2 * MiB, .pagesize = 4 * KiB, .open_au = 4,
	    .random_au = 2, .fat_aus = 1, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .multiplane = 8 * KiB, .group = 2 * GiB, .spikes = 2 } },
	  { 300 * US, 20 * MBPS, 40 * US, 130 * US, 150 * US, 15 * MBPS,
	    1.0, 3 * MS, 300 * US, 16 * MBPS, 100 * US, 0 } },
	/*
	 * Raspberry Pi's 128GB A2 microSD (doc/real-cards.tsv: 8 MiB preferred
	 * erase size): C10 U3 V30 A2 with a command queue and a cache
	 * (sim/sim_claims.c); ~59 MB/s sequential writes, ~1400 random 4 KiB
	 * writes a second one at a time, several thousand queued.
	 */
	{ "rpi-a2", "Raspberry Pi 128GB A2 microSD: 8MiB AU, 16KiB page, open 16, random 16, queue 8",
	  CFG(128 * GiB, 8 * MiB, 16 * KiB, 16, 16, 1),
	  { 100 * US, 90 * MBPS, 20 * US, 60 * US, 300 * US, 60 * MBPS,
	    0.5, 2 * MS, 100 * US, 80 * MBPS, 50 * US, 0 } },
	/* ---- cards as they are made today (doc/card-facts.md, "Cards as they are made today";
	 * the ranges there are typical published ones, not measured by us) ---- */
	/*
	 * A 64 GB SDXC A2 card (SanDisk Extreme class): 24 MiB erase blocks,
	 * 8 KiB pages, 8 open (all random-capable), a 1 GiB pseudo-SLC cache at
	 * ~70 MB/s, ~32 MB/s past it (native 45%), folded back at that rate while
	 * idle; collections postponed and done after a second of idle; a command
	 * queue of 8 (sim/sim_claims.c). Manual sequence (-O N=1..9 both ways,
	 * -f, 8 KiB blocks): 27 GiB, as issue 26's table.
	 */
	{ "a2-64g", "64GB SDXC A2: 1GiB SLC cache, 24MiB AU, 8KiB page, open 8, random 8, queue 8",
	  { .size = 63864569856ull, .erasesize = 24 * MiB, .pagesize = 8 * KiB, .open_au = 8,
	    .random_au = 8, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL, .gc_defer = 2,
	    .today = { .slc_cache = 1 * GiB, .native_pct = 45, .idle_gc_ms = 1000 } },
	  { 100 * US, 90 * MBPS, 30 * US, 250 * US, 250 * US, 70 * MBPS,
	    0.5, 3 * MS, 200 * US, 35 * MBPS, 50 * US, 0 } },
	/*
	 * A no-name 32 GB TLC microSD: 12 MiB erase blocks, 16 KiB pages, 2 open,
	 * 1 random, the first erase block FAT-optimised; a 128 MiB SLC cache at
	 * ~25 MB/s, ~8 MB/s past it (native 32%); a 256 KiB RAM buffer.
	 */
	{ "tlc-32g", "no-name 32GB TLC: 128MiB SLC cache, 12MiB AU, 16KiB page, open 2, random 1, FAT 1",
	  { .size = 31914983424ull, .erasesize = 12 * MiB, .pagesize = 16 * KiB, .open_au = 2,
	    .random_au = 1, .fat_aus = 1, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .today = { .slc_cache = 128 * MiB, .native_pct = 32, .buffer = 256 * KiB } },
	  { 300 * US, 80 * MBPS, 60 * US, 150 * US, 300 * US, 25 * MBPS,
	    0.8, 5 * MS, 300 * US, 8 * MBPS, 100 * US, 0 } },
	/*
	 * A 64 GB USB 3 stick: 32 MiB erase blocks in 4 GiB allocation groups,
	 * 16 KiB pages, 4 open, 2 random-capable for writes of 4 MiB and more
	 * (a mapping unit of an eighth of the block); ~35 MB/s writes, ~130 MB/s
	 * reads through a bridge that buffers 2 MiB and spikes some reads; no
	 * SD Status. Manual sequence (-O N=1..5 and 1..3, -f): 10.1 GiB.
	 */
	{ "usb3-64g", "64GB USB 3 stick: 32MiB AU in 4GiB groups, 16KiB page, open 4, random 2, 2MiB buffer",
	  { .size = 61530439680ull, .erasesize = 32 * MiB, .pagesize = 16 * KiB, .open_au = 4,
	    .random_au = 2, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .group = 4 * GiB, .map_unit = 4 * MiB, .spikes = 1 },
	    .today = { .buffer = 2 * MiB } },
	  { 200 * US, 130 * MBPS, 20 * US, 120 * US, 250 * US, 35 * MBPS,
	    0.5, 4 * MS, 300 * US, 30 * MBPS, 100 * US, 0 } },
	/*
	 * A 128 GB SDXC (U3 V30): 16 MiB erase blocks in 2 GiB allocation
	 * groups, 8 KiB pages, 5 open, 1 random, the first block FAT-optimised
	 * (small writes elsewhere pay 1.5 pages of mapping work); ~40 MB/s writes, a 1 MiB RAM buffer, collections postponed and done
	 * after half a second of idle. Manual sequence (-O N=1..6 and 1..2, -f,
	 * 8 KiB blocks): 5.6 GiB, as issue 26's table.
	 */
	{ "sdxc-128g", "128GB SDXC: 16MiB AU in 2GiB groups, 8KiB page, open 5, random 1, FAT 1",
	  { .size = 127865454592ull, .erasesize = 16 * MiB, .pagesize = 8 * KiB, .open_au = 5,
	    .random_au = 1, .fat_aus = 1, .seed = 1, .fail_at = SIM_NO_FAIL, .gc_defer = 2,
	    .real = { .group = 2 * GiB },
	    .today = { .buffer = 1 * MiB, .idle_gc_ms = 500 } },
	  { 150 * US, 90 * MBPS, 40 * US, 110 * US, 250 * US, 40 * MBPS,
	    1.5, 3 * MS, 200 * US, 30 * MBPS, 50 * US, 0 } },
	/*
	 * A 64 GB SDXC (U1): 24 MiB erase blocks, 8 KiB pages, 4 open, 2 random,
	 * no FAT area; ~30 MB/s writes, a 512 KiB RAM buffer, collections
	 * postponed (up to 4 blocks) and done after 2 s of idle. Manual sequence
	 * (-O N=1..5 and 1..3, -f, 8 KiB blocks): 7.6 GiB, as issue 26's table.
	 */
	{ "sdxc-64g", "64GB SDXC: 24MiB AU, 8KiB page, open 4, random 2, FAT 0, 512KiB buffer",
	  { .size = 62226694144ull, .erasesize = 24 * MiB, .pagesize = 8 * KiB, .open_au = 4,
	    .random_au = 2, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL, .gc_defer = 4,
	    .today = { .buffer = 512 * KiB, .idle_gc_ms = 2000 } },
	  { 200 * US, 90 * MBPS, 50 * US, 250 * US, 300 * US, 30 * MBPS,
	    0.6, 4 * MS, 300 * US, 25 * MBPS, 100 * US, 0 } },
	/*
	 * A 32 GB eMMC 5.1 (HS200): 512 KiB erase blocks, 16 KiB pages, 8 open,
	 * 8 random; ~90 MB/s writes behind a 2 MiB RAM buffer filled at the bus's
	 * 200 MB/s; background operations after 200 ms of idle.
	 */
	{ "emmc51", "32GB eMMC 5.1: 2MiB RAM buffer, 512KiB erase block, 16KiB page, open 8, random 8",
	  { .size = 31268536320ull, .erasesize = 512 * KiB, .pagesize = 16 * KiB, .open_au = 8,
	    .random_au = 8, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL, .gc_defer = 1,
	    .today = { .buffer = 2 * MiB, .idle_gc_ms = 200 } },
	  { 60 * US, 200 * MBPS, 20 * US, 60 * US, 100 * US, 90 * MBPS,
	    0.5, 1 * MS, 100 * US, 60 * MBPS, 50 * US, 0 } },
	/*
	 * A 128 GB card that shows no geometry: no read boundary costs more, every
	 * block is page-mapped (no open-AU limit), a 4 GiB SLC cache at ~90 MB/s,
	 * ~27 MB/s past it (native 30%). Its SD Status names no AU size.
	 */
	{ "nogeo-128g", "128GB card, no visible geometry: page-mapped, 4GiB SLC cache",
	  { .size = 128043712512ull, .erasesize = 16 * MiB, .pagesize = 16 * KiB, .open_au = 4,
	    .random_au = 4, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .today = { .slc_cache = 4 * GiB, .native_pct = 30, .hidden = true } },
	  { 120 * US, 95 * MBPS, 30 * US, 90 * US, 250 * US, 90 * MBPS,
	    0.5, 3 * MS, 200 * US, 30 * MBPS, 50 * US, 0 } },
	/*
	 * A loop device over a file in /dev/shm (measured on the machine the
	 * tests run on, issue 22): 1 KiB reads ~13 us with no boundary costing
	 * extra, writes 1-2.5 GB/s in any pattern, rows scattered by a busy
	 * host. No translation layer: every block page-mapped.
	 */
	{ "ram", "RAM disk (a loop device over /dev/shm): no flash translation effects, a noisy host",
	  { .size = 1 * GiB, .erasesize = 4 * MiB, .pagesize = 4 * KiB, .open_au = 1, .random_au = 1,
	    .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL, .no_ftl = true,
	    .real = { .jitter_us = 20, .burst = 5 } },
	  { 12 * US, 3000 * MBPS, 0, 0, 15 * US, 2000 * MBPS,
	    0, 0, 0, 2000 * MBPS, 10 * US, 0 } },
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const struct preset *sim_find_preset(const char *name, size_t len)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strlen(presets[i].name) == len && !strncmp(presets[i].name, name, len))
			return &presets[i];
	return NULL;
}

/* ---------------------------------------------------------------- help */

const char *sim_help(void)
{
	static char text[8192];
	size_t n;
	if (text[0])
		return text;
	n = (size_t)snprintf(text, sizeof(text),
		"  A card on a virtual clock: no hardware, no root; the same spec and seed\n"
		"  give the same output. A preset comes first, keys override it; defaults\n"
		"  are those without a preset.\n"
		"  size=SIZE        capacity (default 4GiB)\n"
		"  erasesize=SIZE   erase block / allocation unit, 2^n or 3*2^n (default 4MiB)\n"
		"  pagesize=SIZE    write unit; smaller writes cost a whole page (default 16KiB)\n"
		"  open-au=N        erase blocks open for linear writing (default 2)\n"
		"  random-au=N      of those, how many may be written out of order (default 1)\n"
		"  fat-aus=N        leading erase blocks that are page-mapped (default 1)\n"
		"  noise=PCT        seeded +-PCT%% jitter on every access time (default 0)\n"
		"  seed=N           jitter seed (default 1)\n"
		"  fail-at=OFFSET   any I/O touching this byte fails with EIO\n"
		"  record=FILE      append \"W off len\" / \"D off len\" per write / discard\n"
		"  trace=FILE       append \"R|W|D off len\" per read, write and discard\n"
		"  real-size=SIZE   counterfeit: only SIZE bytes are stored (data; --capacity)\n"
		"  fake=wrap|drop   beyond real-size: wrap to offset %% real-size (default),\n"
		"                   or drop writes (reads return zeros)\n"
		"  cache=SIZE       write cache serving the last SIZE bytes written back\n"
		"  multiplane=SIZE  reads crossing a multiple cost one level more (pages\n"
		"                   read in pairs; default none)\n"
		"  group=SIZE       allocation group: reads crossing it cost more again\n"
		"  map-unit=SIZE    out-of-order writes below it rewrite the whole unit\n"
		"  claims=LIST      marks on its label, shown in its SD Status (C10,U1,A1;\n"
		"                   presets carry their card's; none for no SD Status)\n"
		"  link=SIZE/s      the reader's ceiling: no transfer is faster\n"
		"  queue=N          command queue of depth N and a cache (A2; default 0)\n"
		"  spikes=PCT       PCT%% of reads 300..800us slower (USB readers)\n"
		"  stretch=PCT      PCT%% of accesses 1.5..4x slower (a busy host)\n"
		"  drift=PCT        every cost drifts slowly by up to +-PCT%%\n"
		"  realtime=PCT     each access also lasts PCT%% of its cost in real time\n"
		"                   (a run to watch; the times reported stay the model's)\n"
		"  jitter=US        the host adds a delay to every I/O, US microseconds on\n"
		"                   average (scheduling, interrupts, USB readers)\n"
		"  burst=PCT        the host is busy PCT%% of the time, in spells of\n"
		"                   100..500ms in which every access is 2..4x slower\n"
		"  state=STATE      how the card comes in: clean (default), new (every block\n"
		"                   erased), used (blocks left open by a filesystem),\n"
		"                   after-run (left by a collapsed --open-au run), discarded\n"
		"  discard=erase|keep  a discard erases (default) or changes nothing\n"
		"  gc-defer=N       collections are postponed, up to N blocks' worth, and\n"
		"                   paid an eighth of a block with each later write\n"
		"  ftl=card|none    none: every block page-mapped, no open limit (a RAM disk)\n"
		"  slc-cache=SIZE   pseudo-SLC write cache: up to SIZE bytes written after idle\n"
		"                   go at the cached rate wherever they land; past it the\n"
		"                   native rate and the erase-block rules (default none)\n"
		"  slc-fold=RATE/s  how fast the cache is folded back while idle (default:\n"
		"                   the native rate)\n"
		"  native=PCT       the rate past the cache, %% of the cached rate (default 33)\n"
		"  buffer=SIZE      RAM write buffer: writes complete at bus speed while it\n"
		"                   has room; the card drains it, also while idle (default none)\n"
		"  idle-gc=MS       after MS ms of idle the card does its postponed collections\n"
		"                   and closes its open blocks (default never)\n"
		"  geometry=visible|hidden  hidden: no -a step, every block page-mapped (no\n"
		"                   open-AU limit), no AU size in its SD Status\n"
		"  Presets:\n");
	for (size_t i = 0; i < NPRESETS && n < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "    %-13s %s\n",
				      presets[i].name, presets[i].what);
	return text;
}

const char *const *sim_preset_names(void)
{
	static const char *names[NPRESETS + 1];
	for (size_t i = 0; i < NPRESETS; i++)
		names[i] = presets[i].name;
	return names;
}
