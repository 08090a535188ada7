/* Small n in one work-group (reduce, scan, compaction, partition, unique):
 * the sizes around the thresholds (small_n, small_select_n), a warp and a tile against host
 * references, which path each size took, and the look-back path at the
 * same sizes with the small path off (CLWARP_ALGO_TUNING). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "test-algorithms.h"

#include "algo.h"

/* Which kernels of `kind` for `type` the engine has built: 1 the small
 * ones, 2 the look-back ones (variants live as long as the engine). */
static unsigned
paths_built(clwarp_engine *e, enum algo_kind kind, clwarp_type t)
{
	unsigned paths = 0;

	if (!e->algorithms)
		return 0;
	for (struct algo_variant *v = e->algorithms->variants; v; v = v->next)
		if (v->kind == kind && v->type == t)
			paths |= v->small ? 1u : 2u;
	return paths;
}

/* Sorted data with runs of 1 to 4 equal keys; unique against the host. */
static void
check_unique(clwarp_engine *e, size_t n)
{
	int32_t *x = malloc(n * 4 + 4), *want = malloc(n * 4 + 4);
	cl_mem in, out, count;
	cl_uint got_count = 12345;
	int32_t *got;
	size_t m = 0;

	for (size_t i = 0, k = 0; i < n; k++)
		for (size_t r = 1 + rng() % 4; r > 0 && i < n; r--)
			x[i++] = (int32_t)k - 500;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || x[i] != x[i - 1])
			want[m++] = x[i];
	in = device_copy(e, x, n * 4);
	out = device_copy(e, NULL, n * 4);
	count = device_copy(e, NULL, 0);
	ck_assert_clwarp_ok(clwarp_unique(e, CLWARP_TYPE_INT, in, out, count, n, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(cl_uint), &got_count));
	ck_assert_msg(got_count == m, "unique n = %zu: count %u, expected %zu", n, got_count, m);
	got = device_read(e, out, n * 4);
	for (size_t i = 0; i < m; i++)
		ck_assert_msg(got[i] == want[i], "unique n = %zu: element %zu is %d, expected %d", n, i,
			      got[i], want[i]);
	free(got);
	free(x);
	free(want);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
}

/* Every call with a small path at n elements of t. */
static void
check_all(clwarp_engine *e, clwarp_type t, size_t n)
{
	check_reduce(e, t, CLWARP_OP_ADD, n, false);
	check_reduce(e, t, is_float(t) ? CLWARP_OP_MAX : CLWARP_OP_MIN, n, false);
	check_scan(e, t, CLWARP_OP_ADD, 1, n, false);
	check_scan(e, t, CLWARP_OP_ADD, 0, n, false);
	check_scan(e, t, CLWARP_OP_MAX, 1, n, true);
	check_select(e, t, SELECT_COMPACT, n, 3);
	check_select(e, t, SELECT_PARTITION, n, 3);
	check_select(e, t, SELECT_REVERSED, n, 2);
	if (t == CLWARP_TYPE_INT)
		check_unique(e, n);
}

/* The paths built so far: `want` for reduce and scan, `want_select` for
 * compaction and partition (1 small, 2 look-back, 3 both). */
static void
expect_paths(clwarp_engine *e, clwarp_type t, unsigned want, unsigned want_select, size_t n)
{
	static const enum algo_kind kinds[] = { ALGO_REDUCE, ALGO_SCAN, ALGO_COMPACT,
						ALGO_PARTITION };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		unsigned w = kinds[k] == ALGO_REDUCE || kinds[k] == ALGO_SCAN ? want : want_select;

		ck_assert_msg(paths_built(e, kinds[k], t) == w,
			      "%s, n = %zu, kind %d: paths built %u, expected %u", type_names[t], n,
			      (int)kinds[k], paths_built(e, kinds[k], t), w);
	}
}

/* Sizes around W, a small tile of 64 x 3 vectors and a threshold of 3000
 * 4-byte elements (1500 of 8 bytes), then above it: several small tiles
 * in the one work-group, the last one partial. */
