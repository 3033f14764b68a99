/*
 * Inference from measurements (facts: doc/flash-card-model.md §3-§7).
 *
 * -a: a boundary X is a step when the diffs of boundaries that are
 * multiples of X (X itself included) sit on a high level and those of
 * smaller boundaries on a clearly lower one. Only multiples count, so a
 * 12 MiB card is found from 12/24/48 MiB rows while 8/16 MiB rows (which
 * hit a real boundary only sometimes) are ignored. The erase size is the
 * smallest strong step; the page size the smallest step below it. On
 * tables made at the original's places no row of a 3*2^n card is a clean
 * multiple (each hits at some of its 7 places): a model fit of each row's
 * share of places on a boundary checks the answer (fit_original_pattern).
 *
 * --open-au: past the open-AU limit every write costs about one erase
 * block rewrite, so time per write stops shrinking with the block size:
 * throughput halves at each halving of the block size and the time per
 * write is a sizeable fraction of writing a whole erase block.
 */
#include "analyze.h"
#include "units.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *confidence_name(enum confidence c)
{
	switch (c) {
	case CONF_LOW: return "low";
	case CONF_MEDIUM: return "medium";
	case CONF_HIGH: return "high";
	case CONF_NONE: break;
	}
	return "none";
}

const char *collapse_name(enum collapse c)
{
	switch (c) {
	case RUN_HOLDS: return "holds";
	case RUN_COLLAPSED: return "collapsed";
	case RUN_UNCLEAR: break;
	}
	return "unclear";
}


/* ---------- small statistics ---------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	if (n <= 0)
		return 0;
	double *s = malloc(sizeof(*s) * (size_t)n);
	if (!s)
		return v[0];
	memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* Robust standard deviation: 1.4826 * median absolute deviation. */
static double robust_sigma(const double *v, int n)
{
	if (n < 2)
		return 0;
	double m = median(v, n);
	double *d = malloc(sizeof(*d) * (size_t)n);
	if (!d)
		return 0;
	for (int i = 0; i < n; i++)
		d[i] = fabs(v[i] - m);
	double s = 1.4826 * median(d, n);
	free(d);
	return s;
}

/* ---------- -a ---------- */

struct pt {
	uint64_t align;
	double d;		/* diff, ns */
	double read;		/* (pre + post) / 2, ns: the cost of a plain read */
	int positions;		/* places sampled; 0 = unknown (parsed text) */
};

static int cmp_pt_desc(const void *a, const void *b)
{
	uint64_t x = ((const struct pt *)a)->align, y = ((const struct pt *)b)->align;
	return (x < y) - (x > y);
}

/* A level step at boundary x among the points below `top`. */
struct step {
	uint64_t x;
	bool valid;
	double dx;		/* diff of the x row */
	double h, l, sep, thr, sigma_below;
	double f_on, f_below;
	double min_on, max_on, max_below;
	double local;		/* step height right around x: [x/8, x) vs multiples in [x, 8x] */
	int n_on, n_below;
};

static const struct pt *find_pt(const struct pt *p, int n, uint64_t align)
{
	for (int i = 0; i < n; i++)
		if (p[i].align == align)
			return &p[i];
	return NULL;
}

/*
 * relaxed = 0: the clean case; 1: looser, for noisy tables (low
 * confidence); GROUP_STEP: clean, but a smaller rise counts (an
 * allocation group on top of the erase-block level, an evidence line only).
 */
#define GROUP_STEP 2
static void eval_step(const struct pt *p, int n, uint64_t top, uint64_t floor, uint64_t x,
		      int relaxed, struct step *s)
{
	double on[256], below[256], on_near[256], below_near[256];
	int non = 0, nbelow = 0, non_near = 0, nbelow_near = 0;
	memset(s, 0, sizeof(*s));
	s->x = x;
	for (int i = 0; i < n && i < 256; i++) {
		uint64_t a = p[i].align;
		if (a >= top || a < floor)
			continue;
		if (a >= x && a % x == 0) {
			on[non++] = p[i].d;
			if (a <= 8 * x)
				on_near[non_near++] = p[i].d;
		} else if (a < x) {
			below[nbelow++] = p[i].d;
			if (a >= x / 8)
				below_near[nbelow_near++] = p[i].d;
		}
	}
	const struct pt *px = find_pt(p, n, x);
	/* one row alone is a step only at the top of the table, where no multiple fits */
	bool top_row = top == UINT64_MAX && floor == 0 && x == p[0].align;
	if (!px || non < (top_row ? 1 : 2) || nbelow < 1)
		return;
	s->n_on = non;
	s->n_below = nbelow;
	s->dx = px->d;
	s->h = median(on, non);
	s->l = median(below, nbelow);
	s->sep = s->h - s->l;
	s->local = median(on_near, non_near) -
		   (nbelow_near ? median(below_near, nbelow_near) : s->l);
	/*
	 * Noise: the rows just below x, or the multiples of x if those are
	 * steadier (rows below can mix a plateau with diluted rows).
	 */
	s->sigma_below = nbelow_near >= 3 ? robust_sigma(below_near, nbelow_near)
					  : robust_sigma(below, nbelow);
	if (non >= 3)
		s->sigma_below = fmin(s->sigma_below, robust_sigma(on, non));
	/*
	 * Multiples of x are high; a smaller row only counts against x when it
	 * is nearly as high (a row hitting real boundaries at some of its
	 * places reads half-way up: diluted, not a contradiction).
	 */
	s->thr = s->l + 0.5 * s->sep;
	double thr_below = s->l + 0.7 * s->sep;
	s->min_on = on[0];
	s->max_below = below[0];
	int hi = 0, lo = 0;
	s->max_on = on[0];
	for (int i = 0; i < non; i++) {
		hi += on[i] >= s->thr;
		s->min_on = fmin(s->min_on, on[i]);
		s->max_on = fmax(s->max_on, on[i]);
	}
	for (int i = 0; i < nbelow; i++) {
		lo += below[i] < thr_below;
		if (below[i] > s->max_below)
			s->max_below = below[i];
	}
	s->f_on = (double)hi / non;
	s->f_below = (double)lo / nbelow;
	double ratio = relaxed == GROUP_STEP ? GROUP_RATIO : STEP_RATIO;
	if (s->sep <= 0 || s->sep < 3 * s->sigma_below || (s->l > 0 && s->h < ratio * s->l))
		return;
	/* x itself reads like its multiples, not half-way (diluted) */
	if (s->dx < s->l + (relaxed == 1 ? 0.5 : 0.7) * s->sep)
		return;
	/* the level must hold right above x, not only far away */
	const struct pt *p2 = find_pt(p, n, 2 * x);
	if (!relaxed && p2 && 2 * x < top && p2->d < s->thr)
		return;
	double need_on = relaxed == 1 ? 0.4 : 0.6, need_below = relaxed == 1 ? 0.7 : 0.85;
	s->valid = s->f_on >= need_on && s->f_below >= need_below;
}

