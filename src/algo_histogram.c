/* Histogram with even bins: clwarp_histogram (kernels/algorithms/histogram.cl). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "clwarp/algorithms.h"
#include "error.h"

/* What hist_bin (histogram.cl) needs besides the bounds: see there. */
struct hist_params {
	cl_ulong lower, upper;  /* bits, zero-extended; a cl_int's for 1- and 2-byte samples */
	cl_ulong p;
	cl_uint q;   /* mode 1 of 1- to 4-byte samples: the whole part of bins / range */
	cl_uint mode;
};

/* The bits of one element of `type` (4 or 8 bytes) at p, zero-extended. */
static cl_ulong
load_bits(clwarp_type type, const void *p)
{
	uint32_t b32;
	uint64_t b64;

	if (algo_types[type].size == 4) {
		memcpy(&b32, p, 4);
		return b32;
	}
	memcpy(&b64, p, 8);
	return b64;
}

/* Zero-extended bits of a `bits`-bit integer as a signed number. */
static int64_t
sign_extend(cl_ulong x, unsigned bits)
{
	return bits == 64 ? (int64_t)x : (int64_t)(x ^ (1ull << (bits - 1))) - (int64_t)(1ull << (bits - 1));
}

/*
 * ceil(r * 2^64 / range) for r < range <= 2^32 - 1, below 2^64 (r / range
 * <= 1 - 2^-32): two steps of a long division in 32-bit digits.
 */
static cl_ulong
reciprocal(cl_ulong r, cl_ulong range)
{
	cl_ulong hi = (r << 32) / range, rem = (r << 32) % range;
	cl_ulong lo = (rem << 32) / range;

	return (hi << 32 | lo) + ((rem << 32) % range != 0);
}

/* The bin computation for an integer range of 1 to 2^64 - 1 values (see below). */
static void
pick_mode(cl_ulong range, size_t bins, bool wide, struct hist_params *hp)
{
	if (range % bins == 0 && ((range / bins) & (range / bins - 1)) == 0) {
		hp->mode = 0;
		for (hp->p = 0; (cl_ulong)1 << hp->p < range / bins; hp->p++)
			;
	} else if (!wide) {
		hp->mode = 1;
		hp->q = (cl_uint)(bins / range);
		hp->p = reciprocal(bins % range, range);
	} else if (range % bins == 0) {
		hp->mode = 1;
		hp->p = range / bins;
	} else {
		hp->mode = range > UINT64_MAX / bins ? 3 : 2;
		hp->p = range;
	}
}

/*
 * 4- and 8-byte integers: the exact bin is floor(d * bins / range), d =
 * x - lower. Where the width w = range / bins is a power of two the bin
 * is d >> log2(w) (mode 0). Otherwise 4-byte samples multiply by a
 * reciprocal (mode 1, histogram.cl's hist_recip: q = floor(bins / range),
 * p = ceil((bins % range) * 2^64 / range)), exact with no division on the
 * device. 8-byte samples divide by a whole width (mode 1), or form d *
 * bins in 64 bits and divide by range (mode 2), which overflows only
 * where range > 2^64 / bins: then a long division (mode 3).
 */
static clwarp_status
integer_params(const char *fn, clwarp_type type, cl_ulong lower, cl_ulong upper, size_t bins,
	       struct hist_params *hp)
{
	unsigned width = (unsigned)(8 * algo_types[type].size);
	bool wide = width == 64;
	cl_ulong mask = wide ? ~(cl_ulong)0 : ((cl_ulong)1 << width) - 1;
	cl_ulong range = (upper - lower) & mask;
	bool ordered;

	if (algo_types[type].is_signed)
		ordered = sign_extend(lower, width) < sign_extend(upper, width);
	else
		ordered = lower < upper;
	if (!ordered)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: the range [lower, upper) is empty: lower must be below upper", fn);
	pick_mode(range, bins, wide, hp);
	return CLWARP_OK;
}

/*
 * 1- and 2-byte samples: int bounds, any with lower < upper, so the range
 * is 1 to 2^32 - 1 (computed in 64 bits) and the kernel's difference x -
 * lower a uint. The same modes as 4-byte integers (integer_params).
 */
static clwarp_status
narrow_params(const char *fn, cl_int lower, cl_int upper, size_t bins, struct hist_params *hp)
{
	cl_ulong range = (cl_ulong)((int64_t)upper - (int64_t)lower);

	if (lower >= upper)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: the range [lower, upper) is empty: lower must be below upper (cl_ints %d and %d)",
				 fn, (int)lower, (int)upper);
	hp->lower = (cl_uint)lower;
	hp->upper = (cl_uint)upper;
	pick_mode(range, bins, false, hp);
	return CLWARP_OK;
}

/*
 * Floats: CUB's scale, bins / (upper - lower) rounded to the type, both
 * steps in the type, as CUB's host code computes it. Bounds that are not
 * finite, or a difference or scale that overflows, would put every sample
 * in one bin or none: refused.
 */
static clwarp_status
float_params(const char *fn, clwarp_type type, cl_ulong lower, cl_ulong upper, size_t bins,
	     struct hist_params *hp)
{
	bool ok;

