/* The histogram's host reference: the bin of every sample, sample data of
 * every pattern, one histogram checked bin by bin, and the ranges that take
 * every way of computing the bin. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <float.h>
#include <limits.h>

#include "test-histogram.h"

/*
 * The reference bin of an integer is floor((x - lower) * bins / (upper -
 * lower)) in 128-bit arithmetic; of a float, the documented formula
 * (CUB's) in the type, which is checked to be within one bin of the exact
 * quotient (long double).
 */

/* 128-bit integers (gcc and clang): exact products of 64-bit ranges. */
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* The int value of 1- or 2-byte sample bits. */
static int64_t
narrow_value(clwarp_type t, uint64_t bits)
{
	return is_signed(t) ? bits_to_signed(t, bits) : (int64_t)bits;
}

/* The bits of the narrow type's value nearest to v. */
static uint64_t
narrow_clamped(clwarp_type t, int64_t v)
{
	uint64_t mask = size_mask(clwarp_type_size(t));
	int64_t top = is_signed(t) ? (int64_t)(mask >> 1) : (int64_t)mask;
	int64_t bottom = is_signed(t) ? -top - 1 : 0;

	return (uint64_t)(v < bottom ? bottom : v > top ? top : v) & mask;
}

/* The number of values in [lower, upper). */
static uint64_t
range_size(clwarp_type t, struct range r)
{
	if (is_narrow(t))
		return (uint64_t)((int64_t)r.upper - (int64_t)r.lower);
	return (r.upper - r.lower) & size_mask(clwarp_type_size(t));
}

static int64_t
ref_bin(clwarp_type t, uint64_t x, struct range r, size_t bins)
{
	if (is_narrow(t)) {
		int64_t v = narrow_value(t, x), lo = (int64_t)r.lower, hi = (int64_t)r.upper;

		if (v < lo || v >= hi)
			return -1;
		return (int64_t)((u128)(v - lo) * bins / (u128)(hi - lo));
	}
	if (!is_float(t)) {
		i128 v, lo, hi;

		if (is_signed(t)) {
			v = bits_to_signed(t, x);
			lo = bits_to_signed(t, r.lower);
			hi = bits_to_signed(t, r.upper);
		} else {
			v = x;
			lo = r.lower;
			hi = r.upper;
		}
		if (v < lo || v >= hi)
			return -1;
		return (int64_t)((u128)(v - lo) * bins / (u128)(hi - lo));
	}

	double xd = bits_to_double(t, x), lo = bits_to_double(t, r.lower);
	double hi = bits_to_double(t, r.upper);
	uint64_t b;

	if (!(xd >= lo && xd < hi))
		return -1;
	if (t == CLWARP_TYPE_FLOAT) {
		float scale = (float)bins / ((float)hi - (float)lo);
		float v = ((float)xd - (float)lo) * scale;

		b = v < (float)bins ? (uint64_t)v : bins;
	} else {
		double scale = (double)bins / (hi - lo);
		double v = (xd - lo) * scale;

		b = v < (double)bins ? (uint64_t)v : bins;
	}
	if (b >= bins)
		b = bins - 1;
	long double exact = floorl(((long double)xd - lo) * bins / ((long double)hi - lo));

	ck_assert_msg(fabsl((long double)b - exact) <= 1, "bin %llu of %g is off the exact %Lg",
		      (unsigned long long)b, xd, exact);
	return (int64_t)b;
}

/* The bits of `v` in [lower, upper), v counted from lower (mod range);
 * for 1- and 2-byte samples the type's value nearest to it, outside the
 * range where the range is outside the type. */
static uint64_t
in_range(clwarp_type t, struct range r, uint64_t v)
{
	uint64_t mask = size_mask(clwarp_type_size(t));

	if (is_narrow(t))
		return narrow_clamped(t, (int64_t)r.lower + (int64_t)(v % range_size(t, r)));
	return (r.lower + v % range_size(t, r)) & mask;
}

/* The first x - lower of bin b: ceil(b * range / bins), exactly. */
static uint64_t
bin_start(uint64_t b, size_t bins, uint64_t range)
{
	return (uint64_t)(((u128)b * range + bins - 1) / bins);
}

