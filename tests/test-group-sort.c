/* The sort across a device group (clwarp_group_sort_keys/pairs) against the
 * stable host reference of tests/sort-reference.h: every key and value of
 * the gathered result, over even, uneven and empty-slice splits, both
 * directions, key patterns with NaNs, zeros and many equal keys.
 * Devices as in tests/test-group.c (two PoCL devices under meson). */
/* SPDX-License-Identifier: MIT */
#include "group-devices.h"
#include "sort-reference.h"

static clwarp_group *
test_group(void)
{
	clwarp_group *g = NULL;

	ck_assert_clwarp_ok(clwarp_group_new(NULL, NULL, &g));
	ck_assert_msg(clwarp_group_size(g) >= 2,
		      "the group tests need two devices; CLWARP_DEVICES=\"%s\" gave %zu",
		      getenv("CLWARP_DEVICES") ? getenv("CLWARP_DEVICES") : "", clwarp_group_size(g));
	return g;
}

static bool
group_has_fp64(const clwarp_group *g)
{
	for (size_t i = 0; i < clwarp_group_size(g); i++)
		if (!clwarp_engine_device_info(clwarp_group_engine(g, i))->has_fp64)
			return false;
	return true;
}

/*
 * Sort n keys of pattern p split by `split` (0 the weights', 1 all on the
 * first device, 2 all on the last) and compare the gathered result with the
 * reference; values (the original index) show stability.
 */
static void
check_group_sort(clwarp_group *g, clwarp_type t, int value_type, size_t n, enum pattern p,
		 bool descending, unsigned bits, int split, uint64_t seed)
{
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t ks = clwarp_type_size(t), vs = value_type >= 0 ? clwarp_type_size(value_type) : 0;
	uint8_t *keys = malloc(n * ks + 1), *values = malloc(n * vs + 1);
	uint8_t *got_k = malloc(n * ks + 1), *got_v = malloc(n * vs + 1);
	struct ref_item *ref = malloc(n * sizeof(*ref) + 1);
	unsigned flags = (descending ? CLWARP_SORT_DESCENDING : 0) | bits;
	cl_mem kin[CLWARP_GROUP_MAX_DEVICES], vin[CLWARP_GROUP_MAX_DEVICES];
	cl_mem kout[CLWARP_GROUP_MAX_DEVICES], vout[CLWARP_GROUP_MAX_DEVICES];
	uint64_t rng = seed;

	ck_assert(keys && values && got_k && got_v && ref);
	for (size_t i = 0; i < n; i++) {
		set_bits(keys, ks, i, pattern_key(t, p, i, n, &rng));
		ref[i].bits = get_bits(keys, ks, i);
		ref[i].index = i;
		if (vs)
			set_bits(values, vs, i, value_of_index(vs, i));
	}
	ck_assert_clwarp_ok(clwarp_group_split(g, n, 1, offsets));
	for (size_t i = 1; i < count && split; i++)
		offsets[i] = split == 1 ? n : 0;
	ck_assert_clwarp_ok(clwarp_group_scatter(g, keys, kin, offsets, ks));
	if (vs) {
		ck_assert_clwarp_ok(clwarp_group_scatter(g, values, vin, offsets, vs));
		ck_assert_clwarp_ok(clwarp_group_sort_pairs(g, t, (clwarp_type)value_type, kin, vin,
							    kout, vout, out_offsets, offsets, flags));
		ck_assert_clwarp_ok(clwarp_group_gather(g, vout, got_v, out_offsets, vs));
	} else {
		ck_assert_clwarp_ok(clwarp_group_sort_keys(g, t, kin, kout, out_offsets, offsets,
							   flags));
	}
	ck_assert_uint_eq(out_offsets[0], 0);
	ck_assert_uint_eq(out_offsets[count], n);
	ck_assert_clwarp_ok(clwarp_group_gather(g, kout, got_k, out_offsets, ks));

	ref_order(t, descending, bits);
	qsort(ref, n, sizeof(*ref), ref_compare);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(get_bits(got_k, ks, i) == ref[i].bits,
			      "%s keys, n %zu, pattern %d, %s, split %d: key %zu is 0x%llx, expected 0x%llx",
			      type_names[t], n, (int)p, descending ? "descending" : "ascending", split, i,
			      (unsigned long long)get_bits(got_k, ks, i), (unsigned long long)ref[i].bits);
		if (vs) {
			uint64_t want = value_of_index(vs, ref[i].index);

			ck_assert_msg(get_bits(got_v, vs, i) == want,
				      "%s keys, n %zu, pattern %d, split %d: value %zu is %llu, expected %llu (not stable?)",
				      type_names[t], n, (int)p, split, i,
				      (unsigned long long)get_bits(got_v, vs, i), (unsigned long long)want);
		}
	}
	/* Random keys: the parts follow the weights (even here) to within a
	 * few sampling steps. */
	if (p == PATTERN_RANDOM && !bits && n >= 100000 && split == 0) {
		for (size_t d = 0; d < count; d++) {
			double part = (double)(out_offsets[d + 1] - out_offsets[d]), even = (double)n / count;

			ck_assert_msg(part > 0.8 * even && part < 1.2 * even, "device %zu got %.0f of %zu keys", d,
				      part, n);
		}
	}
	clwarp_group_buffers_free(g, kin);
	clwarp_group_buffers_free(g, kout);
	if (vs) {
		clwarp_group_buffers_free(g, vin);
		clwarp_group_buffers_free(g, vout);
	}
	free(keys);
	free(values);
	free(got_k);
	free(got_v);
	free(ref);
}

