/* Radix sort against a host reference: every key type (1- and 2-byte ones
 * included), keys and pairs with values of 1, 2, 4 and 8 bytes, both
 * directions, size classes around warps and tiles, bit ranges, and hard
 * key patterns. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "test-sort.h"

/*
 * The reference is qsort over (key, original index) with a comparator
 * written from the definition of the order (numbers, -0.0 before +0.0,
 * NaNs last), not from the kernel's bit tricks; the index breaks ties, so
 * the reference is the stable order, and the values (each element's
 * original index) show whether the sort kept it.
 * CLWARP_TEST_QUICK=1 keeps small sizes and fewer cases (for Oclgrind
 * and the sanitizers).
 */

size_t tile;   /* keys per tile with 4-byte keys and values: 256 x sort_items */

/* ------------------------------------------------------------ one sort */

/*
 * Sort n keys of pattern p (with values of value_type, or keys only for
 * value_type < 0) on the device and compare every key and value with the
 * reference. bits: a CLWARP_SORT_BITS range or 0.
 */
void
check_sort(clwarp_engine *e, clwarp_type t, int value_type, size_t n, enum pattern p,
	   bool descending, unsigned bits, uint64_t seed)
{
	size_t ks = clwarp_type_size(t), vs = value_type >= 0 ? clwarp_type_size(value_type) : 0;
	uint8_t *keys = malloc(n * ks + 1), *values = malloc(n * vs + 1);
	uint8_t *got_k = malloc(n * ks + 1), *got_v = malloc(n * vs + 1);
	struct ref_item *ref = malloc(n * sizeof(*ref) + 1);
	unsigned flags = (descending ? CLWARP_SORT_DESCENDING : 0) | bits;
	cl_mem kb = NULL, vb = NULL;
	uint64_t rng = seed;

	ck_assert(keys && values && got_k && got_v && ref);
	for (size_t i = 0; i < n; i++) {
		set_bits(keys, ks, i, pattern_key(t, p, i, n, &rng));
		ref[i].bits = get_bits(keys, ks, i);
		ref[i].index = i;
		if (vs)   /* the original index (value_of_index) */
			set_bits(values, vs, i, value_of_index(vs, i));
	}
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, n ? n * ks : 1, NULL, &kb));
	if (n)
		ck_assert_clwarp_ok(clwarp_buffer_write(e, kb, 0, n * ks, keys));
	if (vs) {
		ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, n ? n * vs : 1, NULL, &vb));
		if (n)
			ck_assert_clwarp_ok(clwarp_buffer_write(e, vb, 0, n * vs, values));
		ck_assert_clwarp_ok(clwarp_sort_pairs(e, t, (clwarp_type)value_type, kb, vb, n,
						      flags, NULL));
	} else {
		ck_assert_clwarp_ok(clwarp_sort_keys(e, t, kb, n, flags, NULL));
	}
	if (n)
		ck_assert_clwarp_ok(clwarp_buffer_read(e, kb, 0, n * ks, got_k));
	if (n && vs)
		ck_assert_clwarp_ok(clwarp_buffer_read(e, vb, 0, n * vs, got_v));

	ref_order(t, descending, bits);
	qsort(ref, n, sizeof(*ref), ref_compare);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(get_bits(got_k, ks, i) == ref[i].bits,
			      "%s keys, n %zu, pattern %d, %s%s: key %zu is 0x%llx, expected 0x%llx (element %zu)",
			      type_names[t], n, (int)p, descending ? "descending" : "ascending",
			      vs ? ", pairs" : "", i, (unsigned long long)get_bits(got_k, ks, i),
			      (unsigned long long)ref[i].bits, ref[i].index);
		if (vs) {
			uint64_t want = value_of_index(vs, ref[i].index);

			ck_assert_msg(get_bits(got_v, vs, i) == want,
				      "%s keys, %s values, n %zu, pattern %d, %s: value %zu is %llu, expected %llu (not stable?)",
				      type_names[t], type_names[value_type], n, (int)p,
				      descending ? "descending" : "ascending", i,
				      (unsigned long long)get_bits(got_v, vs, i),
				      (unsigned long long)want);
		}
	}
	clReleaseMemObject(kb);
	if (vb)
		clReleaseMemObject(vb);
	free(keys);
	free(values);
	free(got_k);
	free(got_v);
	free(ref);
}