/*
 * The smallest strong step below top: among valid steps, those whose
 * local height is at least 0.6 of the largest (a page step is lower than
 * the erase-block step above it); false if there is none.
 */
static bool find_step(const struct pt *p, int n, uint64_t top, uint64_t floor, uint64_t max_x,
		      int relaxed, struct step *out)
{
	struct step best = { 0 };
	double max_local = 0;
	for (int pass = 0; pass < 2; pass++) {
		bool found = false;
		for (int i = n - 1; i >= 0; i--) {	/* ascending boundaries */
			if (p[i].align >= top || p[i].align <= floor || p[i].align > max_x ||
			    !is_erase_candidate(p[i].align))
				continue;
			struct step s;
			eval_step(p, n, top, floor, p[i].align, relaxed, &s);
			if (!s.valid)
				continue;
			if (pass == 0) {
				if (s.local > max_local)
					max_local = s.local;
			} else if (s.local >= 0.6 * max_local) {
				best = s;
				found = true;
				break;
			}
		}
		if (pass == 0 && max_local <= 0)
			return false;
		if (pass == 1 && found) {
			*out = best;
			return true;
		}
	}
	return false;
}

static enum confidence step_confidence(const struct step *s, double q_medium, double q_high)
{
	double margin = (s->min_on - s->max_below) / s->sep;
	double q = (s->dx - s->l) / s->sep;
	/* q: a row that reads only 0.7 of the way up may be a diluted one */
	if (s->f_on >= 1 && s->f_below >= 1 && s->n_on >= 2 && margin >= 0.25 && q >= q_high)
		return CONF_HIGH;
	if (s->f_on >= 0.8 && s->f_below >= 0.9 && margin >= 0.05 && q >= q_medium)
		return CONF_MEDIUM;
	return CONF_LOW;
}

/*
 * A 3*2^n (or larger 2^n) erase size seen through a smaller step: the
 * multiples of x2 near x are clearly above the other multiples of x,
 * which are diluted (they cross a real boundary only some of the time).
 */
static bool refine_step(const struct pt *p, int n, uint64_t x, uint64_t *x2_out,
			double *ratio_out)
{
	static const int factors[] = { 2, 3, 4, 6, 8 };
	for (size_t f = 0; f < sizeof(factors) / sizeof(factors[0]); f++) {
		uint64_t x2 = x * (uint64_t)factors[f];
		if (x2 / (uint64_t)factors[f] != x || !find_pt(p, n, x2))
			continue;
		double on[64], off[64];
		int non = 0, noff = 0;
		for (int i = 0; i < n; i++) {
			uint64_t a = p[i].align;
			if (a < x || a > 4 * x2 || a % x)
				continue;
			if (a % x2 == 0 && non < 64)
				on[non++] = p[i].d;
			else if (a % x2 && noff < 64)
				off[noff++] = p[i].d;
		}
		if (non < 1 || noff < 2)
			continue;
		double min_on = on[0], max_off = off[0];
		for (int i = 0; i < non; i++)
			min_on = fmin(min_on, on[i]);
		for (int i = 0; i < noff; i++)
			max_off = fmax(max_off, off[i]);
		double off_level = median(off, noff);
		if (off_level <= 0)
			continue;
		double ratio = median(on, non) / off_level;
		if (min_on > max_off && ratio >= 1.3) {
			*x2_out = x2;
			*ratio_out = ratio;
			return true;
		}
	}
	return false;
}

static int collect_points(const struct align_result *r, struct pt *p, int max)
{
	int n = 0;
	for (int i = 0; i < r->nrows && n < max; i++) {
		const struct align_row *row = &r->rows[i];
		if (row->failed || row->align == 0)
			continue;
		p[n].align = row->align;
		p[n].d = (double)row->diff_ns;
		p[n].read = ((double)row->pre_ns + (double)row->post_ns) / 2;
		p[n].positions = row->positions;
		n++;
	}
	qsort(p, (size_t)n, sizeof(*p), cmp_pt_desc);
	return n;
}

static void describe_step(char *ev, size_t n, const struct step *s, const char *what)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], d[FMT_BUF];
	appendf(ev, n, "%s: diff at %s and its multiples %s..%s (median %s)",
		what, fmt_size(a, s->x),
		fmt_time(b, (int64_t)s->min_on),
		fmt_time(c, (int64_t)s->max_on),
		fmt_time(d, (int64_t)s->h));
	appendf(ev, n, ", below it at most %s (median %s)",
		fmt_time(a, (int64_t)s->max_below), fmt_time(b, (int64_t)s->l));
	if (s->f_on < 1)
		appendf(ev, n, "; %d of %d multiples low", (int)lround((1 - s->f_on) * s->n_on), s->n_on);
	if (s->f_below < 1)
		appendf(ev, n, "; %d of %d smaller rows high", (int)lround((1 - s->f_below) * s->n_below),
			s->n_below);
}


static bool page_candidate(uint64_t x)
{
	return is_pow2(x) || x <= MAX_ODD_PAGE;
}

/* The smallest strong step below top that can be a page size. */
static bool find_page_step(const struct pt *p, int n, uint64_t top, struct step *s)
{
	for (int relaxed = 0; relaxed < 2; relaxed++) {
		uint64_t max_x = MAX_PAGE;
		while (find_step(p, n, top, 0, max_x, relaxed, s)) {
			if (page_candidate(s->x))
				return true;
			max_x = s->x - 1;
		}
	}
	return false;
}

/*
 * The row x/2 alone between the level below it and the step at x: pages
 * of x/2 read in pairs (multi-plane access), as in the README's example
 * (doc/flash-card-model.md §5)
 * (5us below 8KiB, 53us at 8KiB, ~150us from 16KiB: 8 KiB pages, 16 KiB
 * multi-plane).
 */
