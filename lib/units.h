/* Size parsing and the original flashbench's number formats. */
#ifndef FB_UNITS_H
#define FB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FMT_BUF 48	/* room for any formatted number */

/*
 * "4096", "4k", "4K", "4KiB", "1.5M", "3MiB", "2G", "512B", "0x1000".
 * Binary multiples. Returns 0 and stores the byte count, or -1 for
 * garbage, fractions that are not whole bytes, or overflow. Zero is
 * accepted here; callers decide whether it is valid.
 */
int parse_size(const char *s, uint64_t *bytes);

/* A whole decimal number in [min, max]; -1 otherwise. */
int parse_number(const char *s, long long min, long long max, long long *out);

/*
 * The original's numbers were read by C's strtol/strtoull, which skip
 * leading white space and one '+': the rest of s after those (" +8" -> "8").
 */
const char *units_skip_c_prefix(const char *s);

/*
 * An offset as the original's --offset read it (C's strtoull, base 0) where
 * it read the whole text: decimal, 0x hex, and a leading 0 for octal
 * ("0100000" is 32768); otherwise a size as parse_size reads it. An octal
 * number takes no suffix ("010M" is -1: the original read 8 bytes).
 */
int parse_offset(const char *s, uint64_t *bytes);

/* "872µs", "1.03ms", "-9139ns", "12.3s": never "1e+03µs". */
const char *fmt_time(char *buf, int64_t ns);
/* "4MiB", "1.5KiB", "512B" */
const char *fmt_size(char *buf, uint64_t bytes);
/* "13.2M/s", "872K/s" (decimal) */
const char *fmt_rate(char *buf, double bytes_per_second);

/*
 * Appends printf-style text to the string in buf (n bytes in all),
 * truncating quietly: for evidence lines and messages built in parts.
 */
void fmt_append(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static inline bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
/* 2^n or 3*2^n */
bool units_is_erase_candidate(uint64_t x);

#endif
