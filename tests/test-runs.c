/* Unique, run-length encode and reduce by key against a host reference:
 * every key type (1- and 2-byte ones included, with values of every
 * size), size classes around warps and tiles, run patterns, NaN
 * and signed zeros; the argument checks and events in test-runs-calls.c. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "algo-testutil.h"
#include "algo.h"
#include "runs-reference.h"
#include "test-runs.h"

/* The reference (runs-reference.h) walks the keys left to right and folds
 * each run's values in order. Float sums use multiples of 1/8 whose every
 * partial sum is exact, so any order of adding gives the reference's bits. */

enum pattern {
	PATTERN_RUNS,      /* random run lengths, mostly short, some over a tile */
	PATTERN_EQUAL,     /* one key (floats: +0.0 and -0.0 by turns, equal by ==) */
	PATTERN_DISTINCT,  /* every key differs from the one before */
	PATTERN_SPECIAL,   /* floats: NaNs, zeros, infinities, denormals in runs */
};

struct runs_case {
	clwarp_type key, value;  /* value: CLWARP_TYPE_UINT for run-length encode */
	clwarp_op op;
};

static size_t runs_tile;   /* elements per runs.cl tile for the case's types */

/* The keys, as bits: pattern p, n elements. */
static void
make_keys(clwarp_type t, enum pattern p, void *keys, size_t n, uint64_t seed)
{
	static const double special[] = { NAN, -NAN, 0.0, -0.0, INFINITY, -INFINITY, 1e-310,
					  1e-40, -1.5, 2.0 };
	size_t size = clwarp_type_size(t), i = 0;
	uint64_t rng = seed, key = 0;

	while (i < n) {
		uint64_t r = next_random(&rng);
		size_t len = 1;

		switch (p) {
		case PATTERN_EQUAL:
			len = n;
			break;
		case PATTERN_DISTINCT:
			break;
		case PATTERN_SPECIAL:
			len = 1 + r % 4;
			break;
		default:
			/* Mostly 1-8, now and then up to 3 tiles. */
			len = r % 16 ? 1 + (r >> 8) % 8 : 1 + (r >> 8) % (3 * runs_tile);
			break;
		}
		for (size_t j = 0; j < len && i < n; j++, i++) {
			if (p == PATTERN_EQUAL && is_float(t))
				key = double_to_bits(t, i % 2 ? -0.0 : 0.0);
			else if (p == PATTERN_EQUAL)
				key = 7;
			else if (p == PATTERN_DISTINCT)
				key = is_float(t) ? double_to_bits(t, (double)i - (double)n / 2) : i * 3 + 1;
			else if (p == PATTERN_SPECIAL && j == 0)
				key = double_to_bits(t, special[(r >> 16) % 10]);
			else if (j == 0)   /* a few keys, so that runs also merge */
				key = is_float(t) ? double_to_bits(t, (double)((r >> 20) % 5) - 2.0)
						  : (r >> 20) % 5 * 0x10001 - 2;
			set_bits(keys, size, i, key);
		}
	}
}

/* The values: full-range integers, and floats in multiples of 1/8 (with
 * NaNs and signed zeros for min and max). */
static void
make_values(clwarp_type t, clwarp_op op, void *values, size_t n, uint64_t seed)
{
	size_t size = clwarp_type_size(t);
	uint64_t rng = seed;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = next_random(&rng);
		double x = (double)((int)(r % 33) - 16) / 8.0;

		if (!is_float(t))
			set_bits(values, size, i, r);
		else if (op != CLWARP_OP_ADD && r % 7 == 0)
			set_bits(values, size, i, double_to_bits(t, (r >> 8) % 2 ? NAN : -0.0));
		else
			set_bits(values, size, i, double_to_bits(t, x));
	}
}

enum call { CALL_UNIQUE, CALL_RLE, CALL_RBK };
static const char *const call_names[] = { "unique", "run_length_encode", "reduce_by_key" };

/* On a mismatch at output r, the outputs around it against the reference
 * on stderr: tells a shifted or extra run from a wrong length. */