static bool single_row_level(const struct pt *p, int n, const struct step *s, double *mid)
{
	const struct pt *half = find_pt(p, n, s->x / 2);
	double below[256];
	int k = 0;
	if (!half || s->x % 2)
		return false;
	for (int i = 0; i < n && k < 256; i++)
		if (p[i].align < s->x / 2)
			below[k++] = p[i].d;
	if (k < 1)
		return false;
	double l = median(below, k), h = s->h, d = half->d;
	double noise = fmax(s->sigma_below, 0.02 * fabs(h));
	*mid = d;
	return h - l > 0 && d - l >= MID_LEVEL * (h - l) && h - d >= MID_LEVEL * (h - l) &&
	       d - l >= 3 * noise && h - d >= 3 * noise;
}

static void estimate_page(const struct pt *p, int n, uint64_t top, struct size_estimate *page)
{
	struct step s;
	if (!find_page_step(p, n, top, &s)) {
		char a[FMT_BUF], b[FMT_BUF];
		const struct pt *lowest = &p[n - 1];
		snprintf(page->evidence, sizeof(page->evidence),
			 "no step below %s: diff down to %s is %s, no lower plateau",
			 fmt_size(a, top),
			 fmt_size(b, lowest->align),
			 lowest->d > 0 ? "raised" : "flat");
		return;
	}
	page->bytes = s.x;
	page->conf = s.valid ? step_confidence(&s, 0.7, 0.75) : CONF_LOW;
	if (s.n_below < 2 && page->conf > CONF_MEDIUM)
		page->conf = CONF_MEDIUM;
	double mid;
	if (single_row_level(p, n, &s, &mid)) {
		char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];
		page->bytes = s.x / 2;
		page->multiplane = s.x;
		if (page->conf > CONF_MEDIUM)
			page->conf = CONF_MEDIUM;
		appendf(page->evidence, sizeof(page->evidence),
			"page: diff at %s is %s, between the rows below and the %s level; ",
			fmt_size(a, s.x / 2), fmt_time(b, (int64_t)mid), fmt_size(c, s.x));
		describe_step(page->evidence, sizeof(page->evidence), &s, "multi-plane (pages read in pairs)");
		return;
	}
	describe_step(page->evidence, sizeof(page->evidence), &s, "page");
}


/*
 * Devices without an erase-block structure (a loop device over a file, a
 * RAM disk) still show some step in noise: only a step that costs a
 * noticeable part of a read counts.
 */
static double typical_read(const struct pt *p, int n)
{
	double reads[256];
	int k = 0;

	for (int i = 0; i < n && k < 256; i++)
		if (p[i].read > 0)
			reads[k++] = p[i].read;
	return k ? median(reads, k) : 0;
}

static bool step_is_noise(const struct pt *p, int n, const struct step *s,
			  struct size_estimate *erase, struct size_estimate *page)
{
	double read = typical_read(p, n);
	if (read <= 0 || s->h - s->l >= NOISE_FRACTION * read)
		return false;
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];
	snprintf(erase->evidence, sizeof(erase->evidence),
		 "no boundary costs extra: the largest step (at %s) is %s, reads take %s; "
		 "this device shows no erase-block pattern", fmt_size(a, s->x),
		 fmt_time(b, (int64_t)(s->h - s->l)), fmt_time(c, (int64_t)read));
	snprintf(page->evidence, sizeof(page->evidence), "no erase-size step to measure from");
	return true;
}

static void no_step(const struct pt *p, int n, struct size_estimate *erase,
		    struct size_estimate *page)
{
	char a[FMT_BUF], b[FMT_BUF];
	double lo = p[0].d, hi = p[0].d;
	for (int i = 0; i < n; i++) {
		lo = fmin(lo, p[i].d);
		hi = fmax(hi, p[i].d);
	}
	snprintf(erase->evidence, sizeof(erase->evidence),
		 "no step in the diff column (%s..%s over %d rows)",
		 fmt_time(a, (int64_t)lo), fmt_time(b, (int64_t)hi), n);
	snprintf(page->evidence, sizeof(page->evidence), "no erase-size step to measure from");
}

/*
 * All plateaus: from the lowest strong step, climb to each higher level
 * (rows from the last step up, split again). Real cards show up to four:
 * page, multi-plane, erase block, allocation group (doc/flash-card-model.md
 * §2, §5).
 */
#define MAX_LEVELS 8
static int find_levels(const struct pt *p, int n, const struct step *first, struct step *lv)
{
	int k = 0;
	lv[k++] = *first;
	while (k < MAX_LEVELS) {
		struct step s;
		uint64_t floor = lv[k - 1].x;
		if (!find_step(p, n, UINT64_MAX, floor, UINT64_MAX, 0, &s) &&
		    !(find_step(p, n, UINT64_MAX, floor > ERASE_MAX ? floor : ERASE_MAX, UINT64_MAX,
				GROUP_STEP, &s) && floor >= ERASE_MIN))
			break;
		/* a higher level, not noise on the one below */
		double read = typical_read(p, n);
		if (s.h <= lv[k - 1].h || (read > 0 && s.sep < NOISE_FRACTION * read))
			break;
		lv[k++] = s;
	}
	return k;
}

/* A 3*2^n (or larger 2^n) erase size seen through a smaller step. */
static uint64_t refine_erase(const struct pt *p, int n, uint64_t x, struct size_estimate *erase)
{
	uint64_t x2;
	double ratio;
	for (int k = 0; k < 8 && refine_step(p, n, x, &x2, &ratio); k++) {
		char a[FMT_BUF], b[FMT_BUF];
		appendf(erase->evidence, sizeof(erase->evidence),
			"; multiples of %s are %.2fx the other multiples of %s (diluted)",
			fmt_size(a, x2), ratio, fmt_size(b, x));
		x = x2;
		if (erase->conf > CONF_MEDIUM)
			erase->conf = CONF_MEDIUM;
		if (ratio < 1.4)
			erase->conf = CONF_LOW;
	}
	return x;
}

static void note_group(struct size_estimate *erase, const struct step *s)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], d[FMT_BUF];
	erase->group = erase->group ? erase->group : s->x;
	appendf(erase->evidence, sizeof(erase->evidence),
		"%sallocation group: a further step at %s (diff %s over %s), above the largest "
		"erase block (%s)", erase->evidence[0] ? "; " : "", fmt_size(a, s->x),
		fmt_time(b, (int64_t)s->h), fmt_time(c, (int64_t)s->l), fmt_size(d, ERASE_MAX));
}

