#include "vm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>


volatile sig_atomic_t vm_stop_requested;

/* ---- arena: ops and results of one program live and die together ---- */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct vm_program {
	struct chunk *chunks;
};

static void *arena_alloc(struct vm_program *p, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct chunk *c = p->chunks;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		c = malloc(sizeof *c + cap);
		if (!c)
			abort();	/* out of memory before any result exists */
		c->next = p->chunks;
		c->used = 0;
		c->cap = cap;
		p->chunks = c;
	}
	void *r = (char *)c->data + c->used;
	c->used += n;
	memset(r, 0, n);
	return r;
}

struct vm_program *vm_new_program(void)
{
	struct vm_program *p = calloc(1, sizeof *p);
	if (!p)
		abort();
	return p;
}

void vm_free_program(struct vm_program *p)
{
	if (!p)
		return;
	while (p->chunks) {
		struct chunk *c = p->chunks;
		p->chunks = c->next;
		free(c);
	}
	free(p);
}

struct vm_op *vm_op(struct vm_program *p, enum vm_opcode code, int64_t a, int64_t b,
		    struct vm_op *kid)
{
	struct vm_op *op = arena_alloc(p, sizeof *op);
	op->code = code;
	op->a = a;
	op->b = b;
	if (kid) {
		op->kids = arena_alloc(p, sizeof *op->kids);
		op->kids[0] = kid;
		op->nkids = 1;
	}
	return op;
}

struct vm_op *vm_seq(struct vm_program *p, int n, struct vm_op **kids)
{
	struct vm_op *op = vm_op(p, VM_SEQ, 0, 0, NULL);
	op->kids = arena_alloc(p, sizeof *op->kids * (size_t)n);
	memcpy(op->kids, kids, sizeof *kids * (size_t)n);
	op->nkids = n;
	return op;
}

struct vm_op *vm_out(struct vm_program *p, const char *label, struct vm_op *kid)
{
	struct vm_op *op = vm_op(p, VM_OUT, 0, 0, kid);
	op->name = label;
	return op;
}

/* ---- LFSR: maximal-length Galois taps for widths 2..32 ---- */

static const uint32_t lfsr_taps[33] = {
	[2] = 0x3, [3] = 0x6, [4] = 0xC, [5] = 0x14, [6] = 0x30, [7] = 0x60, [8] = 0xB8,
	[9] = 0x110, [10] = 0x240, [11] = 0x500, [12] = 0x829, [13] = 0x100D, [14] = 0x2015,
	[15] = 0x6000, [16] = 0xD008, [17] = 0x12000, [18] = 0x20400, [19] = 0x40023,
	[20] = 0x90000, [21] = 0x140000, [22] = 0x300000, [23] = 0x420000, [24] = 0xE10000,
	[25] = 0x1200000, [26] = 0x2000023, [27] = 0x4000013, [28] = 0x9000000,
	[29] = 0x14000000, [30] = 0x20000029, [31] = 0x48000000, [32] = 0x80200003,
};

void lfsr_init(struct lfsr *l, uint64_t n, uint32_t seed)
{
	int w = 2;

	while (w < 32 && ((1ull << w) - 1) < n)
		w++;
	l->n = n;
	l->taps = lfsr_taps[w];
	l->mask = (uint32_t)((1ull << w) - 1);
	l->state = seed % l->mask + 1;	/* any non-zero state */
}

uint64_t lfsr_next(struct lfsr *l)
{
	if (l->n <= 1)
		return 0;
	for (;;) {
		uint32_t s = l->state;
		l->state = (s >> 1) ^ ((s & 1) ? l->taps : 0);
		if ((uint64_t)s - 1 < l->n)
			return s - 1;
	}
}

/* ---- running ---- */

/* Folding state of a reduction: samples are folded as they come, never listed. */
struct fold {
	enum vm_opcode how;
	int n;
	int64_t ns;
	uint64_t bytes;
	double rate_sum;
	int nrates;
	struct vm_result best;	/* MIN/MAX */
	bool failed;
	int err;
};

struct run {
	struct vm_ctx *c;
	struct vm_program *p;
};

