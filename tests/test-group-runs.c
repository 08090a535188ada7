/* The data-dependent group algorithms (include/clwarp/group.h) on two or
 * more real devices: partition (both orders), unique, run-length encode,
 * reduce by key and histogram, each compared value by value with a host
 * reference over the whole array. The splits put runs across slice
 * boundaries (every boundary position of small arrays, long runs in large
 * ones, one run over every device), leave slices empty (n smaller than
 * the number of devices), and bad input gets its status and message.
 * Devices as group-testutil.h says. */
/* SPDX-License-Identifier: MIT */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "group-testutil.h"

/* ------------------------------------------------------------ helpers */

static bool
is_float_type(clwarp_type t)
{
	return t == CLWARP_TYPE_FLOAT || t == CLWARP_TYPE_DOUBLE;
}

/* Element i as an integer of its type (floats: not used). */
static int64_t
int_at(clwarp_type t, const void *p, size_t i)
{
	switch (t) {
	case CLWARP_TYPE_INT: return ((const cl_int *)p)[i];
	case CLWARP_TYPE_UINT: return ((const cl_uint *)p)[i];
	case CLWARP_TYPE_LONG: return ((const cl_long *)p)[i];
	case CLWARP_TYPE_ULONG: return (int64_t)((const cl_ulong *)p)[i];
	case CLWARP_TYPE_CHAR: return ((const cl_char *)p)[i];
	case CLWARP_TYPE_UCHAR: return ((const cl_uchar *)p)[i];
	case CLWARP_TYPE_SHORT: return ((const cl_short *)p)[i];
	case CLWARP_TYPE_USHORT: return ((const cl_ushort *)p)[i];
	default: return 0;
	}
}

static long double
float_at(clwarp_type t, const void *p, size_t i)
{
	return t == CLWARP_TYPE_FLOAT ? ((const cl_float *)p)[i] : ((const cl_double *)p)[i];
}

/* An integer as the type holds it: sums wrap around. */
static int64_t
wrap(clwarp_type t, int64_t v)
{
	switch (t) {
	case CLWARP_TYPE_INT: return (cl_int)(uint32_t)v;
	case CLWARP_TYPE_UINT: return (uint32_t)v;
	case CLWARP_TYPE_CHAR: return (cl_char)(uint8_t)v;
	case CLWARP_TYPE_UCHAR: return (uint8_t)v;
	case CLWARP_TYPE_SHORT: return (cl_short)(uint16_t)v;
	case CLWARP_TYPE_USHORT: return (uint16_t)v;
	default: return v;
	}
}

/* Keys compare as the kernels compare them: floats with ==, others by value. */
static bool
key_equal(clwarp_type t, const void *p, size_t a, size_t b)
{
	if (is_float_type(t))
		return float_at(t, p, a) == float_at(t, p, b);
	return int_at(t, p, a) == int_at(t, p, b);
}

/* Buffers that hold each device's slice of @p size-byte elements. */
static void
slice_buffers(clwarp_group *g, const size_t *offsets, size_t size, cl_mem *out)
{
	size_t bytes[CLWARP_GROUP_MAX_DEVICES];

	for (size_t d = 0; d < clwarp_group_size(g); d++)
		bytes[d] = (offsets[d + 1] - offsets[d]) * size;
	ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
}

static bool
group_has_fp64(const clwarp_group *g)
{
	for (size_t i = 0; i < clwarp_group_size(g); i++)
		if (!clwarp_engine_device_info(clwarp_group_engine(g, i))->has_fp64)
			return false;
	return true;
}

/* Keys in runs: lengths 1 to @p longest, each run's value one of 5 (so
 * that neighbouring runs may be equal and join). */
