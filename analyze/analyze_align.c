/*
 * Reading -a tables (facts: doc/flash-card-model.md §3-§7): plateaus,
 * page, multi-plane, erase-block size, allocation group.
 *
 * A boundary X is a step when the diffs of boundaries that are
 * multiples of X (X itself included) sit on a high level and those of
 * smaller boundaries on a clearly lower one. Only multiples count, so a
 * 12 MiB card is found from 12/24/48 MiB rows while 8/16 MiB rows (which
 * hit a real boundary only sometimes) are ignored. The erase size is the
 * smallest strong step; the page size the smallest step below it. On
 * tables made at the original's places no row of a 3*2^n card is a clean
 * multiple (each hits at some of its 7 places): a model fit of each row's
 * share of places on a boundary checks the answer (analyze_fit_original_pattern,
 * analyze/analyze_align_fit.c).
 */
#include "analyze/analyze.h"
#include "analyze/analyze_internal.h"
#include "lib/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	s->h = analyze_median(on, non);
	s->l = analyze_median(below, nbelow);
	s->sep = s->h - s->l;
	s->local = analyze_median(on_near, non_near) -
		   (nbelow_near ? analyze_median(below_near, nbelow_near) : s->l);
	/*
	 * Noise: the rows just below x, or the multiples of x if those are
	 * steadier (rows below can mix a plateau with diluted rows).
	 */
	s->sigma_below = nbelow_near >= 3 ? analyze_robust_sigma(below_near, nbelow_near)
					  : analyze_robust_sigma(below, nbelow);
	if (non >= 3)
		s->sigma_below = fmin(s->sigma_below, analyze_robust_sigma(on, non));
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
			    !units_is_erase_candidate(p[i].align))
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
		double off_level = analyze_median(off, noff);
		if (off_level <= 0)
			continue;
		double ratio = analyze_median(on, non) / off_level;
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
	fmt_append(ev, n, "%s: diff at %s and its multiples %s..%s (median %s)",
		what, fmt_size(a, s->x),
		fmt_time(b, (int64_t)s->min_on),
		fmt_time(c, (int64_t)s->max_on),
		fmt_time(d, (int64_t)s->h));
	fmt_append(ev, n, ", below it at most %s (median %s)",
		fmt_time(a, (int64_t)s->max_below), fmt_time(b, (int64_t)s->l));
	if (s->f_on < 1)
		fmt_append(ev, n, "; %d of %d multiples low", (int)lround((1 - s->f_on) * s->n_on), s->n_on);
	if (s->f_below < 1)
		fmt_append(ev, n, "; %d of %d smaller rows high", (int)lround((1 - s->f_below) * s->n_below),
			s->n_below);
}


static bool page_candidate(uint64_t x)
{
	return is_pow2(x) || x <= MAX_ODD_PAGE;
}

/*
 * A page step stands above the noise of its own table. A read across a
 * boundary costs no less than the reads beside it, so a level below zero
 * is noise, as deep as it sinks: the level of the step must rise above
 * zero by a share of that depth, not merely above the dip (rows of ~130ns
 * over one row at -9us are no 3 KiB page, nor rows of ~130ns over two such
 * rows a 4 KiB one: issue 28). A 3*2^n page below 4 KiB is none NAND has:
 * it takes a high-confidence step over two rows or more.
 */
static bool page_step_stands(const struct step *s)
{
	if (s->l < 0 && s->h < PAGE_OVER_DIP * -s->l)
		return false;
	return is_pow2(s->x) || s->x >= 4096 ||
	       (s->valid && s->n_below >= 2 && step_confidence(s, 0.7, 0.75) == CONF_HIGH);
}

/* The smallest strong step below top that can be a page size. */
static bool find_page_step(const struct pt *p, int n, uint64_t top, struct step *s)
{
	for (int relaxed = 0; relaxed < 2; relaxed++) {
		uint64_t max_x = MAX_PAGE;
		while (find_step(p, n, top, 0, max_x, relaxed, s)) {
			if (page_candidate(s->x) && page_step_stands(s))
				return true;
			max_x = s->x - 1;
		}
	}
	return false;
}

/*
 * The rows from y up to x/2 on a level of their own between the floor
 * (the rows below y) and the step at x: pages of y read in groups of x
 * (multi-plane access). One row wide as in the README's example
 * (doc/flash-card-model.md §5: 5us below 8KiB, 53us at 8KiB, ~150us from
 * 16KiB: 8 KiB pages, 16 KiB multi-plane), or several (the Gentoo PQI
 * 32 GB card in doc/real-cards.tsv: ~290us at 4K and 8K, ~850us from 16K:
 * 4 KiB pages in groups of 16 KiB). The widest such level is the page.
 */
