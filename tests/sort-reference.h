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
	PATTERN_SPECIAL,   /* floats: NaNs, zeros of both signs, infinities, tiny values */
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
static unsigned ref_begin, ref_end;  /* bit range of the order bits, integer keys only */

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

static inline int
ref_compare(const void *pa, const void *pb)
{
	const struct ref_item *a = pa, *b = pb;
	bool fa = ref_type == CLWARP_TYPE_FLOAT || ref_type == CLWARP_TYPE_DOUBLE;
	bool nan_a = fa && isnan(bits_to_double(ref_type, a->bits));
	bool nan_b = fa && isnan(bits_to_double(ref_type, b->bits));
	int c;

	if (nan_a || nan_b) {
		c = nan_a - nan_b;   /* NaNs last, whatever the direction */
	} else if (ref_end) {
		/* The order bits: the key, its sign bit flipped for signed types. */
		uint64_t top = is_signed(ref_type) ? 1ull << (8 * clwarp_type_size(ref_type) - 1) : 0;
		uint64_t mask = ref_end - ref_begin == 64 ? ~0ull : (1ull << (ref_end - ref_begin)) - 1;
		uint64_t x = ((a->bits ^ top) >> ref_begin) & mask, y = ((b->bits ^ top) >> ref_begin) & mask;

		c = x < y ? -1 : x > y;
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