static void
fill_runs(clwarp_type t, void *keys, size_t n, size_t longest, uint32_t seed)
{
	uint32_t state = seed;
	size_t i = 0;

	while (i < n) {
		size_t len = 1 + next_random(&state) % longest;
		int v = (int)(next_random(&state) % 5) - 2;

		for (size_t k = 0; k < len && i < n; k++, i++) {
			switch (t) {
			case CLWARP_TYPE_INT: ((cl_int *)keys)[i] = v * 1000; break;
			case CLWARP_TYPE_LONG: ((cl_long *)keys)[i] = (cl_long)v * ((cl_long)1 << 40); break;
			case CLWARP_TYPE_UCHAR: ((cl_uchar *)keys)[i] = (cl_uchar)(v + 200); break;
			case CLWARP_TYPE_FLOAT: ((cl_float *)keys)[i] = (float)v * 0.5f; break;
			default: ck_abort_msg("fill_runs: type %d", (int)t);
			}
		}
	}
}

static void
fill_values(clwarp_type t, void *values, size_t n, uint32_t seed)
{
	uint32_t state = seed;

	for (size_t i = 0; i < n; i++) {
		int v = (int)(next_random(&state) % 2001) - 1000;

		switch (t) {
		case CLWARP_TYPE_INT: ((cl_int *)values)[i] = v * 3001; break;
		case CLWARP_TYPE_SHORT: ((cl_short *)values)[i] = (cl_short)(v * 31); break;
		case CLWARP_TYPE_CHAR: ((cl_char *)values)[i] = (cl_char)(v / 8); break;
		case CLWARP_TYPE_FLOAT: ((cl_float *)values)[i] = (float)v / 7.0f; break;
		case CLWARP_TYPE_DOUBLE: ((cl_double *)values)[i] = (double)v / 7.0; break;
		default: ck_abort_msg("fill_values: type %d", (int)t);
		}
	}
}

/* ------------------------------------------------------------ runs */

struct runs_input {
	clwarp_type kt;
	int vt;              /* reduce by key's value type, -1: none */
	clwarp_op op;
	const void *keys, *values;
	size_t n;
};

/* Run r's aggregate of its @p len values from @p first, against @p got. */
static void
check_aggregate(const struct runs_input *in, const void *got, size_t r, size_t first, size_t len,
		const char *what)
{
	clwarp_type vt = (clwarp_type)in->vt;

	if (is_float_type(vt)) {
		long double acc = float_at(vt, in->values, first), abs_sum = fabsl(acc);
		long double eps = vt == CLWARP_TYPE_FLOAT ? FLT_EPSILON : DBL_EPSILON;
		long double g = float_at(vt, got, r);

		for (size_t i = first + 1; i < first + len; i++) {
			long double v = float_at(vt, in->values, i);

			acc = in->op == CLWARP_OP_ADD ? acc + v : in->op == CLWARP_OP_MIN ? fminl(acc, v) : fmaxl(acc, v);
			abs_sum += fabsl(v);
		}
		ck_assert_msg(fabsl(g - acc) <= (long double)(len + 2) * eps * abs_sum,
			      "%s: aggregate %zu (%zu values from %zu) is %.10Lg, expected %.10Lg", what, r,
			      len, first, g, acc);
		return;
	}
	int64_t acc = int_at(vt, in->values, first);

	for (size_t i = first + 1; i < first + len; i++) {
		int64_t v = int_at(vt, in->values, i);

		acc = in->op == CLWARP_OP_ADD ? acc + v : in->op == CLWARP_OP_MIN ? (v < acc ? v : acc) : (v > acc ? v : acc);
	}
	ck_assert_msg(int_at(vt, got, r) == wrap(vt, acc),
		      "%s: aggregate %zu (%zu values from %zu) is %lld, expected %lld", what, r, len, first,
		      (long long)int_at(vt, got, r), (long long)wrap(vt, acc));
}