static void
print_window(size_t r, size_t n, size_t runs, size_t ks, size_t vs, const uint8_t *got_k,
	     const uint8_t *got_v, const uint64_t *ref_keys, const uint64_t *ref_values)
{
	for (size_t i = r > 4 ? r - 4 : 0; i < n && i <= r + 4; i++) {
		fprintf(stderr, "  run %zu: key 0x%llx (expected 0x%llx)", i,
			(unsigned long long)get_bits(got_k, ks, i),
			(unsigned long long)(i < runs ? ref_keys[i] : FILL_BITS(ks)));
		if (got_v)
			fprintf(stderr, ", value 0x%llx (expected 0x%llx)",
				(unsigned long long)get_bits(got_v, vs, i),
				(unsigned long long)(i < runs ? ref_values[i] : FILL_BITS(vs)));
		fputc('\n', stderr);
	}
}

/*
 * One call on n keys of pattern p, every output element compared with the
 * reference; output elements past the runs must be left alone.
 */
static void
check_runs(clwarp_engine *e, enum call call, const struct runs_case *rc, size_t n,
	   enum pattern p, uint64_t seed)
{
	clwarp_type kt = rc->key, vt = call == CALL_RBK ? rc->value : CLWARP_TYPE_UINT;
	clwarp_op op = call == CALL_RBK ? rc->op : CLWARP_OP_ADD;
	size_t ks = clwarp_type_size(kt), vs = clwarp_type_size(vt);
	uint8_t *keys = malloc(n * ks + 8), *values = malloc(n * vs + 8);
	uint64_t *ref_keys = malloc(n * 8 + 8), *ref_values = malloc(n * 8 + 8);
	size_t runs;
	cl_mem kb, vb = NULL, uo, ao = NULL, nb = device_copy(e, NULL, 4);
	uint8_t *got_k, *got_v = NULL;
	uint32_t got_n = 0;

	ck_assert(keys && values && ref_keys && ref_values);
	make_keys(kt, p, keys, n, seed);
	if (call == CALL_RBK)
		make_values(vt, op, values, n, seed + 1000);
	runs = runs_reference(kt, keys, vt, op, call == CALL_RBK ? values : NULL, n, ref_keys,
			      ref_values);

	kb = device_copy(e, keys, n * ks);
	uo = device_copy(e, NULL, n * ks);
	if (call == CALL_UNIQUE) {
		ck_assert_clwarp_ok(clwarp_unique(e, kt, kb, uo, nb, n, NULL));
	} else if (call == CALL_RLE) {
		ao = device_copy(e, NULL, n * 4);
		ck_assert_clwarp_ok(clwarp_run_length_encode(e, kt, kb, uo, ao, nb, n, NULL));
	} else {
		vb = device_copy(e, values, n * vs);
		ao = device_copy(e, NULL, n * vs);
		ck_assert_clwarp_ok(clwarp_reduce_by_key(e, kt, vt, kb, vb, uo, ao, nb, n, op, NULL));
	}
	ck_assert_clwarp_ok(clwarp_buffer_read(e, nb, 0, 4, &got_n));
	ck_assert_msg(got_n == runs, "%s, %s keys, n %zu, pattern %d: %u runs, expected %zu",
		      call_names[call], type_names[kt], n, (int)p, got_n, runs);
	got_k = device_read(e, uo, n * ks);
	if (ao)
		got_v = device_read(e, ao, n * vs);
	for (size_t r = 0; r < n; r++) {
		uint64_t k = get_bits(got_k, ks, r), want_k = r < runs ? ref_keys[r] : FILL_BITS(ks);

		/* ck_assert_* costs a pipe write per call (Check's fork mode):
		 * only on a mismatch. */
		if (k != want_k)
			print_window(r, n, runs, ks, vs, got_k, got_v, ref_keys, ref_values);
		if (k != want_k)
			ck_abort_msg("%s, %s keys, n %zu, pattern %d: key %zu is 0x%llx, expected 0x%llx%s",
				     call_names[call], type_names[kt], n, (int)p, r,
				     (unsigned long long)k, (unsigned long long)want_k,
				     r < runs ? "" : " (untouched)");
		if (!got_v)
			continue;
		uint64_t v = get_bits(got_v, vs, r), want_v = r < runs ? ref_values[r] : FILL_BITS(vs);

		if (r < runs ? !same_value(vt, op, v, want_v) : v != want_v)
			print_window(r, n, runs, ks, vs, got_k, got_v, ref_keys, ref_values);
		if (r < runs ? !same_value(vt, op, v, want_v) : v != want_v)
			ck_abort_msg("%s, %s keys, %s values, op %d, n %zu, pattern %d: value %zu is 0x%llx, expected 0x%llx%s",
				     call_names[call], type_names[kt], type_names[vt], (int)op, n,
				     (int)p, r, (unsigned long long)v, (unsigned long long)want_v,
				     r < runs ? "" : " (untouched)");
	}
	free(got_k);
	free(got_v);
	free(keys);
	free(values);
	free(ref_keys);
	free(ref_values);
	clReleaseMemObject(kb);
	clReleaseMemObject(uo);
	clReleaseMemObject(nb);
	if (vb)
		clReleaseMemObject(vb);
	if (ao)
		clReleaseMemObject(ao);
}