static void erase_from_step(const struct pt *p, int n, const struct step *s, bool strict,
			    struct size_estimate *erase)
{
	char ev[sizeof(erase->evidence)] = "";
	erase->bytes = s->x;
	/* stricter than for pages: a diluted 3*2^n row can read 0.7 of the way up */
	erase->conf = strict ? step_confidence(s, 0.8, 0.85) : CONF_LOW;
	if (s->n_on < 2 && erase->conf > CONF_MEDIUM)
		erase->conf = CONF_MEDIUM;
	describe_step(ev, sizeof(ev), s, "step");
	appendf(ev, sizeof(ev), "%s%s", erase->evidence[0] ? "; " : "", erase->evidence);
	memcpy(erase->evidence, ev, sizeof(ev));
	/*
	 * A 3*2^n step is told from twice its size by its own row alone, and
	 * with this sampling that row, if not a real boundary, still hits one
	 * at about half its places: two places are too few to be sure.
	 */
	const struct pt *px = find_pt(p, n, s->x);
	if (!is_pow2(s->x) && px->positions > 0 && px->positions <= 2 && erase->conf > CONF_LOW) {
		erase->conf = CONF_LOW;
		appendf(erase->evidence, sizeof(erase->evidence),
			"; the deciding row was sampled at only %d places", px->positions);
	}
	erase->bytes = refine_erase(p, n, s->x, erase);
}

static void find_align(const struct pt *p, int n, struct size_estimate *erase,
		       struct size_estimate *page)
{
	struct step s, lv[MAX_LEVELS];
	bool strict = find_step(p, n, UINT64_MAX, 0, UINT64_MAX, 0, &s);
	if (!strict && !find_step(p, n, UINT64_MAX, 0, UINT64_MAX, 1, &s)) {
		no_step(p, n, erase, page);
		return;
	}
	if (step_is_noise(p, n, &s, erase, page))
		return;
	int k = strict ? find_levels(p, n, &s, lv) : (lv[0] = s, 1);
	/* the erase block is the step into the highest level within the erase-block range */
	int e = k - 1;
	for (; e >= 0 && lv[e].x > ERASE_MAX; e--)
		note_group(erase, &lv[e]);
	if (e < 0 || lv[e].x < ERASE_MIN) {
		char a[FMT_BUF], b[FMT_BUF];
		appendf(erase->evidence, sizeof(erase->evidence),
			"%sno step between %s and %s, the sizes erase blocks have",
			erase->evidence[0] ? "; " : "", fmt_size(a, ERASE_MIN), fmt_size(b, ERASE_MAX));
		estimate_page(p, n, e + 1 < k ? lv[e + 1].x : UINT64_MAX, page);
		return;
	}
	erase_from_step(p, n, &lv[e], strict, erase);
	estimate_page(p, n, lv[e].x, page);
}

/*
 * The original's -a places (doc/card-facts.md, "The original's -a
 * places"): row A is read at k*M + A, k = 0..6, M the top row (a power of
 * two), wrapping modulo the device size. With a 3*2^n erase size E, M is
 * E/3 or 2E/3 modulo E, so only some places of each row land on an
 * erase-block boundary and every row from E/3 up reads a partial diff.
 * The size is not in the table, only that it lies in (3.5M, 7M]: it is
 * tried as (w - 1)*M + t, w = 4..7, t = M/4..M, and modulo E in steps of
 * E/12 (or "wrapped places never on a boundary").
 */
#define ORIGINAL_PLACES 7	/* measure.c align_places */
#define FIT_SHIFTS 13
struct size_guess {
	int w, quarters, shift;	/* size = (w - 1)*M + quarters*M/4, = shift*E/12 modulo E */
};

static double hit_share(uint64_t m, uint64_t a, uint64_t e, const struct size_guess *g)
{
	uint64_t wrap_at = (uint64_t)(g->w - 1) * m + (uint64_t)g->quarters * (m / 4);
	int hits = 0;
	for (int k = 0; k < ORIGINAL_PLACES; k++) {
		uint64_t place = (uint64_t)k * (m % e) % e + a % e;
		if ((uint64_t)k * m + a >= wrap_at) {
			if (g->shift == FIT_SHIFTS - 1)
				continue;	/* wrapped places never on a boundary */
			place += e - e * (uint64_t)g->shift / 12;
		}
		hits += place % e == 0;
	}
	return hits / (double)ORIGINAL_PLACES;
}

/* least squares d = b + x*f over the rows; residual sum of squares, x */
static double fit_rss(const double *f, const double *d, int n, double *x_out)
{
	double sf = 0, sd = 0, sff = 0, sfd = 0, rss = 0;
	for (int i = 0; i < n; i++) {
		sf += f[i];
		sd += d[i];
		sff += f[i] * f[i];
		sfd += f[i] * d[i];
	}
	double var = sff - sf * sf / n;
	if (var <= 1e-12)
		return -1;
	double x = (sfd - sf * sd / n) / var, b = (sd - x * sf) / n;
	for (int i = 0; i < n; i++)
		rss += (d[i] - b - x * f[i]) * (d[i] - b - x * f[i]);
	*x_out = x;
	return rss;
}

/* The best fit of erase size e over the size guesses; -1 if none rises. */
static double fit_erase(const struct pt *p, int n, uint64_t m, uint64_t e)
{
	double f[256], d[256], best = -1;
	struct size_guess g;
	for (g.w = 4; g.w <= ORIGINAL_PLACES; g.w++)
		for (g.quarters = g.w == 4 ? 2 : 1; g.quarters <= 4; g.quarters++)
			for (g.shift = 0; g.shift < FIT_SHIFTS; g.shift++) {
				for (int i = 0; i < n; i++) {
					f[i] = hit_share(m, p[i].align, e, &g);
					d[i] = p[i].d;
				}
				double x, rss = fit_rss(f, d, n, &x);
				if (rss >= 0 && x > 0 && (best < 0 || rss < best))
					best = rss;
			}
	return best;
}

static bool original_places(const struct pt *p, int n)
{
	if (!is_pow2(p[0].align))
		return false;	/* not this top row: an older version of the original */
	for (int i = 0; i < n; i++)
		if (p[i].positions && p[i].positions != ORIGINAL_PLACES)
			return false;
	return true;
}

static double total_ss(const struct pt *p, int n)
{
	double tss = 0, mean = 0;
	for (int i = 0; i < n; i++)
		mean += p[i].d / n;
	for (int i = 0; i < n; i++)
		tss += (p[i].d - mean) * (p[i].d - mean);
	return tss;
}