/* The parts of a result: each no longer than its slice, in order. */
static void
check_out_offsets(const clwarp_group *g, const size_t *offsets, const size_t *out_offsets,
		  size_t want, const char *what)
{
	size_t count = clwarp_group_size(g);

	ck_assert_uint_eq(out_offsets[0], 0);
	for (size_t d = 0; d < count; d++)
		ck_assert_msg(out_offsets[d + 1] >= out_offsets[d] &&
			      out_offsets[d + 1] - out_offsets[d] <= offsets[d + 1] - offsets[d],
			      "%s: device %zu's part [%zu, %zu) for a slice of %zu", what, d,
			      out_offsets[d], out_offsets[d + 1], offsets[d + 1] - offsets[d]);
	ck_assert_msg(out_offsets[count] == want, "%s: %zu runs, expected %zu", what,
		      out_offsets[count], want);
}

/* Unique, run-length encode and (with values) reduce by key of one split. */
static void
check_runs(clwarp_group *g, const struct runs_input *in, const size_t *offsets, const char *what)
{
	size_t ks = clwarp_type_size(in->kt), vs = in->vt >= 0 ? clwarp_type_size((clwarp_type)in->vt) : 4;
	size_t n = in->n, runs = 0, *start = malloc((n + 1) * sizeof(size_t));
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem kin[CLWARP_GROUP_MAX_DEVICES], vin[CLWARP_GROUP_MAX_DEVICES];
	cl_mem uk[CLWARP_GROUP_MAX_DEVICES], cnt[CLWARP_GROUP_MAX_DEVICES], agg[CLWARP_GROUP_MAX_DEVICES];
	char *gotk = malloc(n * ks + 1), *gotv = malloc(n * 8 + 1);

	for (size_t i = 0; i < n; i++)
		if (i == 0 || !key_equal(in->kt, in->keys, i - 1, i))
			start[runs++] = i;
	start[runs] = n;
	ck_assert_clwarp_ok(clwarp_group_scatter(g, in->keys, kin, offsets, ks));
	slice_buffers(g, offsets, ks, uk);
	slice_buffers(g, offsets, 4, cnt);
	/* Unique: the first key of every run, bit for bit. */
	ck_assert_clwarp_ok(clwarp_group_unique(g, in->kt, kin, uk, out_offsets, offsets));
	check_out_offsets(g, offsets, out_offsets, runs, what);
	ck_assert_clwarp_ok(clwarp_group_gather(g, uk, gotk, out_offsets, ks));
	for (size_t r = 0; r < runs; r++)
		ck_assert_msg(memcmp(gotk + r * ks, (const char *)in->keys + start[r] * ks, ks) == 0,
			      "%s: unique key %zu is not element %zu", what, r, start[r]);
	/* Run-length encode: the same keys, and each run's whole length. */
	memset(gotk, 0x5a, n * ks);
	ck_assert_clwarp_ok(clwarp_group_run_length_encode(g, in->kt, kin, uk, cnt, out_offsets, offsets));
	check_out_offsets(g, offsets, out_offsets, runs, what);
	ck_assert_clwarp_ok(clwarp_group_gather(g, uk, gotk, out_offsets, ks));
	ck_assert_clwarp_ok(clwarp_group_gather(g, cnt, gotv, out_offsets, 4));
	for (size_t r = 0; r < runs; r++) {
		ck_assert_msg(memcmp(gotk + r * ks, (const char *)in->keys + start[r] * ks, ks) == 0,
			      "%s: encoded key %zu is not element %zu", what, r, start[r]);
		ck_assert_msg(((cl_uint *)gotv)[r] == start[r + 1] - start[r],
			      "%s: run %zu from %zu counts %u, expected %zu", what, r, start[r],
			      ((cl_uint *)gotv)[r], start[r + 1] - start[r]);
	}
	if (in->vt >= 0) {
		memset(gotk, 0x5a, n * ks);
		ck_assert_clwarp_ok(clwarp_group_scatter(g, in->values, vin, offsets, vs));
		slice_buffers(g, offsets, vs, agg);
		ck_assert_clwarp_ok(clwarp_group_reduce_by_key(g, in->kt, (clwarp_type)in->vt, kin, vin, uk,
							       agg, out_offsets, offsets, in->op));
		check_out_offsets(g, offsets, out_offsets, runs, what);
		ck_assert_clwarp_ok(clwarp_group_gather(g, uk, gotk, out_offsets, ks));
		ck_assert_clwarp_ok(clwarp_group_gather(g, agg, gotv, out_offsets, vs));
		for (size_t r = 0; r < runs; r++) {
			ck_assert_msg(memcmp(gotk + r * ks, (const char *)in->keys + start[r] * ks, ks) == 0,
				      "%s: reduced key %zu is not element %zu", what, r, start[r]);
			check_aggregate(in, gotv, r, start[r], start[r + 1] - start[r], what);
		}
		clwarp_group_buffers_free(g, vin);
		clwarp_group_buffers_free(g, agg);
	}
	clwarp_group_buffers_free(g, kin);
	clwarp_group_buffers_free(g, uk);
	clwarp_group_buffers_free(g, cnt);
	free(start);
	free(gotk);
	free(gotv);
}

