/* The sort tests' keys and reference order (tests/test-sort.c,
 * tests/test-group-sort.c): key patterns, and a comparator written from the
 * definition of the order (numbers, -0.0 before +0.0, NaNs last), not from
 * the kernel's bit tricks. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SORT_REFERENCE_H
#define CLWARP_SORT_REFERENCE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "algo-testutil.h"

enum pattern {
	PATTERN_RANDOM,
	PATTERN_EQUAL,
	PATTERN_SORTED,
	PATTERN_REVERSE,
	PATTERN_FEW,       /* five distinct values */
	PATTERN_SPECIAL,   /* floats: NaNs of many payloads, zeros of both signs, infinities,
			      denormals, the extremes */
};

/* PATTERN_SPECIAL's bit patterns at the edges of each class (float, then
 * double): signalling and quiet NaNs of both signs with the smallest and
 * largest payloads, the smallest denormals, the largest numbers, -0.0,
 * +inf. */
static const uint32_t special_float_bits[] = {
	0x7f800001u, 0x7fbfffffu, 0x7fc00000u, 0x7fc00001u, 0x7fffffffu, 0xff800001u,
	0xffc00000u, 0xffffffffu, 0x00000001u, 0x80000001u, 0x7f7fffffu, 0xff7fffffu,
	0x80000000u, 0x007fffffu, 0x807fffffu, 0x7f800000u,
};
static const uint64_t special_double_bits[] = {
	0x7ff0000000000001ull, 0x7ff7ffffffffffffull, 0x7ff8000000000000ull, 0x7ff8000000000001ull,
	0x7fffffffffffffffull, 0xfff0000000000001ull, 0xfff8000000000000ull, 0xffffffffffffffffull,
	0x0000000000000001ull, 0x8000000000000001ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
	0x8000000000000000ull, 0x000fffffffffffffull, 0x800fffffffffffffull, 0x7ff0000000000000ull,
};

/* Key i of a pattern as the type's bits in the low bytes of a uint64_t. */
static inline uint64_t
pattern_key(clwarp_type t, enum pattern p, size_t i, size_t n, uint64_t *rng)
{
	static const double special[] = { NAN, -NAN, 0.0, -0.0, INFINITY, -INFINITY, 1e-40,
					  -1e-40, 1.0, -1.0, 3.5, -2.25 };
	uint64_t r = next_random(rng);
	double x;

	switch (p) {
	case PATTERN_EQUAL: r = 42; x = 0.5; break;
	case PATTERN_SORTED: r = i; x = (double)i - (double)n / 2; break;
	case PATTERN_REVERSE: r = n - i; x = (double)n / 2 - (double)i; break;
	case PATTERN_FEW: r = (r % 5) * 0x10001 - 2; x = (double)(r % 5) - 2.0; break;
	case PATTERN_SPECIAL:
		if (r % 5 == 0 && t == CLWARP_TYPE_FLOAT)
			return special_float_bits[(r >> 8) % 16];
		if (r % 5 == 0 && t == CLWARP_TYPE_DOUBLE)
			return special_double_bits[(r >> 8) % 16];
		x = r % 3 ? special[r % 12] : (double)(int64_t)(r >> 11) / 65536.0;
		r = (r % 3 ? (uint64_t)1 << 63 : 0) ^ (r >> (r % 40));
		break;
	default: x = ldexp((double)(int64_t)r, -40); break;
	}
	if (t == CLWARP_TYPE_FLOAT) {
		float f = (float)x;
		uint32_t b;

		memcpy(&b, &f, 4);
		return b;
	}
	if (t == CLWARP_TYPE_DOUBLE) {
		uint64_t b;

		memcpy(&b, &x, 8);
		return b;
	}
	if (is_narrow(t) && (p == PATTERN_SORTED || p == PATTERN_REVERSE)) {
		/* i spread over the whole type, in its order (the sign bit
		 * flipped for signed types): ascending or descending, with
		 * runs of equal keys where n is above the type's range. */
		unsigned bits = (unsigned)(8 * clwarp_type_size(t));
		uint64_t k = n ? (uint64_t)i * (1ull << bits) / n : 0;

		if (p == PATTERN_REVERSE)
			k = size_mask(clwarp_type_size(t)) - k;
		return (is_signed(t) ? k ^ (1ull << (bits - 1)) : k) & size_mask(clwarp_type_size(t));
	}
	/* PATTERN_FEW's five keys are -2, -1, 0, 1, 2 in the narrow types. */
	return r & size_mask(clwarp_type_size(t));
}

/* The value of element i in the pair tests: its original index (with high
 * bits set in 8-byte values), cut to 1- and 2-byte values. */
static inline uint64_t
value_of_index(size_t vs, size_t i)
{
	return vs == 8 ? (uint64_t)i | 0xabcd000000000000ull : (uint64_t)i & size_mask(vs);
}

/* ------------------------------------------------------------ reference order */

struct ref_item {
	uint64_t bits;
	size_t index;
};