static uint64_t best_fitting_erase(const struct pt *p, int n, uint64_t m, uint64_t e0, double *rss)
{
	uint64_t best_e = 0;
	*rss = -1;
	for (uint64_t base = e0 / 4; base <= 8 * e0; base *= 2)
		for (int odd = 0; odd < 2; odd++) {
			uint64_t e = odd ? base / 2 * 3 : base;
			if (e == e0 || e < ERASE_MIN || e > ERASE_MAX || e > m || (odd && base % 2))
				continue;
			double r = fit_erase(p, n, m, e);
			if (r >= 0 && (*rss < 0 || r < *rss)) {
				*rss = r;
				best_e = e;
			}
		}
	return best_e;
}

/*
 * An answer from a table the original's places made: when another erase
 * size (2^n or 3*2^n, from a quarter to eight times it) predicts the full
 * / partial / no diff of every row much better, it is the answer (the step
 * found was a partial level, and an "allocation group" above it the rows
 * hitting at 3 places of 7 rather than 2).
 */
static void fit_original_pattern(const struct pt *p, int n, struct size_estimate *erase)
{
	uint64_t e0 = erase->bytes, m = p[0].align;
	struct pt rows[256];
	int k = 0;
	if (!e0 || !original_places(p, n))
		return;
	/* rows around the candidates only: allocation groups (1-2 GiB) are no part of the model */
	for (int i = 0; i < n; i++)
		if (p[i].align >= e0 / 16 && p[i].align <= fmax(2 * ERASE_MAX, 16.0 * e0) && k < 256)
			rows[k++] = p[i];
	if (k < 8)
		return;
	double tss = total_ss(rows, k), rss0 = fit_erase(rows, k, m, e0), best;
	uint64_t best_e = best_fitting_erase(rows, k, m, e0, &best);
	if (!best_e || tss <= 0 || best > 0.2 * tss)
		return;
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];
	double r2 = 1 - best / tss, r2_0 = rss0 >= 0 ? 1 - rss0 / tss : 0;
	if (rss0 >= 0 && best >= 0.5 * rss0) {
		if (best < rss0 && erase->conf > CONF_LOW) {
			/* better, not clearly: the answer stands, unsure */
			erase->conf = CONF_LOW;
			appendf(erase->evidence, sizeof(erase->evidence),
				"; at the original's places a %s erase block fits the diffs about as "
				"well (R^2 %.2f, %s: %.2f)", fmt_size(a, best_e), r2,
				fmt_size(b, e0), r2_0);
		}
		return;
	}
	snprintf(erase->evidence, sizeof(erase->evidence),
		 "the original's places (k x %s + A, k = 0..6) hit a %s boundary at a share of "
		 "each row's places that fits the diffs (R^2 %.2f; a %s erase block: %.2f): "
		 "the step at %s is a partial level", fmt_size(a, m), fmt_size(b, best_e), r2,
		 fmt_size(c, e0), r2_0 < 0 ? 0 : r2_0, c);
	erase->bytes = best_e;
	erase->group = 0;
	erase->conf = r2 >= 0.95 && (rss0 < 0 || best < 0.1 * rss0) ? CONF_MEDIUM : CONF_LOW;
}

/* A failed row near x (within a factor of 4) could have held the step. */
static bool failed_near(const struct align_result *r, uint64_t x)
{
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].failed && r->rows[i].align >= x / 4 && r->rows[i].align <= 4 * x)
			return true;
	return false;
}

/*
 * Failed rows (doc/card-facts.md, "Failed rows"): every verdict built on a table with holes
 * is less sure, one next to a hole at most low; with fewer good rows than
 * failed ones (or fewer than MIN_GOOD_ROWS) there is no verdict at all.
 */
static void discount_failed(const struct align_result *r, uint64_t below, struct size_estimate *est)
{
	int failed = 0, good = 0;
	/* power-of-two rows: the original's table; the 3*2^n rows between only refine it */
	for (int i = 0; i < r->nrows; i++) {
		if (r->rows[i].align >= below || !is_pow2(r->rows[i].align))
			continue;
		failed += r->rows[i].failed;
		good += !r->rows[i].failed;
	}
	if (!failed)
		return;
	if (good < (below == UINT64_MAX ? MIN_GOOD_ROWS : 2) || good < failed) {
		est->bytes = 0;
		est->multiplane = est->group = 0;
		est->conf = CONF_NONE;
		snprintf(est->evidence, sizeof(est->evidence),
			 "%d of %d -a rows%s failed: too few good rows to tell", failed, failed + good,
			 below == UINT64_MAX ? "" : " below the erase size");
		return;
	}
	enum confidence cap = est->bytes && failed_near(r, est->bytes) ? CONF_LOW : CONF_MEDIUM;
	if (est->conf > cap)
		est->conf = cap;
	appendf(est->evidence, sizeof(est->evidence), "; %d of %d rows failed", failed, failed + good);
}

void analyze_align(const struct align_result *r, struct size_estimate *erase,
		   struct size_estimate *page)
{
	struct pt p[256];
	memset(erase, 0, sizeof(*erase));
	memset(page, 0, sizeof(*page));
	int n = r ? collect_points(r, p, 256) : 0;
	if (n < 3) {
		snprintf(erase->evidence, sizeof(erase->evidence), "too few -a rows (%d)", n);
		snprintf(page->evidence, sizeof(page->evidence), "too few -a rows (%d)", n);
		return;
	}
	find_align(p, n, erase, page);
	fit_original_pattern(p, n, erase);
	discount_failed(r, UINT64_MAX, erase);
	discount_failed(r, erase->bytes ? erase->bytes : UINT64_MAX, page);
}

/*
 * sysfs preferred_erase_size (the SD AU_SIZE, or eMMC's erase group) is a
 * second witness. Cards report the AU, and an AU is often two or four
 * erase blocks (doc/card-facts.md, second witnesses: 2 x 2 MB = 4 MB), so a pref of 2x or 4x the
 * -a reading is consistent; anything else is a disagreement, said and
 * paid for with one confidence level. No -a step: the pref is the
 * fallback the experts use (doc/flash-card-model.md §7), at low confidence.
 */