static void
make_samples(clwarp_type t, enum pattern p, struct range r, size_t bins, void *out, size_t n,
	     uint64_t seed)
{
	size_t size = clwarp_type_size(t);
	uint64_t rng = seed, mask = size_mask(size);
	double lo = is_float(t) ? bits_to_double(t, r.lower) : 0;
	double hi = is_float(t) ? bits_to_double(t, r.upper) : 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t x = next_random(&rng), s;

		if (p == PATTERN_CONSTANT) {
			s = is_float(t) ? double_to_bits(t, lo + (hi - lo) / 3) : in_range(t, r, seed);
		} else if (p == PATTERN_SORTED) {
			s = is_float(t) ? double_to_bits(t, lo + (hi - lo) * (double)i / (double)n)
					: in_range(t, r, (uint64_t)((double)i / (double)n *
								  (double)range_size(t, r)));
		} else if (is_float(t) && p == PATTERN_WIDE) {
			/* Mostly in range, some a quarter of the range beyond each end. */
			s = double_to_bits(t, lo + (hi - lo) * ((double)(x >> 11) * 0x1p-53 * 1.5 - 0.25));
		} else if (is_float(t)) {
			static const double special[] = { NAN, -NAN, 0.0, -0.0, INFINITY, -INFINITY,
							  FLT_MAX, -FLT_MAX, 1e-40, -1e-40 };
			double edge = lo + (hi - lo) * (double)(x % (bins + 1)) / (double)bins;

			switch ((x >> 32) % 6) {
			case 0: s = double_to_bits(t, special[(x >> 40) % 10]); break;
			case 1: s = r.lower + ((x >> 40) % 3) - 1; break;  /* the bits around lower */
			case 2: s = r.upper + ((x >> 40) % 3) - 1; break;
			case 3: s = double_to_bits(t, nextafter(edge, (x >> 40) % 2 ? INFINITY : -INFINITY)); break;
			default: s = double_to_bits(t, edge); break;
			}
			s &= mask;   /* lower - 1 of 0.0 is a NaN: fine */
		} else if (p == PATTERN_WIDE) {
			s = x & mask;
		} else {
			/* Integer edges: the bounds +-1, the type's ends, bin starts. */
			uint64_t top = is_signed(t) ? mask >> 1 : mask, bottom = is_signed(t) ? ~top & mask : 0;
			uint64_t edges[] = { r.lower - 1, r.lower, r.lower + 1, r.upper - 1, r.upper,
					     r.upper + 1, top, bottom, top - 1, bottom + 1 };

			if (is_narrow(t))   /* int bounds: their neighbours in the type */
				for (int k = 0; k < 6; k++)
					edges[k] = narrow_clamped(t, (int64_t)r.lower + (k < 3 ? 0 : (int64_t)range_size(t, r)) + k % 3 - 1);
			if ((x >> 32) % 3 == 0)
				s = edges[(x >> 40) % 10] & mask;
			else   /* a random bin's first value, or its neighbours */
				s = (in_range(t, r, bin_start(x % bins, bins, range_size(t, r))) +
				     (x >> 40) % 3 - 1) & mask;
		}
		set_bits(out, size, i, s);
	}
}

/* One histogram, every bin compared with the reference. */
void
check_histogram(clwarp_engine *e, clwarp_type t, size_t n, size_t bins, struct range r,
		enum pattern p, uint64_t seed)
{
	size_t size = clwarp_type_size(t);
	uint8_t *samples = malloc(n * size + 8);
	uint32_t *ref = calloc(bins, 4), *got;
	cl_mem in, counts;

