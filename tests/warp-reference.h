/* Host reference helpers shared by the warp tests: bit-exact values of
 * every conformance type, their operations, a seeded generator and mismatch
 * bookkeeping. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARP_REFERENCE_H
#define CLWARP_WARP_REFERENCE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#define MAX_REPORTED 12

/* ------------------------------------------------------------ host types */

enum kind { K_SINT, K_UINT, K_FLOAT };

struct conf_type {
	const char *name;
	unsigned size; /* bytes: 1, 2, 4 or 8 */
	enum kind kind;
};

/* The core types first (TYPE_COUNT of them), then the extension types of
 * kernels/warp/types.cl (up to TYPE_COUNT_ALL). */
static const struct conf_type conf_types[] = {
	{ "int", 4, K_SINT },    { "uint", 4, K_UINT },   { "long", 8, K_SINT },
	{ "ulong", 8, K_UINT },  { "float", 4, K_FLOAT }, { "double", 8, K_FLOAT },
	{ "char", 1, K_SINT },   { "uchar", 1, K_UINT },  { "short", 2, K_SINT },
	{ "ushort", 2, K_UINT }, { "half", 2, K_FLOAT },
};
#define TYPE_INT 0
#define TYPE_UINT 1
#define TYPE_LONG 2
#define TYPE_ULONG 3
#define TYPE_FLOAT 4
#define TYPE_DOUBLE 5
#define TYPE_COUNT 6
#define TYPE_CHAR 6
#define TYPE_UCHAR 7
#define TYPE_SHORT 8
#define TYPE_USHORT 9
#define TYPE_HALF 10
#define TYPE_COUNT_ALL 11

/* Values travel as uint64_t bit patterns (the low `size` bytes), so NaN
 * payloads and -0.0 never pass through a host float register on the way. */
static inline uint64_t
mask_of(const struct conf_type *t)
{
	return t->size == 8 ? ~0ull : (1ull << (8 * t->size)) - 1;
}

static inline uint64_t
sign_bit(const struct conf_type *t)
{
	return 1ull << (8 * t->size - 1);
}

static inline int64_t
as_signed(const struct conf_type *t, uint64_t b)
{
	b &= mask_of(t);
	return (b & sign_bit(t)) ? (int64_t)(b | ~mask_of(t)) : (int64_t)b;
}

/* IEEE half <-> float, exactly for every half and round-to-nearest-even
 * back (the test values are all exact halves). */
static inline float
half_to_float(uint64_t h)
{
	unsigned sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
	float v;

	if (exp == 0)
		v = (float)frac * (1.0f / 16777216.0f); /* 2^-24 */
	else if (exp == 31)
		v = frac ? __builtin_nanf("") : __builtin_inff();
	else
		v = (float)(1024 + frac) * (float)(1u << exp) * (1.0f / 33554432.0f); /* 2^-25 */
	return sign ? -v : v;
}

static inline uint64_t
float_to_half(float f)
{
	uint32_t u;
	uint64_t sign;
	int exp;

	memcpy(&u, &f, 4);
	sign = (u >> 16) & 0x8000;
	exp = (int)((u >> 23) & 0xff) - 127 + 15;
	if (((u >> 23) & 0xff) == 0xff)
		return sign | 0x7c00 | ((u & 0x7fffff) ? 0x200 : 0);
	if (exp >= 31)
		return sign | 0x7c00;
	if (exp <= 0) { /* denormal or zero: round the shifted significand */
		uint32_t m = (u & 0x7fffff) | 0x800000;
		int shift = 14 - exp;
		if (shift > 24)
			return sign;
		uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		q += rem > half || (rem == half && (q & 1));
		return sign | q;
	}
	uint32_t q = ((uint32_t)exp << 10) | ((u >> 13) & 0x3ff), rem = u & 0x1fff;
	q += rem > 0x1000 || (rem == 0x1000 && (q & 1));
	return sign | q;
}

static inline float
bits_f(uint64_t b)
{
	uint32_t u = (uint32_t)b;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline double
bits_d(uint64_t b)
{
	double d;

	memcpy(&d, &b, 8);
	return d;
}

static inline uint64_t
f_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline uint64_t
d_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static inline int
is_nan(const struct conf_type *t, uint64_t b)
{
	if (t->kind != K_FLOAT)
		return 0;
	if (t->size == 2)
		return (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu) != 0;
	if (t->size == 4)
		return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0;
	return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull) != 0;
}