void analyze_cross_check_erase(struct size_estimate *erase, uint64_t pref, const char *source)
{
	char a[FMT_BUF], b[FMT_BUF];
	if (!pref || !is_erase_candidate(pref))
		return;
	const char *sep = erase->evidence[0] ? "; " : "";
	if (!erase->bytes) {
		if (erase->conf == CONF_NONE && strstr(erase->evidence, "rows failed"))
			return;
		erase->bytes = pref;
		erase->conf = CONF_LOW;
		appendf(erase->evidence, sizeof(erase->evidence), "%staken from %s %s (no -a step)",
			sep, source, fmt_size(a, pref));
		return;
	}
	if (pref == erase->bytes) {
		appendf(erase->evidence, sizeof(erase->evidence), "%s%s agrees", sep, source);
		return;
	}
	if (pref > erase->bytes && pref % erase->bytes == 0 && pref / erase->bytes <= 4 &&
	    is_pow2(pref / erase->bytes)) {
		appendf(erase->evidence, sizeof(erase->evidence),
			"%s%s %s is %llu erase blocks (an allocation unit)", sep, source,
			fmt_size(a, pref), (unsigned long long)(pref / erase->bytes));
		return;
	}
	appendf(erase->evidence, sizeof(erase->evidence), "%s%s says %s, -a says %s: they disagree",
		sep, source, fmt_size(a, pref), fmt_size(b, erase->bytes));
	if (erase->conf > CONF_LOW)
		erase->conf--;
}

/* ---------- --open-au ---------- */


static bool row_ok(const struct rate_row *row)
{
	return row->ncols > 0 && !row->failed[0] && row->rate[0] > 0 && isfinite(row->rate[0]);
}

static double max_rate(const struct rate_result *r)
{
	double m = 0;
	for (int i = 0; i < r->nrows; i++)
		if (row_ok(&r->rows[i]) && r->rows[i].rate[0] > m)
			m = r->rows[i].rate[0];
	return m;
}

struct run_look {
	enum collapse verdict;
	uint64_t at;		/* block size where the collapse was clear */
	double time_per_write;	/* there, seconds */
	double gc_fraction;
	uint64_t smallest;	/* smallest block size looked at */
	int longest_stretch;	/* most halving steps in a row */
};

static void look_at_run(const struct rate_result *r, uint64_t page, struct run_look *out)
{
	memset(out, 0, sizeof(*out));
	out->verdict = RUN_UNCLEAR;
	if (!r || r->nrows < 1)
		return;
	if (page > MAX_PAGE_HINT)
		page = MAX_PAGE_HINT;
	uint64_t e = r->erasesize ? r->erasesize : r->rows[0].blocksize;
	double rref = max_rate(r);
	if (rref <= 0 || e == 0)
		return;
	double tref = (double)e / rref;
	int stretch = 0;
	uint64_t stretch_top = 0;	/* block size before the first halving step */
	bool suspicious = false;
	for (int k = 1; k < r->nrows; k++) {
		const struct rate_row *prev = &r->rows[k - 1], *row = &r->rows[k];
		if (!row_ok(row) || (page && row->blocksize < page))
			continue;
		if (!out->smallest || row->blocksize < out->smallest)
			out->smallest = row->blocksize;
		if (!row_ok(prev) || prev->blocksize != 2 * row->blocksize) {
			stretch = 0;
			continue;
		}
		double t = (double)row->blocksize / row->rate[0];
		double g = t / tref;
		stretch = row->rate[0] <= STEP_COLLAPSE * prev->rate[0] ? stretch + 1 : 0;
		if (stretch == 1)
			stretch_top = prev->blocksize;
		if (stretch > out->longest_stretch)
			out->longest_stretch = stretch;
		/*
		 * Time per write near an erase-block rewrite is a collapse at any
		 * size; a smaller constant time (garbage collection of a partly
		 * written block) counts when it starts well above the page size,
		 * where sub-page writes cannot explain it.
		 */
		bool big_start = stretch_top >= 4 * (page ? page : 16384) && stretch_top >= MIN_GC_START;
		if (stretch >= 2 && (g >= GC_FRACTION || (g >= WEAK_GC_FRACTION && big_start))) {
			out->verdict = RUN_COLLAPSED;
			out->at = row->blocksize;
			out->time_per_write = t;
			out->gc_fraction = g;
			return;
		}
		if (stretch >= 1 && g >= 2 * GC_FRACTION && row->blocksize <= e / 4)
			suspicious = true;
	}
	bool complete = !r->st.partial && (!r->blocksize || out->smallest <= r->blocksize ||
					   (page && out->smallest < 2 * page));
	if (out->smallest && (complete || out->smallest <= e / 32))
		out->verdict = suspicious ? RUN_UNCLEAR : RUN_HOLDS;
}

enum collapse analyze_open_au_run(const struct rate_result *r, uint64_t pagesize_hint)
{
	struct run_look l;
	look_at_run(r, pagesize_hint, &l);
	return l.verdict;
}

/* Median over shared block sizes (page..E/2) of rate(b) / rate(a). 0 if none shared. */
static double median_rate_ratio(const struct rate_result *a, const struct rate_result *b,
				uint64_t page, uint64_t max_bs)
{
	double v[64];
	int n = 0;
	if (page > MAX_PAGE_HINT)
		page = MAX_PAGE_HINT;
	for (int i = 0; i < a->nrows; i++) {
		const struct rate_row *ra = &a->rows[i];
		if (!row_ok(ra) || ra->blocksize > max_bs || (page && ra->blocksize < page))
			continue;
		for (int j = 0; j < b->nrows && n < 64; j++) {
			const struct rate_row *rb = &b->rows[j];
			if (rb->blocksize == ra->blocksize && row_ok(rb))
				v[n++] = rb->rate[0] / ra->rate[0];
		}
	}
	return n ? median(v, n) : 0;
}

double analyze_open_au_gain(const struct rate_result *smaller_e, const struct rate_result *bigger_e,
			    uint64_t pagesize_hint)
{
	if (!smaller_e || !bigger_e || smaller_e->erasesize >= bigger_e->erasesize)
		return 0;
	return median_rate_ratio(smaller_e, bigger_e, pagesize_hint, smaller_e->erasesize / 2);
}

/* One verdict per N: repeated runs with the same N must agree. */
static enum collapse merge_verdicts(enum collapse a, enum collapse b)
{
	if (a == b)
		return a;
	if (a == RUN_UNCLEAR)
		return b;
	if (b == RUN_UNCLEAR)
		return a;
	return RUN_UNCLEAR;
}

static void list_nrs(char *ev, size_t n, const char *label, const long long *nrs,
		     const enum collapse *v, int count, enum collapse want)
{
	bool any = false;
	for (int i = 0; i < count; i++) {
		if (v[i] != want)
			continue;
		appendf(ev, n, "%s%lld", any ? "," : label, nrs[i]);
		any = true;
	}
	if (any)
		appendf(ev, n, "; ");
}