/*
 * Sizes: 0, 1, around the warp, a non-power of two, around the tiles (256
 * work-items x sort_items keys, half that where keys or values take 8
 * bytes), several tiles, large.
 */
static size_t
sizes_for(clwarp_engine *e, size_t *out)
{
	size_t w = warp_of(e), k = 0;

	out[k++] = 0;
	out[k++] = 1;
	if (w > 2)
		out[k++] = w - 1;
	out[k++] = w + 1;
	out[k++] = 1000;
	out[k++] = tile / 2 - 1;
	out[k++] = tile + 1;
	out[k++] = 3 * tile + 5;
	if (!quick)
		out[k++] = 37 * tile + 123;   /* dozens of tiles looking back in parallel */
	return k;
}

static clwarp_type
key_type_at(clwarp_engine *e, int i)
{
	clwarp_type t = (clwarp_type)i;

	return t == CLWARP_TYPE_DOUBLE && !has_fp64(e) ? CLWARP_TYPE_FLOAT : t;
}

/* ------------------------------------------------------------ tests */

START_TEST(test_sort_keys)
{
	clwarp_engine *e = test_engine(NULL);
	size_t sizes[16], count = sizes_for(e, sizes);
	clwarp_type t = key_type_at(e, _i);

	for (size_t s = 0; s < count; s++) {
		if (!quick || s % 2 == 0)
			check_sort(e, t, -1, sizes[s], PATTERN_RANDOM, false, 0, 1 + s);
		if (!quick || s % 2 == 1)
			check_sort(e, t, -1, sizes[s], PATTERN_RANDOM, true, 0, 100 + s);
	}
	/* Large: hundreds of tiles; once per key width. */
	if (!quick && (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_LONG || t == CLWARP_TYPE_CHAR ||
		       t == CLWARP_TYPE_USHORT))
		check_sort(e, t, -1, (1u << 20) + 3, PATTERN_RANDOM,
			   t == CLWARP_TYPE_LONG || t == CLWARP_TYPE_CHAR, 0, 99);
	clwarp_engine_free(e);
}
END_TEST

/* Pairs: stability shows in the values. uint, ulong and float values
 * (moved as bits), one value type per key type (each pair of types is a
 * build; test_sort_patterns adds uint values for every key type). */
START_TEST(test_sort_pairs)
{
	clwarp_engine *e = test_engine(NULL);
	size_t sizes[16], count = sizes_for(e, sizes);
	clwarp_type t = key_type_at(e, _i);
	static const clwarp_type values[] = { CLWARP_TYPE_UINT, CLWARP_TYPE_ULONG, CLWARP_TYPE_FLOAT };

	int v = (int)values[_i % 3];

	for (size_t s = 0; s < count; s++) {
		check_sort(e, t, v, sizes[s], PATTERN_FEW, s % 2 != 0, 0, 7 + s);
		if (!quick)
			check_sort(e, t, v, sizes[s], PATTERN_RANDOM, s % 2 == 0, 0, 70 + s);
	}
	clwarp_engine_free(e);
}
END_TEST

/*
 * 1- and 2-byte keys with values of 1, 2, 4 and 8 bytes, and 4- and 8-byte
 * keys with 1- and 2-byte values (each line is one build): few distinct
 * keys (stability through the values) in one direction, random keys in
 * the other, at every size class.
 */