/* Vectors of 16 bytes per work-item for elements of `size` bytes: the
 * tuning's count, in proportion fewer for 1- and 2-byte elements
 * (src/algo_kinds.c, tile_vectors). */
static size_t
vectors_for(size_t vectors, size_t size)
{
	size_t vec = 16 / size;

	if (vec <= 4)
		return vectors;
	vectors = vectors * 4 / vec;
	return vectors ? vectors : 1;
}

/* Tile sizes (default tuning): unique is a compaction, 256 x 6 vectors
 * (5 on nv: unique_vectors); runs.cl 128 x 4 vectors of the wider of key
 * and value (run-length encode: of the key). */
static size_t
tile_of(clwarp_engine *e, enum call call, const struct runs_case *rc)
{
	clwarp_backend backend;
	bool nv = clwarp_engine_backend(e, &backend, NULL) == CLWARP_OK && backend == CLWARP_BACKEND_NV;
	/* runs.cl's tiles are 256 x 8 vectors on nv, 128 x 4 elsewhere. */
	size_t wg = call == CALL_UNIQUE || nv ? 256 : 128, ks = clwarp_type_size(rc->key);
	size_t vs = call == CALL_RBK ? clwarp_type_size(rc->value) : 1;
	size_t size = ks > vs ? ks : vs;

	while (wg > clwarp_engine_device_info(e)->max_work_group_size)
		wg /= 2;
	if (call == CALL_UNIQUE)
		return wg * vectors_for(nv ? 5 : 6, ks) * (16 / ks);
	return wg * vectors_for(nv ? 8 : 4, size) * (16 / size);
}

/* Sizes 0, 1, around the warp, a non-power of two, around a tile, several
 * tiles, large (random runs only); every pattern at three of them. */
static void
check_sizes(clwarp_engine *e, enum call call, const struct runs_case *rc)
{
	size_t w = warp_of(e), tile = tile_of(e, call, rc);
	size_t sizes[] = { 0, 1, w > 1 ? w - 1 : 2, w + 1, 1000, tile - 1, tile + 1, 3 * tile + 5,
			   (1u << 20) + 3 };
	size_t count = quick ? 8 : 9;

	runs_tile = tile;
	for (size_t s = 0; s < count; s++) {
		if (quick && s % 2 && s != 7)
			continue;
		check_runs(e, call, rc, sizes[s], PATTERN_RUNS, 1 + s);
		if (s == 1 || s == 4 || s == 7) {
			check_runs(e, call, rc, sizes[s], PATTERN_EQUAL, 20 + s);
			check_runs(e, call, rc, sizes[s], PATTERN_DISTINCT, 30 + s);
			if (is_float(rc->key))
				check_runs(e, call, rc, sizes[s], PATTERN_SPECIAL, 40 + s);
		}
	}
}

static clwarp_type
type_at(clwarp_engine *e, int i)
{
	clwarp_type t = (clwarp_type)i;

	return t == CLWARP_TYPE_DOUBLE && !has_fp64(e) ? CLWARP_TYPE_FLOAT : t;
}

/* ------------------------------------------------------------ tests */

START_TEST(test_unique)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	struct runs_case rc = { type_at(e, _i), CLWARP_TYPE_UINT, CLWARP_OP_ADD };

	check_sizes(e, CALL_UNIQUE, &rc);
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_run_length_encode)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	struct runs_case rc = { type_at(e, _i), CLWARP_TYPE_UINT, CLWARP_OP_ADD };

	check_sizes(e, CALL_RLE, &rc);
	clwarp_engine_free(e);
}
END_TEST

/* Every value type and operation, 4- and 8-byte pairs, and key types of
 * the other width (each line is one build). */