static clwarp_type ref_type;
static bool ref_descending;
static bool ref_total_order;         /* CLWARP_SORT_TOTAL_ORDER */
static unsigned ref_begin, ref_end;  /* bit range of the order bits */

/* The reference's order: a sort of type t, descending or not, with the
 * flags of a clwarp_sort_* call beside CLWARP_SORT_DESCENDING. */
static inline void
ref_order(clwarp_type t, bool descending, unsigned flags)
{
	ref_type = t;
	ref_descending = descending;
	ref_total_order = (flags & CLWARP_SORT_TOTAL_ORDER) != 0;
	ref_begin = flags & 0x2u ? (flags >> 8) & 0xff : 0;
	ref_end = flags & 0x2u ? (flags >> 16) & 0xff : 0;
}

static inline bool
ref_is_float(void)
{
	return ref_type == CLWARP_TYPE_FLOAT || ref_type == CLWARP_TYPE_DOUBLE;
}

/* <0, 0, >0 as a sorts before, with, after b in ascending order, NaN aside. */
static inline int
compare_keys(clwarp_type t, uint64_t a, uint64_t b)
{
	switch (t) {
	case CLWARP_TYPE_INT: return (int32_t)a < (int32_t)b ? -1 : (int32_t)a > (int32_t)b;
	case CLWARP_TYPE_LONG: return (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
	case CLWARP_TYPE_CHAR: return (int8_t)a < (int8_t)b ? -1 : (int8_t)a > (int8_t)b;
	case CLWARP_TYPE_SHORT: return (int16_t)a < (int16_t)b ? -1 : (int16_t)a > (int16_t)b;
	case CLWARP_TYPE_UINT:
	case CLWARP_TYPE_ULONG:
	case CLWARP_TYPE_UCHAR:
	case CLWARP_TYPE_USHORT: return a < b ? -1 : a > b;
	default: {
		double x = bits_to_double(t, a), y = bits_to_double(t, b);

		if (x != y)
			return x < y ? -1 : 1;
		/* Equal numbers: only the zeros differ, by sign. */
		return signbit(x) == signbit(y) ? 0 : signbit(x) ? -1 : 1;
	}
	}
}

/*
 * IEEE 754's totalOrder: negative NaNs, the numbers (-0.0 before +0.0),
 * positive NaNs; NaNs of one sign by payload (the fraction bits, quiet bit
 * included), the larger payload farther from zero.
 */
static inline int
total_order_compare(clwarp_type t, uint64_t a, uint64_t b)
{
	double x = bits_to_double(t, a), y = bits_to_double(t, b);
	int class_a = isnan(x) ? (signbit(x) ? 0 : 2) : 1, class_b = isnan(y) ? (signbit(y) ? 0 : 2) : 1;
	uint64_t fraction = t == CLWARP_TYPE_FLOAT ? (1ull << 23) - 1 : (1ull << 52) - 1;
	int c;

	if (class_a != class_b)
		return class_a < class_b ? -1 : 1;
	if (class_a == 1)
		return compare_keys(t, a, b);
	c = (a & fraction) < (b & fraction) ? -1 : (a & fraction) > (b & fraction);
	return class_a == 0 ? -c : c;
}

/* The order bits that a bit range cuts (docs/algorithms.md, "Bit
 * range"): the key, its sign bit flipped for signed types; for floats,
 * sign bit set: every bit flipped, else the sign bit flipped. */
static inline uint64_t
ref_order_bits(uint64_t bits)
{
	unsigned width = (unsigned)(8 * clwarp_type_size(ref_type));
	uint64_t top = 1ull << (width - 1), all = size_mask(clwarp_type_size(ref_type));

	if (ref_is_float())
		return bits & top ? ~bits & all : bits ^ top;
	return is_signed(ref_type) ? bits ^ top : bits;
}

static inline int
ref_compare(const void *pa, const void *pb)
{
	const struct ref_item *a = pa, *b = pb;
	bool nan_rule = ref_is_float() && !ref_total_order;
	bool nan_a = nan_rule && isnan(bits_to_double(ref_type, a->bits));
	bool nan_b = nan_rule && isnan(bits_to_double(ref_type, b->bits));
	int c;

	if (nan_a || nan_b) {
		c = nan_a - nan_b;   /* NaNs last, whatever the direction */
	} else if (ref_end) {
		uint64_t mask = ref_end - ref_begin == 64 ? ~0ull : (1ull << (ref_end - ref_begin)) - 1;
		uint64_t x = (ref_order_bits(a->bits) >> ref_begin) & mask;
		uint64_t y = (ref_order_bits(b->bits) >> ref_begin) & mask;

		c = x < y ? -1 : x > y;
		c = ref_descending ? -c : c;
	} else if (ref_is_float() && ref_total_order) {
		c = total_order_compare(ref_type, a->bits, b->bits);
		c = ref_descending ? -c : c;
	} else {
		c = compare_keys(ref_type, a->bits, b->bits);
		c = ref_descending ? -c : c;
	}
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}


#endif