static const clwarp_type narrow_pairs[][2] = {
	{ CLWARP_TYPE_CHAR, CLWARP_TYPE_UCHAR },   { CLWARP_TYPE_CHAR, CLWARP_TYPE_SHORT },
	{ CLWARP_TYPE_CHAR, CLWARP_TYPE_UINT },    { CLWARP_TYPE_CHAR, CLWARP_TYPE_DOUBLE },
	{ CLWARP_TYPE_UCHAR, CLWARP_TYPE_CHAR },   { CLWARP_TYPE_UCHAR, CLWARP_TYPE_USHORT },
	{ CLWARP_TYPE_UCHAR, CLWARP_TYPE_UINT },   { CLWARP_TYPE_UCHAR, CLWARP_TYPE_LONG },
	{ CLWARP_TYPE_SHORT, CLWARP_TYPE_UCHAR },  { CLWARP_TYPE_SHORT, CLWARP_TYPE_SHORT },
	{ CLWARP_TYPE_SHORT, CLWARP_TYPE_UINT },   { CLWARP_TYPE_SHORT, CLWARP_TYPE_DOUBLE },
	{ CLWARP_TYPE_USHORT, CLWARP_TYPE_CHAR },  { CLWARP_TYPE_USHORT, CLWARP_TYPE_USHORT },
	{ CLWARP_TYPE_USHORT, CLWARP_TYPE_UINT },  { CLWARP_TYPE_USHORT, CLWARP_TYPE_ULONG },
	{ CLWARP_TYPE_UINT, CLWARP_TYPE_UCHAR },   { CLWARP_TYPE_LONG, CLWARP_TYPE_USHORT },
	{ CLWARP_TYPE_FLOAT, CLWARP_TYPE_CHAR },
};

START_TEST(test_sort_narrow_pairs)
{
	clwarp_engine *e = test_engine(NULL);
	size_t sizes[16], count = sizes_for(e, sizes);
	clwarp_type t = narrow_pairs[_i][0];
	int v = (int)narrow_pairs[_i][1];

	for (size_t s = 0; s < count; s++) {
		check_sort(e, t, v, sizes[s], PATTERN_FEW, s % 2 != 0, 0, 7 + s);
		if (!quick)
			check_sort(e, t, v, sizes[s], PATTERN_RANDOM, s % 2 == 0, 0, 70 + s);
	}
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_sort_patterns)
{
	clwarp_engine *e = test_engine(NULL);
	static const enum pattern patterns[] = { PATTERN_EQUAL, PATTERN_SORTED, PATTERN_REVERSE,
						 PATTERN_FEW, PATTERN_SPECIAL };
	size_t n = quick ? tile + 7 : 5 * tile + 77;

	for (int i = 0; i < TYPE_COUNT; i++) {
		clwarp_type t = (clwarp_type)i;

		if (t == CLWARP_TYPE_DOUBLE && !has_fp64(e))
			continue;
		for (size_t p = 0; p < 5; p++) {
			if (patterns[p] == PATTERN_SPECIAL && t != CLWARP_TYPE_FLOAT &&
			    t != CLWARP_TYPE_DOUBLE)
				continue;
			if (!quick || p % 2 == 0)
				check_sort(e, t, CLWARP_TYPE_UINT, n, patterns[p], false, 0, 3 + p);
			if (!quick || p % 2 == 1 || patterns[p] == PATTERN_SPECIAL)
				check_sort(e, t, CLWARP_TYPE_UINT, n, patterns[p], true, 0, 30 + p);
		}
	}
	clwarp_engine_free(e);
}
END_TEST

/* Bit ranges: only bits [begin, end) order the keys; the rest keeps its
 * input order (pairs show it). */
START_TEST(test_sort_bit_range)
{
	clwarp_engine *e = test_engine(NULL);
	static const unsigned ranges[][2] = { { 0, 8 }, { 0, 12 }, { 4, 20 }, { 8, 32 }, { 31, 32 } };
	size_t n = quick ? tile + 1 : 100003;

	for (size_t r = 0; r < 5; r++) {
		unsigned bits = CLWARP_SORT_BITS(ranges[r][0], ranges[r][1]);

		check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, n, PATTERN_RANDOM, r % 2 != 0, bits,
			   11 + r);
		check_sort(e, CLWARP_TYPE_UINT, -1, n, PATTERN_RANDOM, r % 2 == 0, bits, 21 + r);
	}
	clwarp_engine_free(e);
}
END_TEST