static const struct runs_case rbk_cases[] = {
	{ CLWARP_TYPE_UINT, CLWARP_TYPE_INT, CLWARP_OP_MIN },
	{ CLWARP_TYPE_LONG, CLWARP_TYPE_UINT, CLWARP_OP_ADD },
	{ CLWARP_TYPE_INT, CLWARP_TYPE_LONG, CLWARP_OP_MAX },
	{ CLWARP_TYPE_FLOAT, CLWARP_TYPE_ULONG, CLWARP_OP_ADD },
	{ CLWARP_TYPE_ULONG, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD },
	{ CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_OP_MAX },
	{ CLWARP_TYPE_DOUBLE, CLWARP_TYPE_DOUBLE, CLWARP_OP_ADD },
	{ CLWARP_TYPE_UINT, CLWARP_TYPE_DOUBLE, CLWARP_OP_MIN },
	/* 1- and 2-byte keys and values; sums wrap like the type. */
	{ CLWARP_TYPE_CHAR, CLWARP_TYPE_UCHAR, CLWARP_OP_ADD },
	{ CLWARP_TYPE_UCHAR, CLWARP_TYPE_SHORT, CLWARP_OP_MIN },
	{ CLWARP_TYPE_SHORT, CLWARP_TYPE_CHAR, CLWARP_OP_MAX },
	{ CLWARP_TYPE_USHORT, CLWARP_TYPE_USHORT, CLWARP_OP_ADD },
	{ CLWARP_TYPE_SHORT, CLWARP_TYPE_SHORT, CLWARP_OP_ADD },
	{ CLWARP_TYPE_CHAR, CLWARP_TYPE_CHAR, CLWARP_OP_MIN },
	{ CLWARP_TYPE_UCHAR, CLWARP_TYPE_UCHAR, CLWARP_OP_MAX },
	{ CLWARP_TYPE_UINT, CLWARP_TYPE_CHAR, CLWARP_OP_ADD },
	{ CLWARP_TYPE_LONG, CLWARP_TYPE_USHORT, CLWARP_OP_MAX },
	{ CLWARP_TYPE_USHORT, CLWARP_TYPE_INT, CLWARP_OP_ADD },
	{ CLWARP_TYPE_CHAR, CLWARP_TYPE_DOUBLE, CLWARP_OP_MIN },
};

/* Mesa's rusticl dies of SIGFPE in min/max of char values: the library
 * refuses that call there (src/algo_runs.c), and this checks the refusal. */
static bool
refused_on_rusticl(clwarp_engine *e, const struct runs_case *rc)
{
	const char *platform = clwarp_engine_device_info(e)->platform_name;
	cl_mem keys, values, out;
	clwarp_status status;

	if (rc->value != CLWARP_TYPE_CHAR || rc->op == CLWARP_OP_ADD || !platform ||
	    !strstr(platform, "rusticl"))
		return false;
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 64, NULL, &keys));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 64, NULL, &values));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 64, NULL, &out));
	status = clwarp_reduce_by_key(e, rc->key, rc->value, keys, values, out, out, out, 8, rc->op,
				      NULL);
	ck_assert_int_eq(status, CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(clwarp_last_error(), "not supported on Mesa's rusticl"),
		      "unexpected message: %s", clwarp_last_error());
	clReleaseMemObject(keys);
	clReleaseMemObject(values);
	clReleaseMemObject(out);
	return true;
}

START_TEST(test_reduce_by_key)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	struct runs_case rc = rbk_cases[_i];

	if (((rc.key == CLWARP_TYPE_DOUBLE || rc.value == CLWARP_TYPE_DOUBLE) && !has_fp64(e)) ||
	    refused_on_rusticl(e, &rc)) {
		clwarp_engine_free(e);
		return;
	}
	check_sizes(e, CALL_RBK, &rc);
	clwarp_engine_free(e);
}
END_TEST

/*
 * Small cases that take every kernel path (4- and 8-byte keys and pairs,
 * one and several tiles, partial tiles, runs across tiles, NaN and zeros):
 * cheap enough for Oclgrind.
 */