static bool lower_level(const struct pt *p, int n, const struct step *s, uint64_t *page,
			double *mid)
{
	bool found = false;
	for (uint64_t y = s->x / 2; y >= 1 && y % 2 == 0 && is_pow2(y); y /= 2) {
		double below[256], lo_max = -INFINITY, mid_min = INFINITY, mid_max = -INFINITY;
		double level[64];
		int k = 0, m = 0;
		for (int i = 0; i < n; i++) {
			if (p[i].align < y && k < 256) {
				below[k++] = p[i].d;
				lo_max = fmax(lo_max, p[i].d);
			} else if (p[i].align < s->x && is_pow2(p[i].align) && m < 64) {
				level[m++] = p[i].d;
				mid_min = fmin(mid_min, p[i].d);
				mid_max = fmax(mid_max, p[i].d);
			}
		}
		if (k < 1 || m < 1)
			break;
		double l = analyze_median(below, k), h = s->h, sep = h - l, md = analyze_median(level, m);
		/* scatter grows with the diff: the lower gap is judged at the mid level's height */
		double noise = fmax(s->sigma_below, 0.02 * fabs(h));
		double noise_mid = h > 0 && md > 0 ? noise * fmin(1, md / h) : noise;
		if (sep <= 0 || mid_min - lo_max < MID_LEVEL * sep || mid_min - lo_max < 3 * noise_mid ||
		    h - mid_max < MID_LEVEL * sep || h - mid_max < 3 * noise)
			continue;
		*page = y;
		*mid = md;
		found = true;
	}
	return found;
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
	uint64_t y;
	if (lower_level(p, n, &s, &y, &mid)) {
		char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], d[FMT_BUF];
		page->bytes = y;
		page->multiplane = s.x;
		if (page->conf > CONF_MEDIUM)
			page->conf = CONF_MEDIUM;
		fmt_append(page->evidence, sizeof(page->evidence),
			"page: diff from %s to %s is %s, between the rows below and the %s level; ",
			fmt_size(a, y), fmt_size(d, s.x / 2), fmt_time(b, (int64_t)mid), fmt_size(c, s.x));
		describe_step(page->evidence, sizeof(page->evidence), &s,
			      s.x == 2 * y ? "multi-plane (pages read in pairs)"
					   : "multi-plane (pages read in groups)");
		/* one row between (pairs): diluted as often as a page; a level of two rows or more
		 * stands (the PQI card's 290us over 4 and 8 KiB under 1.02ms, doc/real-cards.tsv) */
		if (page->conf > CONF_LOW && s.x == 2 * y && mid < PAGE_MID_SURE * s.h) {
			page->conf = CONF_LOW;
			fmt_append(page->evidence, sizeof(page->evidence), "; the level between is under "
				   "%.0f%% of the step above it: a diluted row as much as a page",
				   100 * PAGE_MID_SURE);
		}
		return;
	}
	describe_step(page->evidence, sizeof(page->evidence), &s, "page");
	if (page->conf > CONF_LOW && s.h > 0 && s.max_below >= PAGE_BELOW_HIDES * s.h) {
		page->conf = CONF_LOW;
		fmt_append(page->evidence, sizeof(page->evidence), "; a smaller row reaches %.0f%% of "
			   "the step or more: a page read in groups at %s leaves a row like that",
			   100 * PAGE_BELOW_HIDES, fmt_size((char[FMT_BUF]){ 0 }, s.x));
	}
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
	return k ? analyze_median(reads, k) : 0;
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
		fmt_append(erase->evidence, sizeof(erase->evidence),
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
	fmt_append(erase->evidence, sizeof(erase->evidence),
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
	fmt_append(ev, sizeof(ev), "%s%s", erase->evidence[0] ? "; " : "", erase->evidence);
	memcpy(erase->evidence, ev, sizeof(ev));
	/*
	 * A 3*2^n step is told from twice its size by its own row alone, and
	 * with this sampling that row, if not a real boundary, still hits one
	 * at about half its places: two places are too few to be sure.
	 */
	const struct pt *px = find_pt(p, n, s->x);
	if (!is_pow2(s->x) && px->positions > 0 && px->positions <= 2 && erase->conf > CONF_LOW) {
		erase->conf = CONF_LOW;
		fmt_append(erase->evidence, sizeof(erase->evidence),
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
		fmt_append(erase->evidence, sizeof(erase->evidence),
			"%sno step between %s and %s, the sizes erase blocks have",
			erase->evidence[0] ? "; " : "", fmt_size(a, ERASE_MIN), fmt_size(b, ERASE_MAX));
		estimate_page(p, n, e + 1 < k ? lv[e + 1].x : UINT64_MAX, page);
		return;
	}
	erase_from_step(p, n, &lv[e], strict, erase);
	estimate_page(p, n, lv[e].x, page);
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
	fmt_append(est->evidence, sizeof(est->evidence), "; %d of %d rows failed", failed, failed + good);
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
	struct align_ladder ladder;
	if (analyze_align_ladder(p, n, typical_read(p, n), &ladder)) {
		analyze_align_name_levels(&ladder, erase, page);
	} else {
		find_align(p, n, erase, page);
		analyze_align_name_lower_levels(&ladder, erase, page);
	}
	analyze_fit_original_pattern(p, n, erase);
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
	if (!pref || !units_is_erase_candidate(pref))
		return;
	const char *sep = erase->evidence[0] ? "; " : "";
	if (!erase->bytes) {
		if (erase->conf == CONF_NONE && strstr(erase->evidence, "rows failed"))
			return;
		erase->bytes = pref;
		erase->conf = CONF_LOW;
		fmt_append(erase->evidence, sizeof(erase->evidence), "%staken from %s %s (no -a step)",
			sep, source, fmt_size(a, pref));
		return;
	}
	if (pref == erase->bytes) {
		fmt_append(erase->evidence, sizeof(erase->evidence), "%s%s agrees", sep, source);
		return;
	}
	if (pref > erase->bytes && pref % erase->bytes == 0 && pref / erase->bytes <= 4 &&
	    is_pow2(pref / erase->bytes)) {
		fmt_append(erase->evidence, sizeof(erase->evidence),
			"%s%s %s is %llu erase blocks (an allocation unit)", sep, source,
			fmt_size(a, pref), (unsigned long long)(pref / erase->bytes));
		return;
	}
	fmt_append(erase->evidence, sizeof(erase->evidence), "%s%s says %s, -a says %s: they disagree",
		sep, source, fmt_size(a, pref), fmt_size(b, erase->bytes));
	if (erase->conf > CONF_LOW)
		erase->conf--;
}