START_TEST(test_group_sort_types)
{
	clwarp_group *g = test_group();
	size_t n = quick ? 5000 : 200003;
	bool fp64 = group_has_fp64(g);

	for (int t = CLWARP_TYPE_INT; t <= CLWARP_TYPE_DOUBLE; t++) {
		if (t == CLWARP_TYPE_DOUBLE && !fp64)
			continue;
		check_group_sort(g, (clwarp_type)t, -1, n, PATTERN_RANDOM, t % 2 != 0, 0, 0, 100 + (uint64_t)t);
	}
	check_group_sort(g, CLWARP_TYPE_FLOAT, CLWARP_TYPE_UINT, n, PATTERN_SPECIAL, false, 0, 0, 7);
	check_group_sort(g, CLWARP_TYPE_FLOAT, -1, n, PATTERN_SPECIAL, true, 0, 0, 8);
	/* IEEE totalOrder: NaNs split by sign, ordered by payload (key_rank). */
	check_group_sort(g, CLWARP_TYPE_FLOAT, CLWARP_TYPE_UINT, n, PATTERN_SPECIAL, true,
			 CLWARP_SORT_TOTAL_ORDER, 0, 13);
	check_group_sort(g, CLWARP_TYPE_FLOAT, -1, n, PATTERN_SPECIAL, false, CLWARP_SORT_TOTAL_ORDER,
			 0, 14);
	/* 1- and 2-byte keys (the splitters' ranks read 1 and 2 bytes) and values. */
	check_group_sort(g, CLWARP_TYPE_CHAR, -1, n, PATTERN_RANDOM, true, 0, 0, 9);
	check_group_sort(g, CLWARP_TYPE_USHORT, CLWARP_TYPE_UCHAR, n, PATTERN_FEW, false, 0, 0, 10);
	check_group_sort(g, CLWARP_TYPE_SHORT, CLWARP_TYPE_UINT, n, PATTERN_RANDOM, false,
			 CLWARP_SORT_BITS(8, 16), 0, 11);
	check_group_sort(g, CLWARP_TYPE_UCHAR, CLWARP_TYPE_SHORT, n, PATTERN_REVERSE, true, 0, 1, 12);
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_group_sort_patterns)
{
	clwarp_group *g = test_group();
	size_t sizes[] = { 0, 1, 33, 4099, 100003 };
	size_t nsizes = quick ? 4 : 5;

	for (size_t s = 0; s < nsizes; s++) {
		for (int split = 0; split < 3; split++) {
			check_group_sort(g, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, sizes[s], PATTERN_FEW, false, 0,
					 split, 11 + s);
			check_group_sort(g, CLWARP_TYPE_INT, CLWARP_TYPE_LONG, sizes[s],
					 split == 1 ? PATTERN_EQUAL : PATTERN_REVERSE, split == 2, 0, split, 21 + s);
		}
	}
	/* Bit ranges: equal in range keep their order across devices too. */
	check_group_sort(g, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, quick ? 3000 : 50000, PATTERN_RANDOM,
			 false, CLWARP_SORT_BITS(4, 12), 0, 31);
	check_group_sort(g, CLWARP_TYPE_UINT, -1, quick ? 3000 : 50000, PATTERN_RANDOM, true,
			 CLWARP_SORT_BITS(0, 8), 0, 32);
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_group_sort_errors)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES], swapped[CLWARP_GROUP_MAX_DEVICES];
	cl_uint host[100] = { 0 };

	ck_assert_clwarp_ok(clwarp_group_split(g, 100, 1, offsets));
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, 4));
	ck_assert_int_eq(clwarp_group_sort_keys(g, CLWARP_TYPE_UINT, in, out, out_offsets, offsets,
						0x80),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(clwarp_last_error(), "unknown flags"), "%s", clwarp_last_error());
	ck_assert_int_eq(clwarp_group_sort_keys(g, CLWARP_TYPE_UINT, in, out, out_offsets, offsets,
						CLWARP_SORT_BITS(8, 40)),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_group_sort_pairs(g, CLWARP_TYPE_UINT, (clwarp_type)42, in, in, out,
						 out, out_offsets, offsets, 0),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	for (size_t d = 0; d < count; d++)
		swapped[d] = in[(d + 1) % count];
	ck_assert_int_eq(clwarp_group_sort_keys(g, CLWARP_TYPE_UINT, swapped, out, out_offsets,
						offsets, 0),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(clwarp_last_error(), "device 0 ("), "%s", clwarp_last_error());
	for (size_t d = 0; d < count; d++)
		ck_assert_ptr_null(out[d]);
	/* Still usable. */
	ck_assert_clwarp_ok(clwarp_group_sort_keys(g, CLWARP_TYPE_UINT, in, out, out_offsets,
						   offsets, 0));
	ck_assert_uint_eq(out_offsets[count], 100);
	clwarp_group_buffers_free(g, out);
	clwarp_group_buffers_free(g, in);
	clwarp_group_free(g);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("group-sort", &tc);
	int skip = group_test_choose_devices();

	if (skip)
		return skip;
	test_read_quick();
	ADD_TEST(tc, test_group_sort_types);
	ADD_TEST(tc, test_group_sort_patterns);
	ADD_TEST(tc, test_group_sort_errors);
	return test_main(s);
}
