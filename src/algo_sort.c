/* Device-wide radix sort: clwarp_sort_keys and clwarp_sort_pairs
 * (kernels/algorithms/sort.cl). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <stdint.h>

#include "clwarp/algorithms.h"
#include "error.h"

#define SORT_RADIX 256u
#define SORT_FLAG_BIT_RANGE 0x2u
#define SORT_KNOWN_FLAGS \
	(CLWARP_SORT_DESCENDING | SORT_FLAG_BIT_RANGE | CLWARP_SORT_TOTAL_ORDER | 0xffff00u)
/* The passes' mode bits beside descending (kernels/algorithms/sort.cl). */
#define SORT_MODE_IN_RAW 0x2u
#define SORT_MODE_OUT_RAW 0x4u

clwarp_status
algo_sort_bit_range(const char *fn, unsigned flags, unsigned key_bits, unsigned *begin,
	       unsigned *end)
{
	if (flags & ~SORT_KNOWN_FLAGS)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: unknown flags 0x%x (CLWARP_SORT_DESCENDING, CLWARP_SORT_TOTAL_ORDER and CLWARP_SORT_BITS(begin, end) are known)",
				 fn, flags & ~SORT_KNOWN_FLAGS);
	if (!(flags & SORT_FLAG_BIT_RANGE)) {
		if (flags & 0xffff00u)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "%s: flags 0x%x: give a bit range with CLWARP_SORT_BITS(begin, end)",
					 fn, flags);
		*begin = 0;
		*end = key_bits;
		return CLWARP_OK;
	}
	*begin = (flags >> 8) & 0xffu;
	*end = (flags >> 16) & 0xffu;
	if (*begin >= *end || *end > key_bits)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: bit range [%u, %u) is not within the key's %u bits (begin < end <= %u)",
				 fn, *begin, *end, key_bits, key_bits);
	return CLWARP_OK;
}

/* One sort's buffers and sizes, checked (sort_check), then planned. */
struct sort_plan {
	cl_mem keys, values;
	int value_type;          /* -1: keys only */
	size_t n, key_bytes, value_bytes;
	unsigned begin, end;     /* the bit range */
	cl_uint descending;
	size_t wg, tiles;
	unsigned passes;
};

/* The arguments of algo_sort, into @p sp. */
static clwarp_status
sort_check(const char *fn, clwarp_engine *engine, clwarp_type key_type, unsigned flags,
	   struct sort_plan *sp)
{
	size_t ksize, vsize;
	clwarp_status status;

	/* Values only move, as bits: a double value needs no cl_khr_fp64. */
	status = algo_check_engine_type(fn, engine, key_type, CLWARP_OP_ADD);
	if (status != CLWARP_OK)
		return status;
	ksize = algo_types[key_type].size;
	status = algo_sort_bit_range(fn, flags, (unsigned)(8 * ksize), &sp->begin, &sp->end);
	if (status != CLWARP_OK)
		return status;
	if (sp->n > UINT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "%s: n = %zu; positions are 32-bit, so n must be below 2^32", fn, sp->n);
	status = algo_checked_bytes(fn, sp->n, ksize, &sp->key_bytes);
	if (status == CLWARP_OK && sp->n > 0)
		status = algo_check_buffer(fn, engine, sp->keys, "keys", sp->key_bytes);
	if (status == CLWARP_OK && sp->value_type >= 0) {
		vsize = algo_types[sp->value_type].size;
		status = algo_checked_bytes(fn, sp->n, vsize, &sp->value_bytes);
		if (status == CLWARP_OK && sp->n > 0)
			status = algo_check_buffer(fn, engine, sp->values, "values", sp->value_bytes);
		if (status == CLWARP_OK && sp->n > 0 && sp->keys == sp->values)
			status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					   "%s: `keys` and `values` must be two different buffers", fn);
	}
	return status;
}

/* Pass @p p of the sort: 8 bits of the key, from keys to the engine's
 * buffer or back. */
static clwarp_status
sort_pass(struct algo_call *c, const struct sort_plan *sp, unsigned p)
{
	struct algorithms *a = c->a;
	cl_mem from = p % 2 ? a->sort_keys : sp->keys, to = p % 2 ? sp->keys : a->sort_keys;
	cl_mem vfrom = from, vto = to;
	unsigned shift = sp->begin + 8 * p;
	unsigned bits = sp->end - shift < 8 ? sp->end - shift : 8;
	size_t wg = sp->wg, tiles = sp->tiles;
	cl_ulong n = (cl_ulong)sp->n;
	cl_uint epoch = 0;
	/* Total-order floats: words between the first load and the last
	 * store (sort.cl). Other keys ignore these bits. */
	cl_uint mode = sp->descending | (p == 0 ? SORT_MODE_IN_RAW : 0) |
		       (p + 1 == sp->passes ? SORT_MODE_OUT_RAW : 0);
	clwarp_status status;

	if (sp->value_type >= 0) {
		vfrom = p % 2 ? a->sort_values : sp->values;
		vto = p % 2 ? sp->values : a->sort_values;
	}
	if (a->sort_wait_free) {
		/* Count, scan the counts, scatter: no waits (sort.cl). */
		status = algo_call_launch(c, 3, tiles * wg, "bluuut", from, n,
					  mode, shift, (1u << bits) - 1u, a->sort_counts);
		if (status == CLWARP_OK)
			status = algo_call_launch(c, 4, wg, "tutu", a->sort_counts, (cl_uint)tiles,
						  a->sort_bins, p);
		if (status == CLWARP_OK)
			status = algo_call_launch(c, 2, tiles * wg, "bbbbluuuuuutt", from, to,
						  vfrom, vto, n, (cl_uint)tiles, epoch,
						  mode, shift, (1u << bits) - 1u, p,
						  a->sort_bins, a->sort_counts);
		return status;
	}
	status = algo_lookback_prepare(c, tiles * SORT_RADIX, sizeof(cl_uint), &epoch);
	if (status == CLWARP_OK)
		status = algo_call_launch(c, 2, tiles * wg, "bbbbluuuuuutttt", from, to, vfrom,
					  vto, n, (cl_uint)tiles, epoch, mode,
					  shift, (1u << bits) - 1u, p, a->sort_bins,
					  a->counter, a->tile_words, a->tile_slots);
	return status;
}