static inline uint64_t
op_add(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (t->kind != K_FLOAT)
		return (a + b) & mask_of(t); /* wraps like the device */
	if (t->size == 2)
		return float_to_half(half_to_float(a) + half_to_float(b));
	if (t->size == 4)
		return f_bits(bits_f(a) + bits_f(b));
	return d_bits(bits_d(a) + bits_d(b));
}

/* a < b in the type's order; floats: only for non-NaN values */
static inline int
less(const struct conf_type *t, uint64_t a, uint64_t b)
{
	switch (t->kind) {
	case K_SINT: return as_signed(t, a) < as_signed(t, b);
	case K_UINT: return a < b;
	case K_FLOAT:
		if (t->size == 2)
			return half_to_float(a) < half_to_float(b);
		return t->size == 4 ? bits_f(a) < bits_f(b) : bits_d(a) < bits_d(b);
	}
	return 0;
}

/* min/max; floats like fmin/fmax: a NaN operand is ignored. */
static inline uint64_t
op_min(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (is_nan(t, a))
		return b;
	if (is_nan(t, b))
		return a;
	return less(t, b, a) ? b : a;
}

static inline uint64_t
op_max(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (is_nan(t, a))
		return b;
	if (is_nan(t, b))
		return a;
	return less(t, a, b) ? b : a;
}

/* What an exclusive min scan gives lane 0: the largest value (+inf for floats). */
static inline uint64_t
min_identity(const struct conf_type *t)
{
	switch (t->kind) {
	case K_SINT: return mask_of(t) >> 1;
	case K_UINT: return mask_of(t);
	case K_FLOAT: return t->size == 8 ? 0x7ff0000000000000ull : t->size == 4 ? 0x7f800000ull : 0x7c00ull;
	}
	return 0;
}

/* ... and an exclusive max scan: the smallest value (-inf for floats). */
static inline uint64_t
max_identity(const struct conf_type *t)
{
	switch (t->kind) {
	case K_SINT: return sign_bit(t);
	case K_UINT: return 0;
	case K_FLOAT: return t->size == 8 ? 0xfff0000000000000ull : t->size == 4 ? 0xff800000ull : 0xfc00ull;
	}
	return 0;
}

/* Element i of an array of the type, as bits (little-endian host). */
static inline void
store_one(const struct conf_type *t, void *dst, size_t i, uint64_t v)
{
	memcpy((char *)dst + t->size * i, &v, t->size);
}

static inline uint64_t
unpack_one(const struct conf_type *t, const void *src, size_t i)
{
	uint64_t u = 0;

	memcpy(&u, (const char *)src + t->size * i, t->size);
	return u;
}

static inline void
pack(const struct conf_type *t, const uint64_t *v, size_t n, void *dst)
{
	for (size_t i = 0; i < n; i++)
		store_one(t, dst, i, v[i]);
}

/* ----------------------------------------------------------- generators */

static uint64_t rng_state;

static inline void
rng_seed(uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (!rng_state)
		rng_state = 1;
}

static inline uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A float/double NaN with a payload: quiet (kind 0), signalling and
 * negative (kind 1), quiet and negative (kind 2). */
static inline uint64_t
nan_bits(const struct conf_type *t, uint64_t r, int kind)
{
	static const uint64_t head16[3] = { 0x7e00ull, 0xfc00ull, 0xfe00ull };
	static const uint64_t head32[3] = { 0x7fc00000ull, 0xff800000ull, 0xffc00000ull };
	static const uint64_t head64[3] = { 0x7ff8000000000000ull, 0xfff0000000000000ull,
					    0xfff8000000000000ull };

	if (t->size == 2)
		return head16[kind] | (r & 0x1ffull) | 1u;
	if (t->size == 4)
		return head32[kind] | (r & 0x3fffffull) | 1u;
	return head64[kind] | (r & 0x7ffffffffffffull) | 1u;
}

/* Mismatch bookkeeping for one test: printed to stderr, the first one kept for the assertion. */
struct tally {
	unsigned failures;
	unsigned checked;
	char first[512];
};

#ifdef __GNUC__
__attribute__((format(printf, 2, 3)))
#endif
static inline void
mismatch(struct tally *tl, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (tl->failures == 0)
		snprintf(tl->first, sizeof(tl->first), "%s", line);
	if (tl->failures < MAX_REPORTED)
		fprintf(stderr, "MISMATCH %s\n", line);
	tl->failures++;
}

static inline void
tally_assert(const struct tally *tl, const char *what)
{
	fprintf(stderr, "%s: %u values checked, %u mismatches\n", what, tl->checked, tl->failures);
	ck_assert_msg(tl->failures == 0, "%s: %u of %u values differ; first: %s", what,
		      tl->failures, tl->checked, tl->first);
}


#endif