START_TEST(test_runs_small)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	struct runs_case rc_f = { CLWARP_TYPE_FLOAT, CLWARP_TYPE_UINT, CLWARP_OP_ADD };
	struct runs_case rc_l = { CLWARP_TYPE_LONG, CLWARP_TYPE_UINT, CLWARP_OP_ADD };

	runs_tile = 64;
	check_runs(e, CALL_UNIQUE, &rc_f, 3 * tile_of(e, CALL_UNIQUE, &rc_f) + 7, PATTERN_RUNS, 1);
	check_runs(e, CALL_UNIQUE, &rc_f, 300, PATTERN_SPECIAL, 2);
	check_runs(e, CALL_RLE, &rc_l, 3 * tile_of(e, CALL_RLE, &rc_l) + 7, PATTERN_RUNS, 3);
	check_runs(e, CALL_RLE, &rc_f, 0, PATTERN_RUNS, 4);
	check_runs(e, CALL_RBK, &rbk_cases[4], 2 * tile_of(e, CALL_RBK, &rbk_cases[4]) + 1,
		   PATTERN_RUNS, 5);
	check_runs(e, CALL_RBK, &rbk_cases[2], tile_of(e, CALL_RBK, &rbk_cases[2]) + 3,
		   PATTERN_EQUAL, 6);
	/* 1- and 2-byte keys and values: 16 and 8 to a vector. */
	struct runs_case rc_c = { CLWARP_TYPE_CHAR, CLWARP_TYPE_UINT, CLWARP_OP_ADD };
	struct runs_case rc_us = { CLWARP_TYPE_USHORT, CLWARP_TYPE_UINT, CLWARP_OP_ADD };

	check_runs(e, CALL_UNIQUE, &rc_c, 2 * tile_of(e, CALL_UNIQUE, &rc_c) + 5, PATTERN_RUNS, 7);
	check_runs(e, CALL_RLE, &rc_us, 2 * tile_of(e, CALL_RLE, &rc_us) + 3, PATTERN_RUNS, 8);
	check_runs(e, CALL_RBK, &rbk_cases[8], 2 * tile_of(e, CALL_RBK, &rbk_cases[8]) + 1,
		   PATTERN_RUNS, 9);
	clwarp_engine_free(e);
}
END_TEST

/* The local backend at a narrow and a wide warp. */
START_TEST(test_runs_local_widths)
{
	static const unsigned widths[] = { 8, 64 };
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_LOCAL, widths[_i]);
	struct runs_case rc_i = { CLWARP_TYPE_INT, CLWARP_TYPE_UINT, CLWARP_OP_ADD };

	/* Unique, and runs.cl with 8-byte pairs (local's fold) and 16-byte
	 * ones (its shuffle path); each is a build at each width. */
	runs_tile = 100;
	check_runs(e, CALL_UNIQUE, &rc_i, 2 * tile_of(e, CALL_UNIQUE, &rc_i) + 3, PATTERN_RUNS, 7);
	check_runs(e, CALL_RBK, &rbk_cases[5], 3 * tile_of(e, CALL_RBK, &rbk_cases[5]) + 1,
		   PATTERN_RUNS, 9);
	if (!quick)
		check_runs(e, CALL_RBK, &rbk_cases[2], 2 * tile_of(e, CALL_RBK, &rbk_cases[2]) + 9,
			   PATTERN_RUNS, 10);
	if (!refused_on_rusticl(e, &rbk_cases[10]))
		check_runs(e, CALL_RBK, &rbk_cases[10], 2 * tile_of(e, CALL_RBK, &rbk_cases[10]) + 7,
			   PATTERN_RUNS, 11);
	clwarp_engine_free(e);
}
END_TEST

/* Reduce by key's kernels built for the engine, as 1 (below by_key_regs_n)
 * | 2 (from it). */
static unsigned
by_key_paths(clwarp_engine *e, const struct runs_case *rc)
{
	unsigned paths = 0;

	for (struct algo_variant *v = e->algorithms ? e->algorithms->variants : NULL; v; v = v->next)
		if (v->kind == ALGO_RUNS && v->type == rc->key && v->value_type == (int)rc->value &&
		    v->op == rc->op)
			paths |= v->large ? 2u : 1u;
	return paths;
}

/* From by_key_regs_n elements reduce by key takes kernels of its own on
 * nv, built with by_key_regs registers (algo_tuning_regs); elsewhere the
 * same ones. Right on both sides of the threshold, here lowered to a few
 * tiles; run-length encode at the same sizes keeps one set of kernels. */