static struct vm_result failed_result(int err)
{
	return (struct vm_result){ .kind = VR_FAILED, .err = err };
}

static void fold_add(struct fold *f, const struct vm_result *r)
{
	switch (r->kind) {
	case VR_NONE:
		return;
	case VR_LIST:
		for (int i = 0; i < r->nitems; i++)
			fold_add(f, &r->items[i]);
		return;
	case VR_FAILED:
		if (!f->failed)
			f->err = r->err;
		f->failed = true;
		return;
	case VR_RATE:
		f->rate_sum += r->rate;
		f->nrates++;
		break;
	case VR_SAMPLE:
	case VR_VALUE:
		f->ns += r->ns;
		f->bytes += r->bytes;
		break;
	}
	bool better = f->n == 0 ||
		      (f->how == VM_MIN && (r->kind == VR_RATE ? r->rate < f->best.rate : r->ns < f->best.ns)) ||
		      (f->how == VM_MAX && (r->kind == VR_RATE ? r->rate > f->best.rate : r->ns > f->best.ns));
	if (better)
		f->best = *r;
	f->n++;
}

static struct vm_result fold_result(const struct fold *f)
{
	struct vm_result r = { .kind = VR_SAMPLE };

	if (f->failed)
		return failed_result(f->err);
	if (f->n == 0)
		return failed_result(ENODATA);
	switch (f->how) {
	case VM_MIN:
	case VM_MAX:
		return f->best;
	case VM_AVG:
		if (f->nrates)
			return (struct vm_result){ .kind = VR_RATE, .rate = f->rate_sum / f->nrates };
		r.ns = f->ns / f->n;
		r.bytes = f->bytes / (uint64_t)f->n;
		return r;
	case VM_BPS:
		if (f->ns <= 0)
			return failed_result(ERANGE);
		r.kind = VR_RATE;
		r.rate = (double)f->bytes * 1e9 / (double)f->ns;
		r.ns = f->ns;
		r.bytes = f->bytes;
		return r;
	default:	/* VM_TOTAL */
		if (f->nrates)
			return (struct vm_result){ .kind = VR_RATE, .rate = f->rate_sum };
		r.ns = f->ns;
		r.bytes = f->bytes;
		return r;
	}
}

static struct vm_result eval(struct run *r, const struct vm_op *op, uint64_t off, uint64_t len,
			     struct fold *acc);

/* Hands a result to the enclosing reduction, if any. */
static struct vm_result deliver(struct vm_result res, struct fold *acc)
{
	if (acc) {
		fold_add(acc, &res);
		return (struct vm_result){ .kind = VR_NONE };
	}
	return res;
}

static bool should_stop(struct vm_ctx *c)
{
	if (vm_stop_requested) {
		c->stopped = c->interrupted = true;
	}
	return c->stopped;
}

static void note_failure(struct vm_ctx *c, enum vm_opcode code, uint64_t off, uint64_t len, int err,
			 bool is_write)
{
	if (c->nfailures++ == 0)
		c->first_failure = (struct vm_failure){ .off = off, .len = len, .err = err, .op = code };
	if ((is_write ? c->on_write_error : c->on_read_error) == VM_ERR_STOP)
		c->stopped = true;
}

static enum pattern pattern_of(enum vm_opcode code)
{
	switch (code) {
	case VM_WRITE_ONES: return PAT_ONES;
	case VM_WRITE_5A: return PAT_5A;
	case VM_WRITE_RANDOM: return PAT_RANDOM;
	default: return PAT_ZERO;
	}
}

static void prepare_pattern(struct vm_ctx *c, enum pattern p)
{
	if (c->filled_pattern == (int)p)
		return;
	fill_pattern(c->buf, c->max_len, p, c->seed);
	c->filled_pattern = (int)p;
}

static struct vm_result do_io(struct run *r, enum vm_opcode code, uint64_t off, uint64_t len)
{
	struct vm_ctx *c = r->c;
	int64_t ns = 0;
	int err;
	bool is_write = code != VM_READ;