/* CLWARP_SORT_TOTAL_ORDER: float and double keys in IEEE totalOrder (NaNs
 * of every payload and sign among them), keys and pairs, both directions,
 * around the tiles, with a bit range, and integer keys, whose order it
 * leaves as it is. */
START_TEST(test_sort_total_order)
{
	clwarp_engine *e = test_engine(NULL);
	const unsigned total = CLWARP_SORT_TOTAL_ORDER;
	size_t sizes[] = { 1, 300, tile + 1, 3 * tile + 5, 37 * tile + 123 };
	size_t count = quick ? 4 : 5;

	for (size_t i = 0; i < count; i++) {
		bool down = i % 2 != 0;

		check_sort(e, CLWARP_TYPE_FLOAT, -1, sizes[i], PATTERN_SPECIAL, down, total, 60 + i);
		check_sort(e, CLWARP_TYPE_FLOAT, CLWARP_TYPE_UINT, sizes[i], PATTERN_SPECIAL, !down,
			   total, 70 + i);
		check_sort(e, key_type_at(e, CLWARP_TYPE_DOUBLE), -1, sizes[i], PATTERN_SPECIAL, down,
			   total, 80 + i);
	}
	check_sort(e, CLWARP_TYPE_FLOAT, -1, 2 * tile + 3, PATTERN_RANDOM, false, total, 90);
	check_sort(e, CLWARP_TYPE_FLOAT, CLWARP_TYPE_UINT, 2 * tile + 3, PATTERN_SPECIAL, true,
		   total | CLWARP_SORT_BITS(16, 32), 91);
	check_sort(e, CLWARP_TYPE_FLOAT, -1, tile + 7, PATTERN_SPECIAL, false,
		   total | CLWARP_SORT_BITS(0, 24), 92);
	check_sort(e, CLWARP_TYPE_INT, CLWARP_TYPE_UINT, tile + 1, PATTERN_RANDOM, true, total, 93);
	check_sort(e, CLWARP_TYPE_SHORT, -1, 1000, PATTERN_FEW, false, total, 94);
	clwarp_engine_free(e);
}
END_TEST

/* Bit ranges of 1- and 2-byte keys, up to their whole width, the sign bit
 * of signed ones included (order bits: the sign bit flipped). */
START_TEST(test_sort_narrow_bit_range)
{
	clwarp_engine *e = test_engine(NULL);
	static const struct {
		clwarp_type key;
		int value;
		unsigned begin, end;
	} cases[] = {
		{ CLWARP_TYPE_CHAR, CLWARP_TYPE_UINT, 0, 8 },    { CLWARP_TYPE_CHAR, -1, 2, 7 },
		{ CLWARP_TYPE_CHAR, CLWARP_TYPE_UINT, 7, 8 },    { CLWARP_TYPE_UCHAR, -1, 0, 4 },
		{ CLWARP_TYPE_UCHAR, CLWARP_TYPE_UINT, 3, 8 },   { CLWARP_TYPE_SHORT, CLWARP_TYPE_UINT, 4, 12 },
		{ CLWARP_TYPE_SHORT, -1, 8, 16 },                { CLWARP_TYPE_SHORT, CLWARP_TYPE_UINT, 0, 16 },
		{ CLWARP_TYPE_USHORT, CLWARP_TYPE_UINT, 15, 16 }, { CLWARP_TYPE_USHORT, -1, 1, 10 },
	};
	size_t n = quick ? tile + 1 : 100003;

	for (size_t r = 0; r < sizeof(cases) / sizeof(cases[0]); r++)
		check_sort(e, cases[r].key, cases[r].value, n, r % 3 ? PATTERN_RANDOM : PATTERN_FEW,
			   r % 2 != 0, CLWARP_SORT_BITS(cases[r].begin, cases[r].end), 41 + r);
	clwarp_engine_free(e);
}
END_TEST