/* Offsets with the first boundary at @p b and the others at n. */
static void
boundary_split(const clwarp_group *g, size_t n, size_t b, size_t *offsets)
{
	size_t count = clwarp_group_size(g);

	offsets[0] = 0;
	offsets[1] = b;
	for (size_t d = 2; d <= count; d++)
		offsets[d] = n;
}

START_TEST(test_runs_every_boundary)
{
	clwarp_group *g = test_group();
	static const cl_int ikeys[] = { 5, 5, 5, 7, 7, 5, 5, 5, 5, 9, 9, 9, 9, 9, -1 };
	static const cl_int ivalues[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 3 };
	/* -0.0 equals +0.0 (one run, kept as its first bits); a NaN equals nothing. */
	const cl_float fkeys[] = { 1, 1, -0.0f, 0.0f, 0.0f, NAN, NAN, 2, 2, -0.0f, -0.0f };
	static const cl_float fvalues[] = { 0.5f, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
	size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	char what[96];

	for (size_t n = 0; n <= ARRAY_LENGTH(ikeys); n++) {
		for (size_t b = 0; b <= n; b++) {
			struct runs_input in = { CLWARP_TYPE_INT, CLWARP_TYPE_INT, CLWARP_OP_ADD, ikeys,
						 ivalues, n };

			/* Every length for the first few boundaries, every boundary for the whole array. */
			if (n < ARRAY_LENGTH(ikeys) && b > 2)
				continue;
			boundary_split(g, n, b, offsets);
			snprintf(what, sizeof(what), "int keys, n %zu, boundary %zu", n, b);
			check_runs(g, &in, offsets, what);
		}
	}
	for (size_t b = 0; b <= ARRAY_LENGTH(fkeys); b++) {
		struct runs_input in = { CLWARP_TYPE_FLOAT, CLWARP_TYPE_FLOAT, CLWARP_OP_MAX, fkeys,
					 fvalues, ARRAY_LENGTH(fkeys) };

		boundary_split(g, in.n, b, offsets);
		snprintf(what, sizeof(what), "float keys, boundary %zu", b);
		check_runs(g, &in, offsets, what);
	}
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_runs_large)
{
	static const struct {
		clwarp_type kt;
		int vt;
		clwarp_op op;
		size_t longest;   /* run lengths up to this; 0: one run of everything */
	} cases[] = {
		{ CLWARP_TYPE_INT, CLWARP_TYPE_INT, CLWARP_OP_ADD, 3000 },
		{ CLWARP_TYPE_INT, CLWARP_TYPE_INT, CLWARP_OP_MIN, 0 },
		{ CLWARP_TYPE_LONG, CLWARP_TYPE_SHORT, CLWARP_OP_MAX, 8 },
		{ CLWARP_TYPE_UCHAR, CLWARP_TYPE_CHAR, CLWARP_OP_ADD, 50 },
		{ CLWARP_TYPE_FLOAT, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 500 },
		{ CLWARP_TYPE_INT, CLWARP_TYPE_DOUBLE, CLWARP_OP_ADD, 2000 },
	};
	clwarp_group *g = test_group();
	size_t n = quick ? 20011 : 300007, offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	char *keys = malloc(n * 8), *values = malloc(n * 8), what[96];

	for (size_t c = 0; c < ARRAY_LENGTH(cases); c++) {
		struct runs_input in = { cases[c].kt, cases[c].vt, cases[c].op, keys, values, n };

		if (cases[c].vt == CLWARP_TYPE_DOUBLE && !group_has_fp64(g))
			continue;
		if (cases[c].longest)
			fill_runs(in.kt, keys, n, cases[c].longest, (uint32_t)(c + 7));
		else
			memset(keys, 0, n * clwarp_type_size(in.kt));
		fill_values((clwarp_type)in.vt, values, n, (uint32_t)(c + 11));
		for (int split = 0; split < SPLITS; split++) {
			make_split(g, n, split, offsets);
			snprintf(what, sizeof(what), "case %zu, n %zu, split %d", c, n, split);
			check_runs(g, &in, offsets, what);
		}
	}
	free(keys);
	free(values);
	clwarp_group_free(g);
}
END_TEST

/* ------------------------------------------------------------ partition */

static bool
selected(cl_int x)
{
	return x > 100 || (x & 7) == 3;
}

/* The whole partition from the devices' parts, as group.h places them. */
static void
assemble_partition(size_t count, const size_t *offsets, const size_t *out_offsets,
		   const cl_int *raw, bool reversed, cl_int *whole)
{
	size_t n = offsets[count], total = out_offsets[count];

	for (size_t d = 0; d < count; d++) {
		size_t sel = out_offsets[d + 1] - out_offsets[d];
		size_t rej = offsets[d + 1] - offsets[d] - sel;
		size_t before = offsets[d] - out_offsets[d], after = before + rej;

		for (size_t k = 0; k < sel; k++)
			whole[out_offsets[d] + k] = raw[offsets[d] + k];
		for (size_t k = 0; k < rej; k++)
			whole[(reversed ? n - after : total + before) + k] = raw[offsets[d] + sel + k];
	}
}

START_TEST(test_partition)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), sizes[] = { 0, 1, 2, 3, 1000, quick ? 20011 : 200003 };
	size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1], out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];

	for (size_t s = 0; s < ARRAY_LENGTH(sizes); s++) {
		size_t n = sizes[s], k = 0;
		cl_int *host = malloc(n * 4 + 4), *want = malloc(n * 4 + 4);
		cl_int *raw = malloc(n * 4 + 4), *whole = malloc(n * 4 + 4);
		uint32_t state = (uint32_t)(s + 3);

		for (size_t i = 0; i < n; i++)
			host[i] = (cl_int)(next_random(&state) % 2001) - 1000;
		for (size_t i = 0; i < n; i++)
			if (selected(host[i]))
				want[k++] = host[i];
		for (int flags = 0; flags <= (int)CLWARP_PARTITION_REVERSED; flags += (int)CLWARP_PARTITION_REVERSED) {
			bool reversed = flags != 0;
			size_t r = k;

			for (size_t i = 0; i < n; i++)
				if (!selected(host[i]))
					want[reversed ? n - 1 - (r++ - k) : r++] = host[i];
			for (int split = 0; split < SPLITS; split++) {
				cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES];

				make_split(g, n, split, offsets);
				ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, 4));
				slice_buffers(g, offsets, 4, out);
				ck_assert_clwarp_ok(clwarp_group_partition(g, CLWARP_TYPE_INT, in, out, out_offsets,
									   offsets, "x > 100 || (x & 7) == 3",
									   (unsigned)flags));
				check_out_offsets(g, offsets, out_offsets, k, "partition");
				ck_assert_clwarp_ok(clwarp_group_gather(g, out, raw, offsets, 4));
				assemble_partition(count, offsets, out_offsets, raw, reversed, whole);
				for (size_t i = 0; i < n; i++)
					ck_assert_msg(whole[i] == want[i],
						      "partition n %zu flags %d split %d: element %zu is %d, expected %d",
						      n, flags, split, i, whole[i], want[i]);
				clwarp_group_buffers_free(g, in);
				clwarp_group_buffers_free(g, out);
			}
		}
		free(host);
		free(want);
		free(raw);
		free(whole);
	}
	clwarp_group_free(g);
}
END_TEST

