/* Compaction and partition against host references: every type, size class
 * and selection pattern, 1- and 2-byte elements, other predicates. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "test-algorithms.h"

/* Data for "x > 0": 0 none selected, 1 all, 2 alternating, 3 about 30 %. */
static void *
select_data(clwarp_type t, size_t n, int pattern)
{
	void *b = make_data(t, n, false);

	for (size_t i = 0; i < n; i++) {
		int sel = pattern == 0 ? 0 : pattern == 1 ? 1 : pattern == 2 ? (int)(i % 2) : rng() % 10 < 3;
		int mag = 1 + (int)(i % 1000);

		if (is_float(t))
			set_f(t, b, i, sel ? mag / 8.0L : -(mag / 8.0L));
		else if (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_ULONG)
			set_i(t, b, i, sel ? (uint64_t)mag : 0);
		else
			set_i(t, b, i, sel ? (uint64_t)mag : (uint64_t)(int64_t)-mag);
	}
	return b;
}

static bool
positive(clwarp_type t, const void *b, size_t i)
{
	if (is_float(t))
		return get_f(t, b, i) > 0;
	return is_signed(t) ? (int64_t)get_i(t, b, i) > 0 : get_i(t, b, i) > 0;
}

static const char *const select_names[] = { "compact", "partition", "partition_reversed" };

static size_t
rejected_at(enum select_mode mode, size_t n, size_t total, size_t r)
{
	return mode == SELECT_REVERSED ? n - 1 - r : total + r;
}

/* With `event`, the call returns at once and the check waits on its event. */
static void
check_select_ev(clwarp_engine *e, clwarp_type t, enum select_mode mode, size_t n, int pattern,
		bool event)
{
	size_t size = clwarp_type_size(t), k = 0, r = 0, total = 0;
	void *data = select_data(t, n, pattern);
	cl_mem in = device_copy(e, data, n * size), out = device_copy(e, NULL, n * size);
	cl_mem count = device_copy(e, NULL, 0);
	cl_uint got_count = 12345;
	cl_event ev = NULL;
	unsigned char *got;
	const char *pred = is_float(t) ? "x > 0.0f" : "x > 0";
	char what[96];

	if (t == CLWARP_TYPE_DOUBLE)
		pred = "x > 0.0";
	if (mode == SELECT_REVERSED)
		ck_assert_clwarp_ok(clwarp_partition(e, t, in, out, count, n, pred,
							      CLWARP_PARTITION_REVERSED,
							      event ? &ev : NULL));
	else if (mode == SELECT_PARTITION)
		ck_assert_clwarp_ok(clwarp_partition(e, t, in, out, count, n, pred, 0,
				event ? &ev : NULL));
	else
		ck_assert_clwarp_ok(clwarp_compact(e, t, in, out, count, n, pred,
				event ? &ev : NULL));
	if (event) {
		ck_assert_ptr_nonnull(ev);
		ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
		clReleaseEvent(ev);
	}
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(cl_uint), &got_count));
	got = device_read(e, out, n * size);
	for (size_t i = 0; i < n; i++)
		total += positive(t, data, i);
	ck_assert_msg(got_count == total, "%s %s n = %zu pattern %d: count %u, expected %zu",
		      select_names[mode], type_names[t], n, pattern, got_count, total);
	snprintf(what, sizeof(what), "%s pattern %d", select_names[mode], pattern);
	for (size_t i = 0; i < n; i++) {
		bool sel = positive(t, data, i);

		if (!sel && mode == SELECT_COMPACT)
			continue;
		expect_equal(t, got, sel ? k : rejected_at(mode, n, total, r), get_i(t, data, i),
			     is_float(t) ? get_f(t, data, i) : 0, what, n);
		if (sel)
			k++;
		else
			r++;
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
}

void
check_select(clwarp_engine *e, clwarp_type t, enum select_mode mode, size_t n, int pattern)
{
	check_select_ev(e, t, mode, n, pattern, false);
}

START_TEST(test_compact)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_LONG };
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 3; ti++) {
		size_t tile = tile_of(e, types[ti], true);

		if (tiny && types[ti] == CLWARP_TYPE_FLOAT)
			continue;
		count = sizes_for(e, types[ti], true, sizes);
		for (size_t s = 0; s < count; s++) {
			for (int pattern = 0; pattern < 4; pattern++) {
				if ((types[ti] != CLWARP_TYPE_INT && pattern < 2 && sizes[s] > 10000) ||
				    TINY_SKIP_PATTERN(pattern, sizes[s], tile))
					continue;
				check_select(e, types[ti], SELECT_COMPACT, sizes[s], pattern);
			}
		}
	}
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_partition)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_DOUBLE };
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 2; ti++) {
		if (!type_supported(e, types[ti]))
			continue;
		count = sizes_for(e, types[ti], true, sizes);
		for (size_t s = 0; s < count; s++)
			for (int pattern = 0; pattern < 4; pattern++)
				if (!TINY_SKIP_PATTERN(pattern, sizes[s], tile_of(e, types[ti], true)))
					check_select(e, types[ti], SELECT_PARTITION, sizes[s], pattern);
	}
	clwarp_engine_free(e);
}
END_TEST