/* Several calls in a row with events, then one wait: the temporaries are shared. */
START_TEST(test_sort_events)
{
	clwarp_engine *e = test_engine(NULL);
	size_t n = quick ? 2 * tile + 3 : 200000;
	uint32_t *host = malloc(n * 4), *got = malloc(n * 4);
	cl_mem b[3];
	cl_event ev[3];
	uint64_t rng = 5;

	ck_assert(host && got);
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < n; i++)
			host[i] = (uint32_t)next_random(&rng) >> (8 * k);
		ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * 4, NULL, &b[k]));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, b[k], 0, n * 4, host));
		ck_assert_clwarp_ok(clwarp_sort_keys(e, CLWARP_TYPE_UINT, b[k], n, 0, &ev[k]));
		ck_assert_ptr_nonnull(ev[k]);
	}
	ck_assert_int_eq(clWaitForEvents(3, ev), CL_SUCCESS);
	for (int k = 0; k < 3; k++) {
		ck_assert_clwarp_ok(clwarp_buffer_read(e, b[k], 0, n * 4, got));
		for (size_t i = 1; i < n; i++)
			ck_assert_msg(got[i - 1] <= got[i], "buffer %d: keys %zu and %zu out of order", k,
				      i - 1, i);
		clReleaseEvent(ev[k]);
		clReleaseMemObject(b[k]);
	}
	free(host);
	free(got);
	clwarp_engine_free(e);
}
END_TEST

/*
 * A few sorts that still take every path of the kernels: 4- and 8-byte
 * keys and values, signed, unsigned and float orders, both directions,
 * one and several tiles, a partial last tile, a bit range with an odd
 * pass count (the copy back). Cheap enough for Oclgrind, which CI runs on
 * this test alone (about a second per work-group and pass there).
 */