	ck_assert(samples && ref);
	make_samples(t, p, r, bins, samples, n, seed);
	for (size_t i = 0; i < n; i++) {
		int64_t b = ref_bin(t, get_bits(samples, size, i), r, bins);

		if (b >= 0)
			ref[b]++;
	}
	in = device_copy(e, samples, n * size);
	counts = device_copy(e, NULL, bins * 4);   /* 0xA5...: every bin must be written */
	if (is_narrow(t)) {
		cl_int lo = (cl_int)(int64_t)r.lower, hi = (cl_int)(int64_t)r.upper;

		ck_assert_clwarp_ok(clwarp_histogram(e, t, in, counts, n, bins, &lo, &hi, NULL));
	} else {
		ck_assert_clwarp_ok(clwarp_histogram(e, t, in, counts, n, bins, &r.lower, &r.upper,
						     NULL));
	}
	got = device_read(e, counts, bins * 4);
	for (size_t b = 0; b < bins; b++) {
		/* ck_assert_* costs a pipe write per call (Check's fork mode). */
		if (got[b] != ref[b] && is_narrow(t))
			ck_abort_msg("%s, n %zu, %zu bins over [%lld, %lld), pattern %d: bin %zu holds %u, expected %u",
				     type_names[t], n, bins, (long long)r.lower, (long long)r.upper,
				     (int)p, b, got[b], ref[b]);
		if (got[b] != ref[b])
			ck_abort_msg("%s, n %zu, %zu bins over [0x%llx, 0x%llx), pattern %d: bin %zu holds %u, expected %u",
				     type_names[t], n, bins, (unsigned long long)r.lower,
				     (unsigned long long)r.upper, (int)p, b, got[b], ref[b]);
	}
	free(got);
	free(samples);
	free(ref);
	clReleaseMemObject(in);
	clReleaseMemObject(counts);
}

/* The range of bits of an integer type (int bounds for 1- and 2-byte
 * types) or of float values. */
struct range
int_range(clwarp_type t, int64_t lower, int64_t upper)
{
	uint64_t mask = is_narrow(t) ? ~(uint64_t)0 : size_mask(clwarp_type_size(t));
	struct range r = { (uint64_t)lower & mask, (uint64_t)upper & mask };

	return r;
}

struct range
float_range(clwarp_type t, double lower, double upper)
{
	struct range r = { double_to_bits(t, lower), double_to_bits(t, upper) };

	return r;
}

/* The type's whole range but its largest value, [MIN, MAX); every value,
 * [MIN, MAX + 1), for 1- and 2-byte types (int bounds). */
struct range
full_range(clwarp_type t)
{
	uint64_t mask = size_mask(clwarp_type_size(t));
	struct range r = { 0, mask };

	if (is_narrow(t))
		return is_signed(t) ? int_range(t, -(int64_t)(mask >> 1) - 1, (int64_t)(mask >> 1) + 1)
				    : int_range(t, 0, (int64_t)mask + 1);
	if (is_signed(t)) {
		r.lower = ~(mask >> 1) & mask;
		r.upper = mask >> 1;
	}
	return r;
}

/* Ranges per type that take every way of computing the bin, each with
 * bins 1, a few, 256 and 5000 (over the local-memory histogram's 4096). */
