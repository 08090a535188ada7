/* Radix sort under other settings, part of test-sort: the local backend at
 * a narrow and a wide warp, both kinds of pass, work-groups wider than 256,
 * a device's own tunings. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "algo.h"   /* algo_device_tuning */
#include "test-sort.h"

/* The local backend at a narrow and a wide warp (more warps per work-group,
 * 64-bit lane masks). */
START_TEST(test_sort_local_widths)
{
	static const unsigned widths[] = { 8, 64 };
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	clwarp_engine_options_init(&o);
	o.backend = CLWARP_BACKEND_LOCAL;
	o.warp_size = widths[_i];
	o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_OK, "engine: %s", clwarp_last_error());
	check_sort(e, CLWARP_TYPE_INT, CLWARP_TYPE_UINT, tile + 1, PATTERN_FEW, false, 0, 9);
	check_sort(e, CLWARP_TYPE_FLOAT, -1, (quick ? 1 : 3) * tile + 5, PATTERN_SPECIAL, true, 0, 10);
	check_sort(e, CLWARP_TYPE_ULONG, CLWARP_TYPE_LONG, tile / 2 + 1, PATTERN_RANDOM, false, 0, 12);
	check_sort(e, CLWARP_TYPE_SHORT, CLWARP_TYPE_CHAR, tile + 1, PATTERN_FEW, true, 0, 13);
	clwarp_engine_free(e);
}
END_TEST

/* CLWARP_ALGO_TUNING with `more` added to what it already says (CI's
 * Oclgrind run sets sort_items there); returns what it said, for
 * restore_tuning. */
static char *
add_tuning(const char *more)
{
	const char *had = getenv("CLWARP_ALGO_TUNING");
	char *saved = had ? strdup(had) : NULL;
	char text[256];

	snprintf(text, sizeof(text), "%s%s%s", saved ? saved : "", saved && *saved ? "," : "", more);
	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", text, 1), 0);
	return saved;
}

static void
restore_tuning(char *saved)
{
	if (saved)
		ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", saved, 1), 0);
	else
		unsetenv("CLWARP_ALGO_TUNING");
	free(saved);
}

/*
 * Both kinds of pass, whichever this device takes by itself (docs/
 * algorithms-design.md, "Sort: one pass per digit"): _i = 0 the wait-free passes
 * (the default on CPU devices), 1 the look-back (the default elsewhere),
 * through CLWARP_ALGO_TUNING's sort_lookback. Several tiles, a partial
 * one, 8-byte keys, and an odd pass count (the copy back).
 */
START_TEST(test_sort_passes)
{
	char more[32];
	char *saved;
	clwarp_engine *e;

	snprintf(more, sizeof(more), "sort_lookback=%d", _i);
	saved = add_tuning(more);
	e = test_engine(NULL);
	check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, 3 * tile + 5, PATTERN_FEW, false, 0, 40);
	check_sort(e, CLWARP_TYPE_FLOAT, -1, 2 * tile + 1, PATTERN_SPECIAL, true, 0, 41);
	check_sort(e, CLWARP_TYPE_LONG, CLWARP_TYPE_UINT, 3 * tile / 2 + 1, PATTERN_RANDOM, false,
		   CLWARP_SORT_BITS(0, 24), 42);
	clwarp_engine_free(e);
	restore_tuning(saved);
}
END_TEST

/*
 * Work-groups wider than 256 (sort_wg=384, CUB's sm_90 width for 4-byte
 * keys): keys alone of 4 bytes or less take it, pairs and 8-byte keys keep
 * 256. On nv, where the driver's query says 256, each variant's first
 * sort checks the width (src/algo_sort.c). _i: sort_lookback, as
 * test_sort_passes. Several tiles and a partial one, both directions, a
 * bit range; a width that neither divides 256 nor is wider is refused.
 */