/*
 * clwarp_partition with CLWARP_PARTITION_REVERSED against CUB's order, for
 * every type: the sizes of the other tests and one tile, one tile less
 * one; none, all, half and about 30 % selected (none and all on the large
 * sizes for int only, as in test_compact). clwarp_partition without the
 * flag runs on the same variant in between, so the two calls share a
 * build in either order; one call returns an event.
 */
START_TEST(test_partition_reversed)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t sizes[18], count;

	for (clwarp_type t = CLWARP_TYPE_INT; t <= CLWARP_TYPE_DOUBLE; t++) {
		size_t tile = tile_of(e, t, true);

		/* Tiny: int and double (4 and 8 bytes). Quick: int, long and
		 * float (the small-path tests take ulong and double). */
		if (!type_supported(e, t) || (tiny && t != CLWARP_TYPE_INT && t != CLWARP_TYPE_DOUBLE) ||
		    (quick && !tiny && t % 2))
			continue;
		count = sizes_for(e, t, true, sizes);
		sizes[count++] = tile - 1;
		sizes[count++] = tile;
		for (size_t s = 0; s < count; s++) {
			for (int pattern = 0; pattern < 4; pattern++) {
				if ((t != CLWARP_TYPE_INT && pattern < 2 && sizes[s] > 10000) ||
				    TINY_SKIP_PATTERN(pattern, sizes[s], tile))
					continue;
				check_select(e, t, SELECT_REVERSED, sizes[s], pattern);
				if (pattern == 3 && s % 3 == 1)
					check_select(e, t, SELECT_PARTITION, sizes[s], pattern);
			}
		}
		check_select_ev(e, t, SELECT_REVERSED, 3 * tile + 5, 3, true);
	}
	clwarp_engine_free(e);
}
END_TEST

/*
 * Compaction and partition of 1- and 2-byte elements (16 and 8 to a
 * vector): random elements of the whole type with a predicate that takes
 * about half (signed: negatives compare as negatives), none or all of
 * them; every output element compared, and for compaction the elements
 * past the count left alone.
 */
static void
check_select_narrow(clwarp_engine *e, clwarp_type t, bool partition, size_t n, int pattern)
{
	size_t size = clwarp_type_size(t), k = 0, r = 0, total = 0;
	uint8_t *data = malloc(n * size + 8), *got;
	const char *pred = is_signed(t) ? "x < -3" : "x >= 100";
	int64_t limit = is_signed(t) ? -3 : 100;
	cl_mem in, out = device_copy(e, NULL, n * size), count = device_copy(e, NULL, 0);
	cl_uint got_count = 12345;
	uint64_t state = 77 + (uint64_t)pattern;

	ck_assert_ptr_nonnull(data);
	for (size_t i = 0; i < n; i++)
		set_bits(data, size, i, pattern == 0 ? next_random(&state) : pattern == 1 ? 5 : (uint64_t)-100);
	in = device_copy(e, data, n * size);
	if (partition)
		ck_assert_clwarp_ok(clwarp_partition(e, t, in, out, count, n, pred, 0, NULL));
	else
		ck_assert_clwarp_ok(clwarp_compact(e, t, in, out, count, n, pred, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(cl_uint), &got_count));
	got = device_read(e, out, n * size);
#define SELECTED(i) (is_signed(t) ? bits_to_signed(t, get_bits(data, size, i)) < limit \
				   : (int64_t)get_bits(data, size, i) >= limit)
	for (size_t i = 0; i < n; i++)
		total += SELECTED(i);
	ck_assert_msg(got_count == total, "%s %s n = %zu pattern %d: count %u, expected %zu",
		      partition ? "partition" : "compact", type_names[t], n, pattern, got_count, total);
	for (size_t i = 0; i < n; i++) {
		bool sel = SELECTED(i);
		size_t at = sel ? k++ : total + r++;

		if (!sel && !partition)
			continue;
		if (get_bits(got, size, at) != get_bits(data, size, i))
			ck_abort_msg("%s %s n = %zu pattern %d: element %zu is 0x%llx, expected 0x%llx (input %zu)",
				     partition ? "partition" : "compact", type_names[t], n, pattern, at,
				     (unsigned long long)get_bits(got, size, at),
				     (unsigned long long)get_bits(data, size, i), i);
	}