START_TEST(test_sort_small)
{
	clwarp_engine *e = test_engine(NULL);

	check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, tile + 1, PATTERN_FEW, false, 0, 1);
	check_sort(e, CLWARP_TYPE_FLOAT, -1, 300, PATTERN_SPECIAL, true, 0, 2);
	check_sort(e, CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, 2 * tile + 3, PATTERN_RANDOM, true,
		   CLWARP_SORT_BITS(0, 24), 3);
	check_sort(e, CLWARP_TYPE_LONG, CLWARP_TYPE_ULONG, tile / 2 + 1, PATTERN_RANDOM, false,
		   CLWARP_SORT_BITS(0, 16), 4);
	check_sort(e, CLWARP_TYPE_ULONG, -1, 33, PATTERN_RANDOM, false, 0, 5);
	/* 1- and 2-byte keys and values: one pass (then the copy back) and
	 * two, partial tiles of byte and short loads and stores. */
	check_sort(e, CLWARP_TYPE_CHAR, CLWARP_TYPE_USHORT, 2 * tile + 3, PATTERN_FEW, true, 0, 6);
	check_sort(e, CLWARP_TYPE_USHORT, CLWARP_TYPE_UCHAR, tile + 5, PATTERN_RANDOM, false, 0, 7);
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_sort_errors)
{
	clwarp_engine *e = test_engine(NULL);
	cl_mem k = NULL, v = NULL, small = NULL;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 400, NULL, &k));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 400, NULL, &v));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 8, NULL, &small));
	ck_assert_int_eq(clwarp_sort_keys(NULL, CLWARP_TYPE_UINT, k, 100, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_sort_keys(e, (clwarp_type)99, k, 100, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, NULL, 100, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, small, 100, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "keys"));
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_ULONG, k, 100, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);   /* 800 bytes needed */
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, k, 100, 0x1000000u, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "unknown flags"));
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, k, 100, CLWARP_SORT_BITS(8, 8), NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, k, 100, CLWARP_SORT_BITS(0, 33), NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "[0, 33)"));
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, k, (size_t)1 << 32, 0, NULL),
			 CLWARP_ERROR_TOO_LARGE);
	/* Bit ranges within the key's width: 8 bits for char, 16 for short. */
	ck_assert_error(clwarp_sort_keys(e, CLWARP_TYPE_CHAR, k, 100, CLWARP_SORT_BITS(0, 9), NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_sort_keys: bit range [0, 9) is not within the key's 8 bits");
	ck_assert_error(clwarp_sort_pairs(e, CLWARP_TYPE_USHORT, CLWARP_TYPE_UCHAR, k, v, 100,
					  CLWARP_SORT_BITS(8, 17), NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_sort_pairs: bit range [8, 17) is not within the key's 16 bits");
	ck_assert_error(clwarp_sort_keys(e, CLWARP_TYPE_UCHAR, k, 100, CLWARP_SORT_BITS(4, 4), NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "bit range [4, 4)");
	/* Buffers sized by the narrow types: 400 bytes hold 400 chars, 200 shorts. */
	ck_assert_error(clwarp_sort_keys(e, CLWARP_TYPE_SHORT, k, 201, 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `keys` holds 400 bytes; the call needs 402");
	ck_assert_error(clwarp_sort_pairs(e, CLWARP_TYPE_UCHAR, CLWARP_TYPE_UINT, k, v, 101, 0,
			NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `values` holds 400 bytes; the call needs 404");
	ck_assert_error(clwarp_sort_pairs(e, CLWARP_TYPE_UINT, (clwarp_type)10, k, v, 100, 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown value type 10");
	ck_assert_error(clwarp_sort_keys(e, (clwarp_type)10, k, 100, 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type 10");
	ck_assert_int_eq(clwarp_sort_pairs(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, k, k, 100, 0,
			NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "different"));
	ck_assert_int_eq(clwarp_sort_pairs(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, k, small, 100, 0,
					   NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_sort_pairs(e, CLWARP_TYPE_UINT, (clwarp_type)-1, k, v, 100, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	if (!has_fp64(e))
		ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_DOUBLE, k, 10, 0, NULL),
				 CLWARP_ERROR_INVALID_ARGUMENT);
	/* n == 0 needs no buffer; after the errors the engine still sorts. */
	ck_assert_clwarp_ok(clwarp_sort_keys(e, CLWARP_TYPE_UINT, NULL, 0, 0, NULL));
	check_sort(e, CLWARP_TYPE_UINT, -1, 100, PATTERN_RANDOM, false, 0, 1);
	clReleaseMemObject(k);
	clReleaseMemObject(v);
	clReleaseMemObject(small);
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("sort", &tc);

	const char *tuning = getenv("CLWARP_ALGO_TUNING");
	const char *items = tuning ? strstr(tuning, "sort_items=") : NULL;

	test_read_quick();
	/* The tile follows the sort_items tuning (CI's Oclgrind step makes it
	 * small, so that little data still spans several tiles). */
	tile = 256 * (items ? strtoul(items + strlen("sort_items="), NULL, 10) : 16);
	tcase_set_timeout(tc, quick ? 3000 : 600);
	ADD_TEST(tc, test_sort_errors);
	ADD_TEST(tc, test_sort_small);
	/* Quick: keys on the odd types (unsigned and double), pairs on the
	 * even ones (signed and float), narrow keys with 2- and 8-byte values;
	 * test_sort_patterns sorts every key type both ways (uint values). */
	if (test_wanted("test_sort_keys"))
		test_add_loop_halved(tc, test_sort_keys, TYPE_COUNT, 1);
	if (test_wanted("test_sort_pairs"))
		test_add_loop_halved(tc, test_sort_pairs, CLWARP_TYPE_DOUBLE + 1, 0);
	if (test_wanted("test_sort_narrow_pairs"))
		test_add_loop_halved(tc, test_sort_narrow_pairs,
				     (int)(sizeof(narrow_pairs) / sizeof(narrow_pairs[0])), 1);
	ADD_TEST(tc, test_sort_patterns);
	ADD_TEST(tc, test_sort_bit_range);
	ADD_TEST(tc, test_sort_total_order);
	ADD_TEST(tc, test_sort_narrow_bit_range);
	ADD_TEST(tc, test_sort_events);
	sort_add_tuning_tests(tc, test_wanted);
	return test_main(s);
}