START_TEST(test_small_boundaries)
{
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_LONG,
					     CLWARP_TYPE_DOUBLE };
	clwarp_engine *e;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING",
				"small_n=3000,small_select_n=3000,small_wg=64,small_vectors=3", 1), 0);
	for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
		clwarp_type t = types[ti];
		size_t size = clwarp_type_size(t), limit = 3000 * 4 / size, w, tile;

		/* A fresh engine per type: paths_built sees this type's calls only. */
		e = algo_engine(CLWARP_BACKEND_AUTO, 0);
		w = warp_of(e);
		tile = 64 * 3 * (16 / size);
		/* Quick: int alone; the quick sizes of the per-type tests
		 * (test_reduce, test_scan, ...) up to small_n take the small
		 * path on every type. */
		if (!type_supported(e, t) || w > 64 || (quick && t != CLWARP_TYPE_INT)) {
			clwarp_engine_free(e);
			continue;
		}
		const size_t below[] = { 0, 1, w - 1, w + 1, 1000, tile - 1, tile, tile + 1,
					 2 * tile + 5, limit - 1, limit };
		for (size_t s = 0; s < sizeof(below) / sizeof(below[0]); s++) {
			if (TINY_SKIP(s, below))
				continue;
			check_all(e, t, below[s]);
		}
		expect_paths(e, t, 1, 1, limit);
		check_all(e, t, limit + 1);
		expect_paths(e, t, 3, 3, limit + 1);
		if (!tiny)
			check_all(e, t, 3 * limit + 7);
		clwarp_engine_free(e);
	}
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

/* Reduce and scan up to small_n, the selections up to small_select_n:
 * a threshold of 1000 4-byte elements for the selections and 3000 for
 * the others, each at its threshold and one above, every result checked. */
START_TEST(test_small_select_threshold)
{
	clwarp_engine *e;
	size_t w;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING",
				"small_n=3000,small_select_n=1000,small_wg=64,small_vectors=3", 1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	w = warp_of(e);
	if (w <= 64) {
		check_all(e, CLWARP_TYPE_INT, 1000);
		expect_paths(e, CLWARP_TYPE_INT, 1, 1, 1000);
		check_all(e, CLWARP_TYPE_INT, 1001);
		expect_paths(e, CLWARP_TYPE_INT, 1, 3, 1001);
		check_all(e, CLWARP_TYPE_INT, 3000);
		expect_paths(e, CLWARP_TYPE_INT, 1, 3, 3000);
		check_all(e, CLWARP_TYPE_INT, 3001);
		expect_paths(e, CLWARP_TYPE_INT, 3, 3, 3001);
	}
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

/* The engine's own thresholds (by device kind): each threshold - 1,
 * threshold, threshold + 1, the smaller one first. */
START_TEST(test_small_default)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t limit, select_limit;

	unsetenv("CLWARP_ALGO_TUNING");
	check_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, false);
	ck_assert_ptr_nonnull(e->algorithms);
	limit = e->algorithms->tuning.small_n;
	select_limit = e->algorithms->tuning.small_select_n;
	ck_assert_uint_ge(select_limit, 1);
	ck_assert_uint_ge(limit, select_limit);
	for (size_t n = select_limit - 1; n <= select_limit; n++)
		check_all(e, CLWARP_TYPE_INT, n);
	expect_paths(e, CLWARP_TYPE_INT, 1, 1, select_limit);
	if (select_limit < limit) {
		check_all(e, CLWARP_TYPE_INT, select_limit + 1);
		expect_paths(e, CLWARP_TYPE_INT, 1, 3, select_limit + 1);
	}
	for (size_t n = limit - 1; n <= limit; n++) {
		check_all(e, CLWARP_TYPE_INT, n);
		check_scan(e, CLWARP_TYPE_LONG, CLWARP_OP_ADD, 1, n / 2, false);
	}
	expect_paths(e, CLWARP_TYPE_INT, 1, select_limit < limit ? 3 : 1, limit);
	check_all(e, CLWARP_TYPE_INT, limit + 1);
	check_scan(e, CLWARP_TYPE_LONG, CLWARP_OP_ADD, 1, limit / 2 + 1, false);
	expect_paths(e, CLWARP_TYPE_INT, 3, 3, limit + 1);
	ck_assert_uint_eq(paths_built(e, ALGO_SCAN, CLWARP_TYPE_LONG), 3);
	clwarp_engine_free(e);
}
END_TEST

/* small_n=0: the look-back path at the sizes the small path takes by default. */
START_TEST(test_small_off)
{
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_ULONG };
	clwarp_engine *e;
	size_t sizes[16], count;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", "small_n=0", 1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
		clwarp_type t = types[ti];

		/* Quick: int; the per-type tests take the look-back path
		 * from one tile + 1 on every type. */
		if (quick && t != CLWARP_TYPE_INT)
			continue;
		count = sizes_for(e, t, false, sizes);
		for (size_t s = 0; s < count; s++) {
			if (sizes[s] > (1u << 16))
				continue;
			check_all(e, t, sizes[s]);
		}
		ck_assert_uint_eq(paths_built(e, ALGO_SCAN, t), 2);
		ck_assert_uint_eq(paths_built(e, ALGO_COMPACT, t), 2);
	}
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

void
add_small_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_small_boundaries);
	ADD_ALGORITHMS_TEST(tc, test_small_select_threshold);
	ADD_ALGORITHMS_TEST(tc, test_small_default);
	ADD_ALGORITHMS_TEST(tc, test_small_off);
}
