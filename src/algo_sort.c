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

clwarp_status
algo_sort(const char *fn, clwarp_engine *engine, clwarp_type key_type, cl_mem keys,
	  int value_type, cl_mem values, size_t n, unsigned flags, cl_event *event)
{
	struct algo_call c;
	size_t key_bytes = 0, value_bytes = 0, ksize, vsize = 0, wg, tile, tiles = 0, groups;
	unsigned begin = 0, end = 0, passes;
	cl_uint descending = flags & CLWARP_SORT_DESCENDING;
	bool total_order;
	clwarp_status status;

	/* Values only move, as bits: a double value needs no cl_khr_fp64. */
	status = algo_check_engine_type(fn, engine, key_type, CLWARP_OP_ADD);
	if (status != CLWARP_OK)
		return status;
	ksize = algo_types[key_type].size;
	status = algo_sort_bit_range(fn, flags, (unsigned)(8 * ksize), &begin, &end);
	if (status != CLWARP_OK)
		return status;
	if (n > UINT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "%s: n = %zu; positions are 32-bit, so n must be below 2^32", fn, n);
	status = algo_checked_bytes(fn, n, ksize, &key_bytes);
	if (status == CLWARP_OK && n > 0)
		status = algo_check_buffer(fn, engine, keys, "keys", key_bytes);
	if (status == CLWARP_OK && value_type >= 0) {
		vsize = algo_types[value_type].size;
		status = algo_checked_bytes(fn, n, vsize, &value_bytes);
		if (status == CLWARP_OK && n > 0)
			status = algo_check_buffer(fn, engine, values, "values", value_bytes);
		if (status == CLWARP_OK && n > 0 && keys == values)
			status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					   "%s: `keys` and `values` must be two different buffers", fn);
	}
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

	wg = c.v->wg;
	tile = wg * c.v->vectors;
	tiles = n / tile + (n % tile != 0);
	passes = (end - begin + 7) / 8;
	groups = (n + wg * 16 - 1) / (wg * 16);
	if (groups > (size_t)a->compute_units * 4)
		groups = (size_t)a->compute_units * 4;
	/* Counts then offsets, for the most passes a key can need (8). */
	status = algo_temp_reserve(engine, &a->sort_bins, &a->sort_bins_bytes,
				   2 * 8 * SORT_RADIX * sizeof(cl_uint));
	if (status == CLWARP_OK)
		status = algo_temp_reserve(engine, &a->sort_keys, &a->sort_keys_bytes, key_bytes);
	if (status == CLWARP_OK && value_type >= 0)
		status = algo_temp_reserve(engine, &a->sort_values, &a->sort_values_bytes,
					   value_bytes);
	/* Wait-free passes: a count per tile and digit (at most 2^32 / 512
	 * tiles, so the product fits a size_t). */
	if (status == CLWARP_OK && a->sort_wait_free)
		status = algo_temp_reserve(engine, &a->sort_counts, &a->sort_counts_bytes,
					   tiles * SORT_RADIX * sizeof(cl_uint));
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 0, groups * wg, "bluuut", keys, (cl_ulong)n, descending,
					  begin, end, a->sort_bins);
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 1, passes * wg, "t", a->sort_bins);
	for (unsigned p = 0; p < passes && status == CLWARP_OK; p++) {
		cl_mem from = p % 2 ? a->sort_keys : keys, to = p % 2 ? keys : a->sort_keys;
		cl_mem vfrom = from, vto = to;
		unsigned shift = begin + 8 * p;
		unsigned bits = end - shift < 8 ? end - shift : 8;
		cl_uint epoch = 0;
		/* Total-order floats: words between the first load and the last
		 * store (sort.cl). Other keys ignore these bits. */
		cl_uint mode = descending | (p == 0 ? SORT_MODE_IN_RAW : 0) |
			       (p + 1 == passes ? SORT_MODE_OUT_RAW : 0);

		if (value_type >= 0) {
			vfrom = p % 2 ? a->sort_values : values;
			vto = p % 2 ? values : a->sort_values;
		}
		if (a->sort_wait_free) {
			/* Count, scan the counts, scatter: no waits (sort.cl). */
			status = algo_call_launch(&c, 3, tiles * wg, "bluuut", from, (cl_ulong)n,
						  mode, shift, (1u << bits) - 1u, a->sort_counts);
			if (status == CLWARP_OK)
				status = algo_call_launch(&c, 4, wg, "tutu", a->sort_counts, (cl_uint)tiles,
							  a->sort_bins, p);
			if (status == CLWARP_OK)
				status = algo_call_launch(&c, 2, tiles * wg, "bbbbluuuuuutt", from, to,
							  vfrom, vto, (cl_ulong)n, (cl_uint)tiles, epoch,
							  mode, shift, (1u << bits) - 1u, p,
							  a->sort_bins, a->sort_counts);
			continue;
		}
		status = algo_lookback_prepare(&c, tiles * SORT_RADIX, sizeof(cl_uint), &epoch);
		if (status == CLWARP_OK)
			status = algo_call_launch(&c, 2, tiles * wg, "bbbbluuuuuutttt", from, to, vfrom,
						  vto, (cl_ulong)n, (cl_uint)tiles, epoch, mode,
						  shift, (1u << bits) - 1u, p, a->sort_bins,
						  a->counter, a->tile_words, a->tile_slots);
	}
	/* An odd number of passes ends in the engine's buffer. */
	if (status == CLWARP_OK && passes % 2)
		status = algo_call_copy(&c, a->sort_keys, keys, key_bytes);
	if (status == CLWARP_OK && passes % 2 && value_type >= 0)
		status = algo_call_copy(&c, a->sort_values, values, value_bytes);
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
clwarp_sort_pairs(clwarp_engine *engine, clwarp_type key_type, cl_mem keys,
		  clwarp_type value_type, cl_mem values, size_t n, unsigned flags, cl_event *event)
{
	clear_error();
	if ((unsigned)value_type >= ALGO_TYPE_COUNT)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_sort_pairs: unknown value type %d", (int)value_type);
	return algo_sort("clwarp_sort_pairs", engine, key_type, keys, (int)value_type, values, n,
			 flags, event);
}