clwarp_status
algo_sort(const char *fn, clwarp_engine *engine, clwarp_type key_type, cl_mem keys,
	  int value_type, cl_mem values, size_t n, unsigned flags, cl_event *event)
{
	struct algo_call c;
	struct sort_plan sp = {
		.keys = keys, .values = values, .value_type = value_type, .n = n,
		.descending = flags & CLWARP_SORT_DESCENDING,
	};
	size_t tile, groups;
	bool total_order;
	clwarp_status status;

	status = sort_check(fn, engine, key_type, flags, &sp);
	if (status != CLWARP_OK)
		return status;

	/* Integer keys' order is total already: one variant serves both. */
	total_order = (flags & CLWARP_SORT_TOTAL_ORDER) && algo_types[key_type].is_float;
	status = algo_call_begin(&c, fn, engine, ALGO_SORT, key_type, CLWARP_OP_ADD, total_order,
				 NULL, value_type, n, event);
	if (status == CLWARP_OK && n <= 1)
		return algo_call_end(&c, algo_call_marker(&c), event);
	if (status != CLWARP_OK)
		return algo_call_end(&c, status, event);

	struct algorithms *a = c.a;
	size_t wg = sp.wg = c.v->wg;

	tile = wg * c.v->vectors;
	sp.tiles = n / tile + (n % tile != 0);
	sp.passes = (sp.end - sp.begin + 7) / 8;
	groups = (n + wg * 16 - 1) / (wg * 16);
	if (groups > (size_t)a->compute_units * 4)
		groups = (size_t)a->compute_units * 4;
	/* Counts then offsets, for the most passes a key can need (8). */
	status = algo_temp_reserve(engine, &a->sort_bins, &a->sort_bins_bytes,
				   2 * 8 * SORT_RADIX * sizeof(cl_uint));
	if (status == CLWARP_OK)
		status = algo_temp_reserve(engine, &a->sort_keys, &a->sort_keys_bytes, sp.key_bytes);
	if (status == CLWARP_OK && value_type >= 0)
		status = algo_temp_reserve(engine, &a->sort_values, &a->sort_values_bytes,
					   sp.value_bytes);
	/* Wait-free passes: a count per tile and digit (at most 2^32 / 512
	 * tiles, so the product fits a size_t). */
	if (status == CLWARP_OK && a->sort_wait_free)
		status = algo_temp_reserve(engine, &a->sort_counts, &a->sort_counts_bytes,
					   sp.tiles * SORT_RADIX * sizeof(cl_uint));
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 0, groups * wg, "bluuut", keys, (cl_ulong)n, sp.descending,
					  sp.begin, sp.end, a->sort_bins);
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 1, sp.passes * wg, "t", a->sort_bins);
	for (unsigned p = 0; p < sp.passes && status == CLWARP_OK; p++)
		status = sort_pass(&c, &sp, p);
	/* An odd number of passes ends in the engine's buffer. */
	if (status == CLWARP_OK && sp.passes % 2)
		status = algo_call_copy(&c, a->sort_keys, keys, sp.key_bytes);
	if (status == CLWARP_OK && sp.passes % 2 && value_type >= 0)
		status = algo_call_copy(&c, a->sort_values, values, sp.value_bytes);
	return algo_call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_sort_keys(clwarp_engine *engine, clwarp_type type, cl_mem keys, size_t n, unsigned flags,
		 cl_event *event)
{
	clear_error();
	return algo_sort("clwarp_sort_keys", engine, type, keys, -1, NULL, n, flags, event);
}

CLWARP_EXPORT clwarp_status
clwarp_sort_pairs(clwarp_engine *engine, clwarp_type key_type, clwarp_type value_type, cl_mem keys,
		  cl_mem values, size_t n, unsigned flags, cl_event *event)
{
	clear_error();
	if ((unsigned)value_type >= ALGO_TYPE_COUNT)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_sort_pairs: unknown value type %d", (int)value_type);
	return algo_sort("clwarp_sort_pairs", engine, key_type, keys, (int)value_type, values, n,
			 flags, event);
}