size_t
ranges_for(clwarp_type t, struct range *out, size_t *bins)
{
	size_t k = 0;

	if (t == CLWARP_TYPE_FLOAT || t == CLWARP_TYPE_DOUBLE) {
		out[k] = float_range(t, -1.0, 1.0), bins[k++] = 256;
		out[k] = float_range(t, -1.0, 1.0), bins[k++] = 5000;
		out[k] = float_range(t, 0.0, 1e-3), bins[k++] = 3;
		out[k] = float_range(t, -1e38, 1e38), bins[k++] = 7;
		out[k] = float_range(t, 0.0, 1e-37), bins[k++] = 4;   /* denormal samples */
		out[k] = float_range(t, 2.5, 3.0), bins[k++] = 1;
		return k;
	}
	bool sig = is_signed(t);

	if (is_narrow(t)) {
		/* The same ways, ranges with both bounds negative, and int
		 * bounds: every value of the type ([0, 256) for uchar), bounds
		 * wider than the type up to 2^32 - 1 values (mode 0 at a shift
		 * of 31, mode 1 at a width of 2^32 - 1), bounds outside it. */
		bool wide16 = clwarp_type_size(t) == 2;
		int64_t top = wide16 ? (sig ? 32767 : 65535) : (sig ? 127 : 255);

		out[k] = full_range(t), bins[k++] = 1;
		out[k] = full_range(t), bins[k++] = 3;                             /* uneven widths */
		out[k] = full_range(t), bins[k++] = 7;
		out[k] = full_range(t), bins[k++] = 256;
		out[k] = full_range(t), bins[k++] = 5000;                          /* bins > range for 1 byte */
		out[k] = int_range(t, -1000, 1000), bins[k++] = 7;
		out[k] = int_range(t, -100000, 100000), bins[k++] = 256;
		out[k] = int_range(t, INT32_MIN, INT32_MAX), bins[k++] = 1;        /* width 2^32 - 1 */
		out[k] = int_range(t, INT32_MIN, INT32_MAX), bins[k++] = 7;
		out[k] = int_range(t, INT32_MIN, 0), bins[k++] = 1;                /* shift 31 */
		out[k] = int_range(t, top + 1, top + 1000), bins[k++] = 10;        /* above the type */
		out[k] = int_range(t, INT32_MIN, sig ? -top - 1 : 0), bins[k++] = 3;  /* below it */
		out[k] = int_range(t, sig ? -100 : 100, sig ? 28 : 228), bins[k++] = 16;   /* width 8 */
		out[k] = int_range(t, sig ? -50 : 10, sig ? 50 : 110), bins[k++] = 10;     /* width 10 */
		out[k] = int_range(t, sig ? -128 : 0, sig ? -1 : 201), bins[k++] = 7;
		out[k] = int_range(t, sig ? -7 : 3, sig ? -5 : 5), bins[k++] = 5000;
		out[k] = int_range(t, sig ? -500000 : 0, 1000000), bins[k++] = 256;   /* width 5859.375 */
		if (wide16) {
			out[k] = int_range(t, sig ? -30000 : 60000, sig ? -20000 : 65535), bins[k++] = 3;
			out[k] = int_range(t, sig ? -1000 : 0, 1001), bins[k++] = 300;
		}
		return k;
	}
	out[k] = full_range(t), bins[k++] = 1;
	out[k] = full_range(t), bins[k++] = 7;     /* 64-bit: the long division */
	out[k] = full_range(t), bins[k++] = 256;
	out[k] = full_range(t), bins[k++] = 5000;
	out[k] = int_range(t, sig ? -100 : 100, sig ? 156 : 356), bins[k++] = 16;  /* width 16 */
	out[k] = int_range(t, 10, 1010), bins[k++] = 100;                            /* width 10 */
	out[k] = int_range(t, sig ? -1000 : 0, 1001), bins[k++] = 7;
	out[k] = int_range(t, 3, 5), bins[k++] = 5000;                               /* bins > range */
	/* 4-byte: the reciprocal (histogram.cl, hist_recip), whole widths and not. */
	out[k] = int_range(t, 0, 1000000), bins[k++] = 256;                          /* width 3906.25 */
	out[k] = int_range(t, 9, 3009), bins[k++] = 1000;                             /* width 3 */
	out[k] = int_range(t, 5, 2105), bins[k++] = 300;                             /* width 7 */
	out[k] = full_range(t), bins[k++] = 3;                                       /* width (2^32 - 1) / 3 for 4 bytes */
	out[k] = sig ? int_range(t, INT32_MIN + 1, INT32_MAX) : int_range(t, 1, UINT32_MAX);
	bins[k++] = 4095;                                                            /* range 2^32 - 2 */
	out[k] = int_range(t, 3, 10), bins[k++] = 1000;                              /* 142 6/7 bins per value */
	return k;
}

/* 256 work-items x 4 vectors of 4-byte elements (as many elements for 1-
 * and 2-byte ones: src/algo_kinds.c, tile_vectors), x 2 of 8-byte ones. */
size_t
tile_of(clwarp_type t)
{
	size_t size = clwarp_type_size(t);

	return 256 * 4 * (16 / (size < 4 ? 4 : size));
}

clwarp_type
type_at(clwarp_engine *e, int i)
{
	clwarp_type t = (clwarp_type)i;

	return t == CLWARP_TYPE_DOUBLE && !has_fp64(e) ? CLWARP_TYPE_FLOAT : t;
}