/* The --open-au runs by N, ascending; runs with the same N merged. */
struct series {
	int m;
	long long un[256];			/* the distinct N */
	enum collapse uv[256];			/* their (merged) verdicts */
	const struct rate_result *first_run[256];
	struct run_look looks[256];		/* a collapsed look wins over a holding one */
};

static void gather_runs(const struct rate_result *const *runs, const long long *nrs, int nruns,
			uint64_t pagesize_hint, struct series *s)
{
	s->m = 0;
	for (int i = 0; i < nruns && i < 256; i++) {
		if (!runs[i] || nrs[i] < 1)
			continue;
		struct run_look l;
		look_at_run(runs[i], pagesize_hint, &l);
		int j;
		for (j = 0; j < s->m; j++)
			if (s->un[j] == nrs[i])
				break;
		if (j < s->m) {
			s->uv[j] = merge_verdicts(s->uv[j], l.verdict);
			if (l.verdict == RUN_COLLAPSED && s->looks[j].verdict != RUN_COLLAPSED)
				s->looks[j] = l;
			continue;
		}
		/* keep ascending order */
		int pos = s->m;
		while (pos > 0 && s->un[pos - 1] > nrs[i]) {
			s->un[pos] = s->un[pos - 1];
			s->uv[pos] = s->uv[pos - 1];
			s->looks[pos] = s->looks[pos - 1];
			s->first_run[pos] = s->first_run[pos - 1];
			pos--;
		}
		s->un[pos] = nrs[i];
		s->uv[pos] = l.verdict;
		s->looks[pos] = l;
		s->first_run[pos] = runs[i];
		s->m++;
	}
}

/*
 * A run that "holds" on its own but is far slower for small writes
 * than the N before it, with throughput halving per halving of the
 * block size, collapsed too (garbage collection cheaper than a whole
 * erase-block rewrite, as in random mode). Returns the first such run, or -1.
 */
static int mark_relative_collapses(struct series *s, uint64_t pagesize_hint)
{
	int relative = -1;
	for (int i = 1; i < s->m; i++) {
		if (s->uv[i] != RUN_HOLDS || s->uv[i - 1] != RUN_HOLDS ||
		    s->looks[i].longest_stretch < 2)
			continue;
		double g = median_rate_ratio(s->first_run[i], s->first_run[i - 1], pagesize_hint,
					     s->first_run[i - 1]->erasesize / 8);
		if (g >= 2) {
			s->uv[i] = RUN_COLLAPSED;
			if (relative < 0)
				relative = i;
		}
	}
	return relative;
}

static int first_collapse(const struct series *s)
{
	for (int i = 0; i < s->m; i++)
		if (s->uv[i] == RUN_COLLAPSED)
			return i;
	return -1;
}

/* No run collapsed: at least the largest N that held. */
static void count_without_collapse(const struct series *s, struct count_estimate *out)
{
	int last_hold = -1;
	bool unclear = false;
	for (int i = 0; i < s->m; i++) {
		if (s->uv[i] == RUN_HOLDS)
			last_hold = i;
		else
			unclear = true;
	}
	if (last_hold < 0) {
		appendf(out->evidence, sizeof(out->evidence), "no clear run");
		return;
	}
	out->n = (int)s->un[last_hold];
	out->at_least = true;
	out->conf = unclear ? CONF_MEDIUM : CONF_HIGH;
	appendf(out->evidence, sizeof(out->evidence), "no collapse seen up to N=%lld",
		s->un[last_hold]);
}

/* The count below the first collapse fc, and how sure it is. */
static void count_below_collapse(const struct series *s, int fc, struct count_estimate *out)
{
	int last_hold = -1;
	bool unclear_between = false;
	for (int i = 0; i < fc; i++) {
		if (s->uv[i] == RUN_HOLDS) {
			last_hold = i;
			unclear_between = false;
		} else {
			unclear_between = true;
		}
	}
	long long held = last_hold >= 0 ? s->un[last_hold] : 0;
	out->n = (int)(s->un[fc] == 1 ? 0 : (last_hold >= 0 ? held : s->un[fc] - 1));
	/*
	 * A card writes at least one erase block linearly at full speed:
	 * a linear collapse at N=1 means the erase size or the
	 * measurement is wrong (doc/card-facts.md, writes). Random mode may
	 * hold none.
	 */
	if (s->un[fc] == 1 && !s->first_run[fc]->random) {
		out->conf = CONF_LOW;
		appendf(out->evidence, sizeof(out->evidence),
			"a linear collapse at N=1 is not physical: the erase size may be larger, "
			"or the run was disturbed; rerun with twice the --erasesize; ");
	} else if (s->un[fc] == 1)
		out->conf = CONF_HIGH;
	else if (last_hold < 0)
		out->conf = CONF_LOW;	/* nothing measured below the collapse */
	else if (held == s->un[fc] - 1 && !unclear_between)
		out->conf = CONF_HIGH;
	else if (held == s->un[fc] - 1 || unclear_between)
		out->conf = CONF_MEDIUM;
	else
		out->conf = CONF_LOW;	/* untested gap between held and collapsed */
}

static void describe_collapse(const struct series *s, int fc, int relative,
			      struct count_estimate *out)
{
	char a[FMT_BUF], b[FMT_BUF];
	const struct run_look *l = &s->looks[fc];
	if (fc == relative)
		appendf(out->evidence, sizeof(out->evidence),
			"at N=%lld small writes are over 2x slower than at N=%lld, throughput halving with the block size",
			s->un[fc], s->un[fc - 1]);
	else
		appendf(out->evidence, sizeof(out->evidence),
			"at N=%lld, %s writes take %s each (%.0f%% of rewriting an erase block)",
			s->un[fc], fmt_size(a, l->at),
			fmt_time(b, (int64_t)(l->time_per_write * 1e9)), 100 * l->gc_fraction);
}

/* all collapsed, yet a larger N is clearly slower: a second limit */
static void note_second_limit(const struct series *s, int fc, uint64_t pagesize_hint,
			      struct count_estimate *out)
{
	for (int i = fc + 1; i < s->m && out->n == 0; i++) {
		double g = median_rate_ratio(s->first_run[i], s->first_run[fc], pagesize_hint,
					     s->first_run[fc]->erasesize / 2);
		if (s->uv[i] == RUN_COLLAPSED && g >= 1.5) {
			appendf(out->evidence, sizeof(out->evidence),
				"; N=%lld is %.1fx slower than N=%lld", s->un[i], g, s->un[i - 1]);
			if (out->conf > CONF_MEDIUM)
				out->conf = CONF_MEDIUM;
			break;
		}
	}
}

