/*
 * The timed-I/O virtual machine. A measurement is a tree of operations:
 * generators set the offset/length context and run their children,
 * primitives do one timed I/O, reductions fold their children's results.
 * Running a tree returns a result tree (data, never text); printing and
 * analysis consume it afterwards, so nothing but the I/O is timed.
 */
#ifndef FB_VM_H
#define FB_VM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "results/results.h"

struct vm_op {
	enum vm_opcode code;
	int64_t a, b;
	const char *name;	/* label for VM_OUT, optional elsewhere */
	struct vm_op **kids;
	int nkids;
};

enum vm_kind { VR_NONE, VR_SAMPLE, VR_RATE, VR_VALUE, VR_LIST, VR_FAILED };

/* A result: a sample (time of an I/O of some bytes), a rate, a value, or a list. */
struct vm_result {
	enum vm_kind kind;
	int64_t ns;		/* VR_SAMPLE: time */
	uint64_t bytes;		/* VR_SAMPLE: bytes moved; VR_VALUE: the value */
	double rate;		/* VR_RATE: bytes per second */
	uint64_t off;		/* VR_SAMPLE: offset of the (first) I/O */
	int err;		/* VR_FAILED: errno of the first failed I/O */
	const char *label;	/* set by VM_OUT */
	struct vm_result *items;	/* VR_LIST */
	int nitems;
};

/* Arena-backed program builder: every op lives until vm_free_program(). */
struct vm_program;
struct vm_program *vm_new_program(void);
void vm_free_program(struct vm_program *p);
struct vm_op *vm_op(struct vm_program *p, enum vm_opcode code, int64_t a, int64_t b,
		    struct vm_op *kid);
/* VM_SEQ of n children */
struct vm_op *vm_seq(struct vm_program *p, int n, struct vm_op **kids);
struct vm_op *vm_out(struct vm_program *p, const char *label, struct vm_op *kid);

struct vm_ctx {
	struct dev *dev;
	void *buf;		/* holds max_len bytes, allocated once */
	uint64_t max_len;
	enum vm_on_error on_read_error, on_write_error;
	uint64_t seed;		/* for VM_WRITE_RANDOM fill and VM_OFF_RAND order */
	int filled_pattern;	/* enum pattern now in buf, -1 for none */
	/*
	 * Optional: called after each successful timed I/O (outside the timed
	 * region) with its length and whether it wrote, e.g. for a progress bar.
	 */
	void (*io_done)(uint64_t bytes, bool written, void *arg);
	void *io_done_arg;
	/* filled in by the run */
	int nfailures;
	struct vm_failure first_failure;
	bool stopped;		/* by an error (STOP) or an interrupt */
	bool interrupted;
};

/* Set by signal handlers: the VM finishes the current I/O and stops. */
extern volatile sig_atomic_t vm_stop_requested;

/*
 * Largest I/O the program issues starting from offset/length 0; used to
 * size the buffer before the run.
 */
uint64_t vm_max_length(const struct vm_op *op);

/* Pattern buffers are filled here, outside timed regions. */
int vm_ctx_init(struct vm_ctx *c, struct dev *d, uint64_t max_len);
void vm_ctx_free(struct vm_ctx *c);

/*
 * Runs op at base offset off. The returned tree is owned by the program's
 * arena. Failed I/Os become VR_FAILED leaves (never a time); reductions
 * over failed leaves are VR_FAILED too.
 */
struct vm_result *vm_run(struct vm_ctx *c, struct vm_program *p, const struct vm_op *op,
			 uint64_t off);

/* Full-period permutation of 0..n-1 (maximal-length LFSR, skipping >= n). */
struct lfsr {
	uint32_t state, taps, mask;
	uint64_t n;
};
void lfsr_init(struct lfsr *l, uint64_t n, uint32_t seed);
uint64_t lfsr_next(struct lfsr *l);

#endif