	if (type == CLWARP_TYPE_FLOAT) {
		uint32_t l32 = (uint32_t)lower, u32 = (uint32_t)upper, s32;
		float lo, hi, range, scale;

		memcpy(&lo, &l32, 4);
		memcpy(&hi, &u32, 4);
		range = hi - lo;
		scale = (float)bins / range;
		ok = isfinite(lo) && isfinite(hi) && lo < hi && isfinite(range) && isfinite(scale);
		memcpy(&s32, &scale, 4);
		hp->p = s32;
	} else {
		double lo, hi, range, scale;

		memcpy(&lo, &lower, 8);
		memcpy(&hi, &upper, 8);
		range = hi - lo;
		scale = (double)bins / range;
		ok = isfinite(lo) && isfinite(hi) && lo < hi && isfinite(range) && isfinite(scale);
		memcpy(&hp->p, &scale, 8);
	}
	hp->mode = 0;
	if (!ok)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: lower and upper must be finite with lower < upper, and upper - lower and bins / (upper - lower) finite in %s",
				 fn, algo_types[type].name);
	return CLWARP_OK;
}

/* The arguments of clwarp_histogram, and the kernels' parameters for
 * them in *hp. */
static clwarp_status
histogram_check(const char *fn, clwarp_engine *engine, clwarp_type type, cl_mem in, size_t n,
		size_t bins, const void *lower, const void *upper, cl_mem counts,
		struct hist_params *hp)
{
	bool narrow = false;   /* 1- and 2-byte samples: int bounds, [0, 256) for every uchar */
	size_t bytes = 0, counts_bytes = 0;
	clwarp_status status;

	status = algo_check_engine_type(fn, engine, type, CLWARP_OP_ADD);
	if (status == CLWARP_OK)
		narrow = algo_types[type].size < 4;
	if (status == CLWARP_OK)
		status = algo_check_count_n(fn, n);
	if (status == CLWARP_OK && bins == 0)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: bins must be at least 1", fn);
	if (status == CLWARP_OK && bins > UINT32_MAX - 1)
		status = set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu bins; at most 2^32 - 2", fn, bins);
	if (status == CLWARP_OK && (!lower || !upper))
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				   "%s: `lower` and `upper` must point at one %s each", fn,
				   narrow ? "cl_int" : algo_types[type].name);
	if (status != CLWARP_OK)
		return status;
	if (narrow) {
		cl_int lo, hi;

		memcpy(&lo, lower, sizeof(lo));
		memcpy(&hi, upper, sizeof(hi));
		status = narrow_params(fn, lo, hi, bins, hp);
	} else {
		hp->lower = load_bits(type, lower);
		hp->upper = load_bits(type, upper);
		status = algo_types[type].is_float
				 ? float_params(fn, type, hp->lower, hp->upper, bins, hp)
				 : integer_params(fn, type, hp->lower, hp->upper, bins, hp);
	}
	if (status == CLWARP_OK)
		status = algo_checked_bytes(fn, n, algo_types[type].size, &bytes);
	if (status == CLWARP_OK)
		status = algo_checked_bytes(fn, bins, sizeof(cl_uint), &counts_bytes);
	if (status == CLWARP_OK) {
		const struct algo_need need[] = { { in, "in", bytes }, { counts, "counts", counts_bytes } };

		status = algo_check_buffers(fn, engine, need, 2, 1);
	}
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_histogram(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem counts, size_t n,
		 size_t bins, const void *lower, const void *upper, cl_event *event)
{
	static const char fn[] = "clwarp_histogram";
	struct hist_params hp = { 0 };
	struct algo_call c;
	size_t tile, tiles, groups, most;
	bool shared;
	clwarp_status status;

	clear_error();
	status = histogram_check(fn, engine, type, in, n, bins, lower, upper, counts, &hp);
	if (status != CLWARP_OK)
		return status;

	status = algo_call_begin(&c, fn, engine, ALGO_HISTOGRAM, type, CLWARP_OP_ADD, 0, NULL, -1,
				 n, event);
	if (status != CLWARP_OK)
		return algo_call_end(&c, status, event);
	shared = bins <= c.v->local_bins;
	/* The shared kernel clears the counts itself (histogram.cl). */
	if (n == 0 || !shared)
		status = algo_call_launch(&c, 0, bins, "bu", counts, (cl_uint)bins);
	if (status != CLWARP_OK || n == 0)
		return algo_call_end(&c, status, event);
	/*
	 * A grid of work-groups strides over the tiles. Counting in local
	 * memory costs each work-group a clear and a merge of `bins` counters:
	 * give each at least 4 samples per bin.
	 */
	tile = c.v->wg * c.v->vectors * (16 / algo_types[type].size);
	tiles = n / tile + (n % tile != 0);
	groups = shared && bins * 4 > tile ? n / (bins * 4) + 1 : tiles;
	most = (size_t)c.a->compute_units * c.a->tuning.histogram_groups;
	if (groups > most)
		groups = most;
	if (groups > tiles)
		groups = tiles;
	if (shared) {
		cl_uint epoch = 0;

		/* A fresh epoch for the "counts are clear" flag in tile_words[0]. */
		status = algo_lookback_prepare(&c, 1, sizeof(cl_uint), &epoch);
		if (status == CLWARP_OK)
			status = algo_call_launch(&c, 1, groups * c.v->wg, "blllluuubuutt", in,
						  (cl_ulong)n, hp.lower, hp.upper, hp.p, hp.q, hp.mode,
						  (cl_uint)bins, counts, (cl_uint)groups, epoch,
						  c.a->counter, c.a->tile_words);
	} else {
		status = algo_call_launch(&c, 2, groups * c.v->wg, "blllluuub", in, (cl_ulong)n,
					  hp.lower, hp.upper, hp.p, hp.q, hp.mode, (cl_uint)bins, counts);
	}
	return algo_call_end(&c, status, event);
}