	if (should_stop(c))
		return failed_result(EINTR);
	if (code != VM_DISCARD && len > c->max_len)
		return failed_result(EOVERFLOW);
	if (code == VM_READ) {
		err = dev_read(c->dev, c->buf, len, off, &ns);
	} else if (code == VM_DISCARD) {
		err = dev_discard(c->dev, off, len, &ns);
	} else {
		prepare_pattern(c, pattern_of(code));
		err = dev_write(c->dev, c->buf, len, off, &ns);
	}
	if (err) {
		note_failure(c, code, off, len, -err, is_write);
		return failed_result(-err);
	}
	if (c->io_done)
		c->io_done(len, code != VM_READ && code != VM_DISCARD, c->io_done_arg);
	return (struct vm_result){ .kind = VR_SAMPLE, .ns = ns, .bytes = len, .off = off };
}

/* Number of iterations of an offset generator under the current length. */
static int64_t lin_count(const struct vm_op *op, uint64_t len)
{
	if (op->b >= 0)
		return op->b;
	return len ? (int64_t)((uint64_t)-op->b / len) : 0;
}

static uint64_t lin_stride(const struct vm_op *op, uint64_t len)
{
	return op->a ? (uint64_t)op->a : len;
}

static struct vm_result *new_list(struct run *r, int64_t n)
{
	return arena_alloc(r->p, sizeof(struct vm_result) * (size_t)(n > 0 ? n : 1));
}

static struct vm_result make_list(struct vm_result *items, int64_t n)
{
	return (struct vm_result){ .kind = VR_LIST, .items = items, .nitems = (int)n };
}

/* Where iteration i of a generator runs its child. */
typedef void step_fn(const struct vm_op *op, int64_t i, void *state, uint64_t *off, uint64_t *len);

/* Runs the child once per iteration: a list of its results, or folded into acc. */
static struct vm_result iterate(struct run *r, const struct vm_op *op, int64_t n, step_fn *step,
				void *state, uint64_t off, uint64_t len, struct fold *acc)
{
	struct vm_result *items = acc ? NULL : new_list(r, n);
	const struct vm_op *kid = op->nkids ? op->kids[0] : NULL;

	for (int64_t i = 0; i < n; i++) {
		if (should_stop(r->c)) {
			struct vm_result f = failed_result(EINTR);
			if (acc) {
				fold_add(acc, &f);
				break;
			}
			for (; i < n; i++)
				items[i] = f;
			break;
		}
		uint64_t o = off, l = len;
		step(op, i, state, &o, &l);
		struct vm_result res = kid ? eval(r, kid, o, l, acc) : (struct vm_result){ 0 };
		if (!acc)
			items[i] = res;
	}
	return acc ? (struct vm_result){ .kind = VR_NONE } : make_list(items, n);
}

static void lin_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)s;
	*off += lin_stride(op, *len) * (uint64_t)i;
}

static void rand_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)i;
	*off += lin_stride(op, *len) * lfsr_next(s);
}

static void repeat_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)op; (void)i; (void)s; (void)off; (void)len;
}

static void length_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)op; (void)off;
	*len = ((const uint64_t *)s)[i];
}

static struct vm_result eval_pow2(struct run *r, const struct vm_op *op, uint64_t off,
				  struct fold *acc)
{
	uint64_t lens[64];
	int n = 0;
	uint64_t from = (uint64_t)op->a, to = (uint64_t)op->b;

	if (op->code == VM_LEN_POW2_UP)
		for (uint64_t l = from; l && l <= to && n < 64; l *= 2)
			lens[n++] = l;
	else
		for (uint64_t l = from; l && l >= to && n < 64; l /= 2)
			lens[n++] = l;
	return iterate(r, op, n, length_step, lens, off, 0, acc);
}

static struct vm_result eval_seq(struct run *r, const struct vm_op *op, uint64_t off, uint64_t len,
				 struct fold *acc)
{
	struct vm_result *items = acc ? NULL : new_list(r, op->nkids);

	for (int i = 0; i < op->nkids; i++) {
		struct vm_result res = eval(r, op->kids[i], off, len, acc);
		if (!acc)
			items[i] = res;
	}
	return acc ? (struct vm_result){ .kind = VR_NONE } : make_list(items, op->nkids);
}