#undef SELECTED
	for (size_t i = total; i < n && !partition; i++) {
		if (get_bits(got, size, i) != FILL_BITS(size))
			ck_abort_msg("compact %s n = %zu: element %zu past the count was written", type_names[t],
				     n, i);
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
}

START_TEST(test_select_narrow)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_CHAR, CLWARP_TYPE_UCHAR, CLWARP_TYPE_SHORT,
					     CLWARP_TYPE_USHORT };
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 4; ti++) {
		/* Quick runs: char and ushort (each size, signed and not). */
		if (quick && ti % 3 != 0)
			continue;
		count = sizes_for(e, types[ti], true, sizes);
		for (size_t s = 0; s < count; s++) {
			for (int pattern = 0; pattern < 3; pattern++) {
				if (pattern > 0 && s % 3 != 1)
					continue;
				check_select_narrow(e, types[ti], (s + ti) % 2 == 0, sizes[s], pattern);
				if (!quick && pattern == 0)
					check_select_narrow(e, types[ti], (s + ti) % 2 != 0, sizes[s], 0);
			}
		}
	}
	clwarp_engine_free(e);
}
END_TEST

/* Other predicates: one that is not simply "x > 0", and built-in calls. */
START_TEST(test_predicates)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	/* m: three of the default tiles (256 x 6 vectors) and a partial one. */
	size_t n = quick ? 3000 : 100003, m = 3 * 256 * 6 * 4 + 17, k = 0;
	size_t most = n > m ? n : m;
	int *x = malloc(most * sizeof(int)), *got = malloc(most * sizeof(int));
	float f[5] = { -0.75f, 0.25f, 0.5f, -0.25f, 2.0f }, fgot[5];
	cl_uint c = 0;
	cl_mem in, out, count = device_copy(e, NULL, 0);

	for (size_t i = 0; i < most; i++)
		x[i] = (int)(rng() % 1000) - 300;
	in = device_copy(e, x, n * sizeof(int));
	out = device_copy(e, NULL, n * sizeof(int));
	ck_assert_clwarp_ok(clwarp_compact(e, CLWARP_TYPE_INT, in, out, count, n,
					   "(x % 10 == 3) || abs(x) < 5", NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(c), &c));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, c * sizeof(int), got));
	for (size_t i = 0; i < n; i++) {
		if (x[i] % 10 == 3 || abs(x[i]) < 5) {
			ck_assert_uint_lt(k, c);
			ck_assert_int_eq(got[k], x[i]);
			k++;
		}
	}
	ck_assert_uint_eq(k, c);
	clReleaseMemObject(in);
	clReleaseMemObject(out);

	/* A predicate whose true is not 1 (x & 12 is 4, 8 or 12), over whole
	 * tiles and a partial one: partition, selected then rejected in order. */
	in = device_copy(e, x, m * sizeof(int));
	out = device_copy(e, NULL, m * sizeof(int));
	ck_assert_clwarp_ok(clwarp_partition(e, CLWARP_TYPE_INT, in, out, count, m, "x & 12", 0,
			NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(c), &c));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, m * sizeof(int), got));
	k = 0;
	for (size_t i = 0; i < m; i++) {
		if (x[i] & 12)
			ck_assert_int_eq(got[k++], x[i]);
	}
	ck_assert_uint_eq(k, c);
	for (size_t i = 0; i < m; i++) {
		if (!(x[i] & 12))
			ck_assert_int_eq(got[k++], x[i]);
	}
	clReleaseMemObject(in);
	clReleaseMemObject(out);

	in = device_copy(e, f, sizeof(f));
	out = device_copy(e, NULL, sizeof(f));
	ck_assert_clwarp_ok(clwarp_partition(e, CLWARP_TYPE_FLOAT, in, out, count, 5,
					     "fabs(x) < 0.5f", 0, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(c), &c));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, sizeof(fgot), fgot));
	ck_assert_uint_eq(c, 2);
	ck_assert(fgot[0] == 0.25f && fgot[1] == -0.25f && fgot[2] == -0.75f && fgot[3] == 0.5f &&
		  fgot[4] == 2.0f);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
	free(x);
	free(got);
	clwarp_engine_free(e);
}
END_TEST

void
add_select_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_compact);
	ADD_ALGORITHMS_TEST(tc, test_partition);
	ADD_ALGORITHMS_TEST(tc, test_partition_reversed);
	ADD_ALGORITHMS_TEST(tc, test_predicates);
}

void
add_narrow_select_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_select_narrow);
}