static void count_from_collapse(const struct series *s, int fc, int relative,
				uint64_t pagesize_hint, struct count_estimate *out)
{
	bool holds_above = false;
	for (int i = fc + 1; i < s->m; i++)
		holds_above |= s->uv[i] == RUN_HOLDS;
	count_below_collapse(s, fc, out);
	describe_collapse(s, fc, relative, out);
	if (holds_above) {
		out->conf = CONF_LOW;
		appendf(out->evidence, sizeof(out->evidence), "; holds again at a larger N");
	}
	note_second_limit(s, fc, pagesize_hint, out);
}

/* throughput that drops clearly between two holding runs */
static void note_slowdown_between_holds(const struct series *s, uint64_t pagesize_hint,
					struct count_estimate *out)
{
	for (int i = 1; i < s->m; i++) {
		if (s->uv[i] != RUN_HOLDS || s->uv[i - 1] != RUN_HOLDS)
			continue;
		double g = median_rate_ratio(s->first_run[i], s->first_run[i - 1], pagesize_hint,
					     s->first_run[i - 1]->erasesize / 2);
		if (g >= 1.25) {
			appendf(out->evidence, sizeof(out->evidence),
				"; small writes %.0f%% slower from N=%lld to N=%lld", 100 * (1 - 1 / g),
				s->un[i - 1], s->un[i]);
			break;
		}
	}
}

void analyze_open_au_series(const struct rate_result *const *runs, const long long *nrs, int nruns,
			    uint64_t pagesize_hint, struct count_estimate *out)
{
	struct series s;
	memset(out, 0, sizeof(*out));
	gather_runs(runs, nrs, nruns, pagesize_hint, &s);
	if (s.m == 0) {
		snprintf(out->evidence, sizeof(out->evidence), "no --open-au runs");
		return;
	}
	int relative = mark_relative_collapses(&s, pagesize_hint);
	list_nrs(out->evidence, sizeof(out->evidence), "holds at N=", s.un, s.uv, s.m, RUN_HOLDS);
	list_nrs(out->evidence, sizeof(out->evidence), "collapses at N=", s.un, s.uv, s.m,
		 RUN_COLLAPSED);
	list_nrs(out->evidence, sizeof(out->evidence), "unclear at N=", s.un, s.uv, s.m, RUN_UNCLEAR);
	int fc = first_collapse(&s);
	if (fc < 0) {
		count_without_collapse(&s, out);
		if (out->n == 0)
			return;	/* no clear run */
	} else {
		count_from_collapse(&s, fc, relative, pagesize_hint, out);
	}
	note_slowdown_between_holds(&s, pagesize_hint, out);
}

/* ---------- --find-fat ---------- */

/* Rows for small writes (<= E/8) with every column measured. */
static int small_fat_rows(const struct rate_result *r, uint64_t e, int ncols, const struct rate_row **out)
{
	int n = 0;
	for (int i = 0; i < r->nrows && n < 64; i++) {
		const struct rate_row *row = &r->rows[i];
		bool bad = row->blocksize > e / 8;
		for (int c = 0; c < ncols && !bad; c++)
			bad = row->failed[c] || !(row->rate[c] > 0) || !isfinite(row->rate[c]);
		if (!bad)
			out[n++] = row;
	}
	return n;
}

/*
 * Leading k columns against the rest: the share of small-write rows where
 * each of the first k is faster than every later one, and how much faster
 * than the typical later one (median over rows).
 */
static double fat_split(const struct rate_row *const *rows, int n, int ncols, int k, double *speedup)
{
	int wins = 0;
	double ratio[64];
	for (int i = 0; i < n; i++) {
		double lead = rows[i]->rate[0], rest_max = 0, rest[RATE_MAX_COLS];
		for (int c = 1; c < k; c++)
			lead = fmin(lead, rows[i]->rate[c]);
		for (int c = k; c < ncols; c++) {
			rest[c - k] = rows[i]->rate[c];
			rest_max = fmax(rest_max, rows[i]->rate[c]);
		}
		wins += lead >= 1.05 * rest_max;
		ratio[i] = lead / median(rest, ncols - k);
	}
	*speedup = median(ratio, n);
	return (double)wins / n;
}

void analyze_find_fat(const struct rate_result *r, struct fat_estimate *out)
{
	memset(out, 0, sizeof(*out));
	if (!r || r->nrows < 1) {
		snprintf(out->evidence, sizeof(out->evidence), "no --find-fat rows");
		return;
	}
	uint64_t e = r->erasesize ? r->erasesize : r->rows[0].blocksize;
	int ncols = RATE_MAX_COLS;
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].ncols < ncols)
			ncols = r->rows[i].ncols;
	const struct rate_row *rows[64];
	int n = small_fat_rows(r, e, ncols, rows);
	char a[FMT_BUF];
	if (n < 2 || ncols < 3) {
		snprintf(out->evidence, sizeof(out->evidence),
			 "too few small-write rows (%d) or columns (%d)", n, ncols);
		return;
	}
	int best_k = 0;
	double best_share = 0, best_speedup = 0;
	for (int k = 1; k <= ncols / 2; k++) {
		double speedup, share = fat_split(rows, n, ncols, k, &speedup);
		if (share > best_share) {
			best_share = share;
			best_speedup = speedup;
			best_k = k;
		}
	}
	if (best_share >= 0.7 && best_speedup >= 1.15) {
		out->aus = best_k;
		out->bytes = (uint64_t)best_k * e;
		out->conf = best_share >= 0.85 && best_speedup >= 1.5 ? CONF_HIGH :
			    best_share >= 0.7 && best_speedup >= 1.25 ? CONF_MEDIUM : CONF_LOW;
		snprintf(out->evidence, sizeof(out->evidence),
			 "first %d column%s %.1fx the rest, faster in %d of %d rows for writes <= %s",
			 best_k, best_k > 1 ? "s" : "", best_speedup, (int)lround(best_share * n), n,
			 fmt_size(a, e / 8));
		return;
	}
	out->conf = best_share < 0.4 && n >= 3 ? CONF_HIGH : CONF_MEDIUM;
	if (best_share >= 0.5)
		out->conf = CONF_LOW;
	snprintf(out->evidence, sizeof(out->evidence),
		 "first erase blocks not faster than the rest for writes <= %s (%d rows, %d columns)",
		 fmt_size(a, e / 8), n, ncols);
}