static struct vm_result eval_reduction(struct run *r, const struct vm_op *op, uint64_t off,
				       uint64_t len, struct fold *acc)
{
	struct fold f = { .how = op->code == VM_BPS ? VM_BPS : op->code };

	if (op->nkids)
		eval(r, op->kids[0], off, len, &f);
	return deliver(fold_result(&f), acc);
}

static struct vm_result eval(struct run *r, const struct vm_op *op, uint64_t off, uint64_t len,
			     struct fold *acc)
{
	const struct vm_op *kid = op->nkids ? op->kids[0] : NULL;

	switch (op->code) {
	case VM_READ:
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RANDOM:
	case VM_DISCARD:
		return deliver(do_io(r, op->code, off, len), acc);
	case VM_LENGTH:
		return deliver((struct vm_result){ .kind = VR_VALUE, .bytes = len }, acc);
	case VM_OFFSET:
		return deliver((struct vm_result){ .kind = VR_VALUE, .bytes = off }, acc);
	case VM_OFF_FIXED:
		return kid ? eval(r, kid, off + (uint64_t)op->a, len, acc) : (struct vm_result){ 0 };
	case VM_OFF_LIN:
		return iterate(r, op, lin_count(op, len), lin_step, NULL, off, len, acc);
	case VM_OFF_RAND: {
		struct lfsr l;
		int64_t n = lin_count(op, len);
		lfsr_init(&l, (uint64_t)n, (uint32_t)r->c->seed);
		return iterate(r, op, n, rand_step, &l, off, len, acc);
	}
	case VM_LEN_FIXED:
		return kid ? eval(r, kid, off, (uint64_t)op->a, acc) : (struct vm_result){ 0 };
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		return eval_pow2(r, op, off, acc);
	case VM_REPEAT:
		return iterate(r, op, op->a, repeat_step, NULL, off, len, acc);
	case VM_SEQ:
		return eval_seq(r, op, off, len, acc);
	case VM_MIN:
	case VM_MAX:
	case VM_AVG:
	case VM_TOTAL:
	case VM_BPS:
		return eval_reduction(r, op, off, len, acc);
	case VM_DROP: {
		struct fold sink = { .how = VM_TOTAL };
		if (kid)
			eval(r, kid, off, len, &sink);
		return (struct vm_result){ .kind = VR_NONE };
	}
	case VM_OUT: {
		struct vm_result res = kid ? eval(r, kid, off, len, NULL) : (struct vm_result){ 0 };
		res.label = op->name;
		return deliver(res, acc);
	}
	}
	return (struct vm_result){ .kind = VR_NONE };
}

struct vm_result *vm_run(struct vm_ctx *c, struct vm_program *p, const struct vm_op *op,
			 uint64_t off)
{
	struct run r = { .c = c, .p = p };
	struct vm_result *res = arena_alloc(p, sizeof *res);

	*res = eval(&r, op, off, 0, NULL);
	return res;
}

uint64_t vm_max_length(const struct vm_op *op)
{
	uint64_t m = 0;

	if (op->code == VM_LEN_FIXED)
		m = (uint64_t)op->a;
	else if (op->code == VM_LEN_POW2_UP || op->code == VM_LEN_POW2_DOWN)
		m = (uint64_t)(op->a > op->b ? op->a : op->b);
	for (int i = 0; i < op->nkids; i++) {
		uint64_t k = vm_max_length(op->kids[i]);
		if (k > m)
			m = k;
	}
	return m;
}

int vm_ctx_init(struct vm_ctx *c, struct dev *d, uint64_t max_len)
{
	memset(c, 0, sizeof *c);
	c->dev = d;
	c->max_len = max_len;
	c->filled_pattern = -1;
	c->on_read_error = VM_ERR_CONTINUE;
	c->on_write_error = VM_ERR_STOP;
	c->seed = 0x5eed;
	c->buf = dev_alloc_buffer(max_len);
	return c->buf ? 0 : -ENOMEM;
}

void vm_ctx_free(struct vm_ctx *c)
{
	free(c->buf);
	c->buf = NULL;
}