/* ------------------------------------------------------------ histogram */

/* Integer samples in [-50, 1050) over [0, 1000): bins of the shared
 * (few) and global (many) kernels; float samples k / 4 over [0, 64), 16
 * bins, where the bin (x - 0) * (16 / 64) is exact. */
START_TEST(test_histogram)
{
	clwarp_group *g = test_group();
	size_t sizes[] = { 0, 1, 3, 1000, quick ? 30011 : 400009 }, binss[] = { 1, 37, 5000 };
	size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_int ilo = 0, ihi = 1000;
	cl_float flo = 0.0f, fhi = 64.0f;

	for (size_t s = 0; s < ARRAY_LENGTH(sizes); s++) {
		size_t n = sizes[s];
		cl_int *isamples = malloc(n * 4 + 4);
		cl_float *fsamples = malloc(n * 4 + 4);
		cl_uint *got = malloc(5000 * 4), *want = malloc(5000 * 4);
		uint32_t state = (uint32_t)(s + 21);

		for (size_t i = 0; i < n; i++) {
			isamples[i] = (cl_int)(next_random(&state) % 1100) - 50;
			fsamples[i] = (float)((int)(next_random(&state) % 300) - 20) / 4.0f;
		}
		for (size_t t = 0; t < 4; t++) {
			bool flt = t == 3;
			size_t bins = flt ? 16 : binss[t];
			int split = (int)((s + t) % SPLITS);
			cl_mem in[CLWARP_GROUP_MAX_DEVICES];

			memset(want, 0, bins * 4);
			for (size_t i = 0; i < n; i++) {
				if (flt && fsamples[i] >= 0.0f && fsamples[i] < 64.0f)
					want[(size_t)(fsamples[i] * 0.25f)]++;
				else if (!flt && isamples[i] >= 0 && isamples[i] < 1000)
					want[(size_t)isamples[i] * bins / 1000]++;
			}
			make_split(g, n, split, offsets);
			ck_assert_clwarp_ok(clwarp_group_scatter(g,
								 flt ? (void *)fsamples : (void *)isamples,
								 in, offsets, 4));
			memset(got, 0xff, bins * 4);
			ck_assert_clwarp_ok(clwarp_group_histogram(g, flt ? CLWARP_TYPE_FLOAT : CLWARP_TYPE_INT, in,
								   got, offsets, bins,
								   flt ? (void *)&flo : (void *)&ilo,
								   flt ? (void *)&fhi : (void *)&ihi));
			for (size_t b = 0; b < bins; b++)
				ck_assert_msg(got[b] == want[b], "n %zu, %s, %zu bins, split %d: bin %zu counts %u, expected %u",
					      n, flt ? "float" : "int", bins, split, b, got[b], want[b]);
			clwarp_group_buffers_free(g, in);
		}
		free(isamples);
		free(fsamples);
		free(got);
		free(want);
	}
	clwarp_group_free(g);
}
END_TEST