START_TEST(test_by_key_large)
{
	struct runs_case rc = { CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, CLWARP_OP_ADD };
	struct runs_case rle = { CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, CLWARP_OP_ADD };
	clwarp_backend backend;
	clwarp_engine *e;
	unsigned w;
	size_t at;
	char tuning[64];

	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	at = 2 * tile_of(e, CALL_RBK, &rc) + 5;
	clwarp_engine_free(e);
	snprintf(tuning, sizeof(tuning), "by_key_regs=72,by_key_regs_n=%zu", at);
	/* Read at the engine's first algorithm call: kept until the end. */
	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", tuning, 1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &w));
	runs_tile = tile_of(e, CALL_RBK, &rc);
	check_runs(e, CALL_RBK, &rc, at - 1, PATTERN_RUNS, 61);
	ck_assert_uint_eq(by_key_paths(e, &rc), 1);
	check_runs(e, CALL_RBK, &rc, at, PATTERN_RUNS, 62);
	check_runs(e, CALL_RBK, &rc, 3 * at + 1, PATTERN_EQUAL, 63);
	check_runs(e, CALL_RBK, &rc, 3 * at + 1, PATTERN_DISTINCT, 64);
	ck_assert_uint_eq(by_key_paths(e, &rc), (backend == CLWARP_BACKEND_NV ? 3u : 1u));
	check_runs(e, CALL_RLE, &rle, at - 1, PATTERN_RUNS, 65);
	check_runs(e, CALL_RLE, &rle, at + 1, PATTERN_RUNS, 66);
	for (struct algo_variant *v = e->algorithms->variants; v; v = v->next)
		ck_assert_msg(!(v->kind == ALGO_RUNS && v->value_type < 0 && v->large),
			      "run-length encode took reduce by key's large-input kernels");
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

/* Unique in tiles of its own shape (unique_vectors, here 3 vectors of
 * 64 work-items, while compaction keeps select_vectors; the one-work-group
 * path off): around a tile and over several, three patterns, int and
 * float keys, and the shape the engine built. */
START_TEST(test_unique_shape)
{
	static const clwarp_type keys[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT };
	clwarp_engine *e;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", "select_wg=64,unique_vectors=3,small_select_n=0", 1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	if (warp_of(e) <= 64) {
		size_t tile = 64 * 3 * 4;  /* 4-byte keys */
		const size_t sizes[] = { tile - 1, tile + 1, 5 * tile + 3 };

		runs_tile = tile;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			struct runs_case rc = { keys[k], CLWARP_TYPE_UINT, CLWARP_OP_ADD };

			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
				check_runs(e, CALL_UNIQUE, &rc, sizes[s], PATTERN_RUNS, 70 + s);
				check_runs(e, CALL_UNIQUE, &rc, sizes[s], PATTERN_DISTINCT, 80 + s);
			}
			check_runs(e, CALL_UNIQUE, &rc, 5 * tile + 3, PATTERN_EQUAL, 90);
		}
		unsigned built = 0;

		for (struct algo_variant *v = e->algorithms->variants; v; v = v->next) {
			if (v->kind != ALGO_UNIQUE)
				continue;
			ck_assert_msg(!v->small && v->vectors == 3 && v->wg == 64,
				      "unique's tile: %zu x %u vectors%s, expected 64 x 3", v->wg,
				      v->vectors, v->small ? " (one work-group)" : "");
			built++;
		}
		ck_assert_uint_eq(built, 2);  /* int and float keys */
	}
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("runs", &tc);

	test_read_quick();
	tcase_set_timeout(tc, quick ? 3000 : 600);
	runs_add_error_tests(tc, test_wanted);
	ADD_TEST(tc, test_runs_small);
	/* Quick: unique on the even types (signed and float), run-length
	 * encoding on the odd ones (unsigned and double), every width each. */
	if (test_wanted("test_unique"))
		test_add_loop_halved(tc, test_unique, TYPE_COUNT, 0);
	if (test_wanted("test_run_length_encode"))
		test_add_loop_halved(tc, test_run_length_encode, TYPE_COUNT, 1);
	if (test_wanted("test_reduce_by_key"))
		test_add_loop_halved(tc, test_reduce_by_key,
				     (int)(sizeof(rbk_cases) / sizeof(rbk_cases[0])), 0);
	runs_add_event_tests(tc, test_wanted);
	if (test_wanted("test_runs_local_widths"))
		test_add_loop_halved(tc, test_runs_local_widths, 2, 1);   /* quick: W = 64 */
	ADD_TEST(tc, test_by_key_large);
	ADD_TEST(tc, test_unique_shape);
	return test_main(s);
}
