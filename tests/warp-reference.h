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
	unsigned size; /* bytes: 4 or 8 */
	enum kind kind;
};

static const struct conf_type conf_types[] = {
	{ "int", 4, K_SINT },    { "uint", 4, K_UINT },   { "long", 8, K_SINT },
	{ "ulong", 8, K_UINT },  { "float", 4, K_FLOAT }, { "double", 8, K_FLOAT },
};
#define TYPE_INT 0
#define TYPE_FLOAT 4
#define TYPE_DOUBLE 5
#define TYPE_COUNT 6

/* Values travel as uint64_t bit patterns (the low `size` bytes), so NaN
 * payloads and -0.0 never pass through a host float register on the way. */
static inline uint64_t
mask_of(const struct conf_type *t)
{
	return t->size == 8 ? ~0ull : 0xffffffffull;
}

static inline int64_t
as_signed(const struct conf_type *t, uint64_t b)
{
	return t->size == 8 ? (int64_t)b : (int64_t)(int32_t)(uint32_t)b;
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
	if (t->size == 4)
		return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0;
	return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull) != 0;
}

static inline uint64_t
op_add(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (t->kind != K_FLOAT)
		return (a + b) & mask_of(t); /* wraps like the device */
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
	case K_FLOAT: return t->size == 4 ? bits_f(a) < bits_f(b) : bits_d(a) < bits_d(b);
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
	case K_SINT: return t->size == 8 ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX;
	case K_UINT: return mask_of(t);
	case K_FLOAT: return t->size == 8 ? 0x7ff0000000000000ull : 0x7f800000ull;
	}
	return 0;
}

/* ... and an exclusive max scan: the smallest value (-inf for floats). */
static inline uint64_t
max_identity(const struct conf_type *t)
{
	switch (t->kind) {
	case K_SINT: return t->size == 8 ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN;
	case K_UINT: return 0;
	case K_FLOAT: return t->size == 8 ? 0xfff0000000000000ull : 0xff800000ull;
	}
	return 0;
}

static inline void
pack(const struct conf_type *t, const uint64_t *v, size_t n, void *dst)
{
	for (size_t i = 0; i < n; i++) {
		if (t->size == 8) {
			memcpy((char *)dst + 8 * i, &v[i], 8);
		} else {
			uint32_t u = (uint32_t)v[i];
			memcpy((char *)dst + 4 * i, &u, 4);
		}
	}
}

static inline uint64_t
unpack_one(const struct conf_type *t, const void *src, size_t i)
{
	if (t->size == 8) {
		uint64_t u;
		memcpy(&u, (const char *)src + 8 * i, 8);
		return u;
	}
	uint32_t u;
	memcpy(&u, (const char *)src + 4 * i, 4);
	return u;
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
	static const uint64_t head32[3] = { 0x7fc00000ull, 0xff800000ull, 0xffc00000ull };
	static const uint64_t head64[3] = { 0x7ff8000000000000ull, 0xfff0000000000000ull,
					    0xfff8000000000000ull };

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