START_TEST(test_sort_wide)
{
	size_t wide = 384 * 24;
	char more[48];
	char *saved;
	clwarp_engine *e;
	cl_mem k = NULL;

	snprintf(more, sizeof(more), "sort_wg=384,sort_lookback=%d", _i);
	saved = add_tuning(more);
	e = test_engine(NULL);
	check_sort(e, CLWARP_TYPE_INT, -1, 5 * wide + 7, PATTERN_RANDOM, false, 0, 60);
	check_sort(e, CLWARP_TYPE_FLOAT, -1, 3 * wide + 1, PATTERN_SPECIAL, true, 0, 61);
	check_sort(e, CLWARP_TYPE_UINT, -1, 4 * wide + 5, PATTERN_FEW, false, CLWARP_SORT_BITS(4, 20), 62);
	check_sort(e, CLWARP_TYPE_USHORT, -1, 2 * wide + 3, PATTERN_RANDOM, true, 0, 63);
	check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, 2 * wide + 9, PATTERN_RANDOM, false, 0, 64);
	check_sort(e, CLWARP_TYPE_ULONG, -1, 2 * wide + 11, PATTERN_RANDOM, false, 0, 65);
	clwarp_engine_free(e);
	restore_tuning(saved);

	saved = add_tuning("sort_wg=96");
	e = test_engine(NULL);
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 4096, NULL, &k));
	ck_assert_int_eq(clwarp_sort_keys(e, CLWARP_TYPE_UINT, k, 1000, 0, NULL),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "sort_wg=96"));
	clReleaseMemObject(k);
	clwarp_engine_free(e);
	restore_tuning(saved);
}
END_TEST

/*
 * One device's own defaults (src/algo_tuning.c, device_tunings) on
 * whichever device runs the tests, so that every GPU check builds and
 * checks them: the H200's pairs (32 keys a work-item and, on nv, 80
 * registers, also for pairs with 8-byte keys or values, whose tiles are
 * 256 x 16 on nv). Several tiles and a partial one, both directions, and
 * value types of 8, 4 and 2 bytes. Other GPUs, the H100 among them, keep
 * nv's defaults.
 */
START_TEST(test_sort_device_tunings)
{
	const char *h200 = algo_device_tuning("NVIDIA H200");
	size_t tile32 = 256 * 32, wide_tile = 256 * 16;
	clwarp_engine *e;
	char *saved;

	ck_assert_ptr_nonnull(h200);
	ck_assert_ptr_eq(algo_device_tuning("NVIDIA H200 NVL"), h200);
	ck_assert_ptr_null(algo_device_tuning("NVIDIA H100 80GB HBM3"));
	ck_assert_ptr_null(algo_device_tuning("NVIDIA GH200 480GB"));
	ck_assert_ptr_null(algo_device_tuning(NULL));

	saved = add_tuning(h200);
	e = test_engine(NULL);
	check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, 5 * tile32 + 7, PATTERN_RANDOM, false, 0, 50);
	check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, 3 * tile32 + 1, PATTERN_FEW, true, 0, 51);
	check_sort(e, CLWARP_TYPE_FLOAT, CLWARP_TYPE_INT, 2 * tile32 + 3, PATTERN_SPECIAL, false, 0, 52);
	check_sort(e, CLWARP_TYPE_INT, CLWARP_TYPE_USHORT, tile32 + 9, PATTERN_RANDOM, true, 0, 53);
	check_sort(e, CLWARP_TYPE_ULONG, CLWARP_TYPE_UINT, 4 * wide_tile + 5, PATTERN_RANDOM, false, 0, 54);
	check_sort(e, CLWARP_TYPE_LONG, CLWARP_TYPE_ULONG, 2 * wide_tile + 11, PATTERN_FEW, true, 0, 55);
	check_sort(e, CLWARP_TYPE_UINT, CLWARP_TYPE_LONG, 3 * wide_tile + 1, PATTERN_RANDOM, false, 0, 56);
	clwarp_engine_free(e);
	restore_tuning(saved);
}
END_TEST

void
sort_add_tuning_tests(TCase *tc, bool (*wanted)(const char *name))
{
	test_read_quick();
	if (wanted("test_sort_local_widths"))
		test_add_loop_halved(tc, test_sort_local_widths, 2, 0);   /* quick: W = 8 */
	if (wanted("test_sort_passes"))
		tcase_add_loop_test(tc, test_sort_passes, 0, 2);
	if (wanted("test_sort_wide"))
		tcase_add_loop_test(tc, test_sort_wide, 0, 2);
	if (wanted("test_sort_device_tunings"))
		tcase_add_test(tc, test_sort_device_tunings);
}