/* ------------------------------------------------------------ bad input */

START_TEST(test_errors)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES], cnt[CLWARP_GROUP_MAX_DEVICES];
	cl_int host[64] = { 0 }, lo = 0, hi = 10;
	cl_uint counts[4];

	ck_assert_clwarp_ok(clwarp_group_split(g, 64, 1, offsets));
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, 4));
	slice_buffers(g, offsets, 4, out);
	slice_buffers(g, offsets, 4, cnt);
	expect_error(clwarp_group_partition(NULL, CLWARP_TYPE_INT, in, out, out_offsets, offsets, "x > 0", 0),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_partition: NULL group");
	expect_error(clwarp_group_partition(g, CLWARP_TYPE_INT, in, out, out_offsets, offsets, "x > 0", 0x80),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_partition: unknown flags 0x80");
	expect_error(clwarp_group_partition(g, CLWARP_TYPE_INT, in, out, NULL, offsets, "x > 0", 0),
		     CLWARP_ERROR_INVALID_ARGUMENT, "NULL out_offsets");
	expect_error(clwarp_group_partition(g, CLWARP_TYPE_INT, in, in, out_offsets, offsets, "x > 0", 0),
		     CLWARP_ERROR_INVALID_ARGUMENT, "device 0 (");
	expect_error(clwarp_group_unique(g, CLWARP_TYPE_INT, in, NULL, out_offsets, offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_unique: NULL buffer array");
	expect_error(clwarp_group_unique(g, (clwarp_type)77, in, out, out_offsets, offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	expect_error(clwarp_group_run_length_encode(g, CLWARP_TYPE_INT, in, out, NULL, out_offsets, offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_run_length_encode: NULL");
	expect_error(clwarp_group_reduce_by_key(g, CLWARP_TYPE_INT, (clwarp_type)42, in, in, out, cnt,
						out_offsets, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "unknown value type 42");
	expect_error(clwarp_group_reduce_by_key(g, CLWARP_TYPE_INT, CLWARP_TYPE_INT, in, NULL, out, cnt,
						out_offsets, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "NULL");
	expect_error(clwarp_group_reduce_by_key(g, CLWARP_TYPE_INT, CLWARP_TYPE_INT, in, in, out, cnt,
						out_offsets, offsets, (clwarp_op)9),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_reduce_by_key");
	expect_error(clwarp_group_histogram(g, CLWARP_TYPE_INT, in, NULL, offsets, 4, &lo, &hi),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_histogram: NULL counts");
	expect_error(clwarp_group_histogram(g, CLWARP_TYPE_INT, in, counts, offsets, 0, &lo, &hi),
		     CLWARP_ERROR_INVALID_ARGUMENT, "bins must be at least 1");
	/* Bounds the way round: the device's own check, naming device 0. */
	expect_error(clwarp_group_histogram(g, CLWARP_TYPE_INT, in, counts, offsets, 4, &hi, &lo),
		     CLWARP_ERROR_INVALID_ARGUMENT, "device 0 (");
	expect_error(clwarp_group_histogram(g, CLWARP_TYPE_INT, in, counts, offsets, 4, NULL, &hi),
		     CLWARP_ERROR_INVALID_ARGUMENT, "device 0 (");
	offsets[0] = 1;
	expect_error(clwarp_group_unique(g, CLWARP_TYPE_INT, in, out, out_offsets, offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "offsets[0] is 1");
	/* Nothing is lost: the group still works, with every slice but the last empty. */
	for (size_t d = 0; d < count; d++)
		offsets[d] = 0;
	offsets[count] = 1;
	ck_assert_clwarp_ok(clwarp_group_histogram(g, CLWARP_TYPE_INT, in,
						   counts, offsets, 4, &lo, &hi));
	ck_assert_uint_eq(counts[0], 1);
	ck_assert_uint_eq(counts[1] + counts[2] + counts[3], 0);
	clwarp_group_buffers_free(g, in);
	clwarp_group_buffers_free(g, out);
	clwarp_group_buffers_free(g, cnt);
	clwarp_group_free(g);
}
END_TEST

static void
add_tests(TCase *tc)
{
	ADD_TEST(tc, test_runs_every_boundary);
	ADD_TEST(tc, test_runs_large);
	ADD_TEST(tc, test_partition);
	ADD_TEST(tc, test_histogram);
	ADD_TEST(tc, test_errors);
}

int
main(void)
{
	return group_test_main("group-runs", add_tests);
}
