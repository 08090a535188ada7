/* The algorithms of device groups (include/clwarp/group.h) on two or more
 * real devices: reduce and both scans for every type, compaction,
 * segmented reduce and scan, softmax, and argument errors that name their
 * device, over splits that are even, uneven, and with an empty slice first
 * or last. Every result is compared element by element with a host
 * reference; devices as group-testutil.h says. */
/* SPDX-License-Identifier: MIT */
#include <float.h>
#include <math.h>

#include "group-testutil.h"

/* ------------------------------------------------------------ reference */

/* Host values: small integers, so that float sums are exact where the
 * order does not matter, and bounded in error where it does. */
static void
fill(clwarp_type type, void *data, size_t n, uint32_t seed)
{
	uint32_t state = seed;

	for (size_t i = 0; i < n; i++) {
		int v = (int)(next_random(&state) % 2001) - 1000;

		switch (type) {
		case CLWARP_TYPE_INT: ((cl_int *)data)[i] = v; break;
		case CLWARP_TYPE_UINT: ((cl_uint *)data)[i] = (cl_uint)v * 2654435761u; break;
		case CLWARP_TYPE_LONG: ((cl_long *)data)[i] = (cl_long)v * 1000003; break;
		case CLWARP_TYPE_ULONG: ((cl_ulong *)data)[i] = (cl_ulong)v * 0x9e3779b97f4a7c15ull; break;
		case CLWARP_TYPE_FLOAT: ((cl_float *)data)[i] = (float)v / 7.0f; break;
		case CLWARP_TYPE_DOUBLE: ((cl_double *)data)[i] = (double)v / 7.0; break;
		case CLWARP_TYPE_CHAR: ((cl_char *)data)[i] = (cl_char)(v / 8); break;
		case CLWARP_TYPE_UCHAR: ((cl_uchar *)data)[i] = (cl_uchar)(v + 1000); break;
		case CLWARP_TYPE_SHORT: ((cl_short *)data)[i] = (cl_short)(v * 31); break;
		case CLWARP_TYPE_USHORT: ((cl_ushort *)data)[i] = (cl_ushort)(v * 31); break;
		}
	}
}

/* Element i as a long double, and whether the type is a float type. */
static long double
value_at(clwarp_type type, const void *data, size_t i)
{
	switch (type) {
	case CLWARP_TYPE_INT: return ((const cl_int *)data)[i];
	case CLWARP_TYPE_UINT: return ((const cl_uint *)data)[i];
	case CLWARP_TYPE_LONG: return ((const cl_long *)data)[i];
	case CLWARP_TYPE_ULONG: return ((const cl_ulong *)data)[i];
	case CLWARP_TYPE_FLOAT: return ((const cl_float *)data)[i];
	case CLWARP_TYPE_CHAR: return ((const cl_char *)data)[i];
	case CLWARP_TYPE_UCHAR: return ((const cl_uchar *)data)[i];
	case CLWARP_TYPE_SHORT: return ((const cl_short *)data)[i];
	case CLWARP_TYPE_USHORT: return ((const cl_ushort *)data)[i];
	default: return ((const cl_double *)data)[i];
	}
}

static bool
is_float(clwarp_type type)
{
	return type == CLWARP_TYPE_FLOAT || type == CLWARP_TYPE_DOUBLE;
}

/* acc OP element i, in the type's own arithmetic (integers wrap). */
static void
host_combine(clwarp_type type, clwarp_op op, void *acc, const void *data, size_t i)
{
#define HOST_OP(T, UT) do { \
		T *a = acc, v = ((const T *)data)[i]; \
		*a = op == CLWARP_OP_ADD ? (T)((UT)*a + (UT)v) : op == CLWARP_OP_MIN ? (v < *a ? v : *a) : (v > *a ? v : *a); \
	} while (0)
	switch (type) {
	case CLWARP_TYPE_INT: HOST_OP(cl_int, cl_uint); break;
	case CLWARP_TYPE_UINT: HOST_OP(cl_uint, cl_uint); break;
	case CLWARP_TYPE_LONG: HOST_OP(cl_long, cl_ulong); break;
	case CLWARP_TYPE_ULONG: HOST_OP(cl_ulong, cl_ulong); break;
	case CLWARP_TYPE_FLOAT: {
		long double *a = acc;   /* floats: the exact value, compared with a bound */
		long double v = value_at(type, data, i);

		*a = op == CLWARP_OP_ADD ? *a + v : op == CLWARP_OP_MIN ? fminl(*a, v) : fmaxl(*a, v);
		break;
	}
	default: {
		long double *a = acc;
		long double v = value_at(type, data, i);

		*a = op == CLWARP_OP_ADD ? *a + v : op == CLWARP_OP_MIN ? fminl(*a, v) : fmaxl(*a, v);
		break;
	}
	}
#undef HOST_OP
}

/* The host identity: integers as the kernels have it, floats as long double. */
static void
host_identity(clwarp_type type, clwarp_op op, void *acc)
{
	memset(acc, 0, 16);
	if (is_float(type)) {
		*(long double *)acc = op == CLWARP_OP_MIN ? INFINITY : op == CLWARP_OP_MAX ? -INFINITY : 0.0L;
		return;
	}
	if (op == CLWARP_OP_ADD)
		return;
	switch (type) {
	case CLWARP_TYPE_INT: *(cl_int *)acc = op == CLWARP_OP_MIN ? INT32_MAX : INT32_MIN; break;
	case CLWARP_TYPE_UINT: *(cl_uint *)acc = op == CLWARP_OP_MIN ? UINT32_MAX : 0; break;
	case CLWARP_TYPE_LONG: *(cl_long *)acc = op == CLWARP_OP_MIN ? INT64_MAX : INT64_MIN; break;
	default: *(cl_ulong *)acc = op == CLWARP_OP_MIN ? UINT64_MAX : 0; break;
	}
}

/* Device value `got` (element i of an array of `type`) against the host's
 * `want`: integers exactly, floats within n * eps * sum |x| (the tree order
 * of any sum of n terms). */
static void
check_value(clwarp_type type, const void *got, size_t i, const void *want, long double abs_sum,
	    size_t n, const char *what)
{
	if (is_float(type)) {
		long double g = value_at(type, got, i), w = *(const long double *)want;
		long double eps = type == CLWARP_TYPE_FLOAT ? FLT_EPSILON : DBL_EPSILON;

		ck_assert_msg(isinf(w) ? g == w : fabsl(g - w) <= (long double)(n + 2) * eps * abs_sum + 1e-30L,
			      "%s, element %zu: %.10Lg, expected %.10Lg", what, i, g, w);
	} else {
		size_t size = clwarp_type_size(type);

		ck_assert_msg(memcmp((const char *)got + i * size, want, size) == 0,
			      "%s, element %zu: %.0Lf, expected %.0Lf", what, i, value_at(type, got, i),
			      value_at(type, want, 0));
	}
}

static bool
group_has_fp64(const clwarp_group *g)
{
	for (size_t i = 0; i < clwarp_group_size(g); i++)
		if (!clwarp_engine_device_info(clwarp_group_engine(g, i))->has_fp64)
			return false;
	return true;
}

/* Every type, each with one or two of the operations: every variant is
 * a kernel build per device (the single-device tests run the whole
 * matrix). */
static const struct {
	clwarp_type type;
	clwarp_op op;
} cases[] = {
	{ CLWARP_TYPE_INT, CLWARP_OP_ADD },    { CLWARP_TYPE_INT, CLWARP_OP_MIN },
	{ CLWARP_TYPE_UINT, CLWARP_OP_MAX },   { CLWARP_TYPE_LONG, CLWARP_OP_ADD },
	{ CLWARP_TYPE_ULONG, CLWARP_OP_MIN },  { CLWARP_TYPE_FLOAT, CLWARP_OP_ADD },
	{ CLWARP_TYPE_FLOAT, CLWARP_OP_MAX },  { CLWARP_TYPE_DOUBLE, CLWARP_OP_ADD },
};

START_TEST(test_reduce_scan)
{
	clwarp_group *g = test_group();
	size_t sizes[] = { 0, 1, 1000, 100003 }, offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t nsizes = quick ? 3 : 4;

	for (size_t t = 0; t < ARRAY_LENGTH(cases); t++) {
		clwarp_type type = cases[t].type;
		clwarp_op op = cases[t].op;
		size_t size = clwarp_type_size(type);

		if (type == CLWARP_TYPE_DOUBLE && !group_has_fp64(g))
			continue;
		for (size_t s = 0; s < nsizes; s++) {
			size_t n = sizes[s];
			char *host = malloc(n * size + 1), *got = malloc(n * size + 1);

			fill(type, host, n, (uint32_t)(t * 131 + s + 1));
			{
				int split = (int)((s + t) % SPLITS);
				cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES];
				long double abs_sum = 0;
				char acc[16], result[16];
				char what[128];

				make_split(g, n, split, offsets);
				ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, size));
				/* Reduce. */
				host_identity(type, op, acc);
				for (size_t i = 0; i < n; i++) {
					host_combine(type, op, acc, host, i);
					abs_sum += fabsl(value_at(type, host, i));
				}
				ck_assert_clwarp_ok(clwarp_group_reduce(g, type, in, result,
									offsets, op));
				snprintf(what, sizeof(what), "reduce type %d op %d n %zu split %d", (int)type, op, n, split);
				check_value(type, result, 0, acc, abs_sum, n, what);
				/* Scans: inclusive out of place, exclusive in place. */
				for (int inclusive = 1; inclusive >= 0; inclusive--) {
					const cl_mem *dst = in;

					if (inclusive) {
						size_t bytes[CLWARP_GROUP_MAX_DEVICES];

						for (size_t d = 0; d < clwarp_group_size(g); d++)
							bytes[d] = (offsets[d + 1] - offsets[d]) * size;
						ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
						dst = out;
					}
					ck_assert_clwarp_ok(clwarp_group_scan(g, type, in, dst,
									      offsets, op,
									      (inclusive ? CLWARP_SCAN_INCLUSIVE : 0)));
					ck_assert_clwarp_ok(clwarp_group_gather(g, dst, got,
							offsets, size));
					host_identity(type, op, acc);
					abs_sum = 0;
					for (size_t i = 0; i < n; i++) {
						snprintf(what, sizeof(what), "%sclusive scan type %d op %d n %zu split %d",
							 inclusive ? "in" : "ex", (int)type, op, n, split);
						abs_sum += fabsl(value_at(type, host, i));
						if (inclusive)
							host_combine(type, op, acc, host, i);
						check_value(type, got, i, acc, abs_sum, i + 1, what);
						if (!inclusive)
							host_combine(type, op, acc, host, i);
					}
					if (inclusive)
						clwarp_group_buffers_free(g, out);
				}
				clwarp_group_buffers_free(g, in);
			}
			free(host);
			free(got);
		}
	}
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_compact)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1], n = quick ? 5000 : 200003;
	cl_int *host = malloc(n * sizeof(cl_int)), *got = malloc(n * sizeof(cl_int));

	fill(CLWARP_TYPE_INT, host, n, 99);
	for (int split = 0; split < SPLITS; split++) {
		cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES];
		size_t bytes[CLWARP_GROUP_MAX_DEVICES], k = 0;

		make_split(g, n, split, offsets);
		for (size_t d = 0; d < count; d++)
			bytes[d] = (offsets[d + 1] - offsets[d]) * sizeof(cl_int);
		ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, sizeof(cl_int)));
		ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
		ck_assert_clwarp_ok(clwarp_group_compact(g, CLWARP_TYPE_INT, in, out, out_offsets,
							 offsets, "x > 100 || (x & 7) == 3"));
		ck_assert_uint_eq(out_offsets[0], 0);
		/* Each device's part is read to its place in the whole result. */
		for (size_t d = 0; d < count; d++)
			ck_assert_uint_le(out_offsets[d + 1] - out_offsets[d], offsets[d + 1] - offsets[d]);
		ck_assert_clwarp_ok(clwarp_group_gather(g, out, got, out_offsets, sizeof(cl_int)));
		for (size_t i = 0; i < n; i++) {
			cl_int x = host[i];

			if (x > 100 || (x & 7) == 3) {
				ck_assert_msg(k < out_offsets[count] && got[k] == x,
					      "split %d: selected element %zu is %d, expected %d", split, k,
					      k < out_offsets[count] ? got[k] : -1, x);
				k++;
			}
		}
		ck_assert_uint_eq(k, out_offsets[count]);
		clwarp_group_buffers_free(g, in);
		clwarp_group_buffers_free(g, out);
	}
	/* uchar elements (one byte each, 16 to a vector), split by the weights. */
	{
		cl_uchar *bytes_in = (cl_uchar *)host, *bytes_got = (cl_uchar *)got;
		cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES];
		size_t bytes[CLWARP_GROUP_MAX_DEVICES], k = 0;

		fill(CLWARP_TYPE_UCHAR, bytes_in, n, 98);
		make_split(g, n, 0, offsets);
		for (size_t d = 0; d < count; d++)
			bytes[d] = offsets[d + 1] - offsets[d];
		ck_assert_clwarp_ok(clwarp_group_scatter(g, bytes_in, in, offsets, 1));
		ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
		ck_assert_clwarp_ok(clwarp_group_compact(g, CLWARP_TYPE_UCHAR, in, out, out_offsets,
							 offsets, "x > 200"));
		ck_assert_clwarp_ok(clwarp_group_gather(g, out, bytes_got, out_offsets, 1));
		for (size_t i = 0; i < n; i++) {
			if (bytes_in[i] > 200) {
				ck_assert_msg(k < out_offsets[count] && bytes_got[k] == bytes_in[i],
					      "uchar: selected element %zu is %d, expected %d", k,
					      k < out_offsets[count] ? bytes_got[k] : -1, bytes_in[i]);
				k++;
			}
		}
		ck_assert_uint_eq(k, out_offsets[count]);
		clwarp_group_buffers_free(g, in);
		clwarp_group_buffers_free(g, out);
	}
	free(host);
	free(got);
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_rows)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), row_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t lengths[] = { 1, 37, 300 }, rows = quick ? 9 : 61;

	for (size_t l = 0; l < ARRAY_LENGTH(lengths); l++) {
		size_t len = lengths[l], n = rows * len;
		cl_int *host = malloc(n * sizeof(cl_int)), *got = malloc(n * sizeof(cl_int));
		cl_float *fhost = malloc(n * sizeof(cl_float)), *fgot = malloc(n * sizeof(cl_float));
		cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES];
		size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1], reduced[CLWARP_GROUP_MAX_DEVICES + 1];

		fill(CLWARP_TYPE_INT, host, n, (uint32_t)(len + 5));
		fill(CLWARP_TYPE_FLOAT, fhost, n, (uint32_t)(len + 6));
		make_split(g, rows, (int)(l % SPLITS), row_offsets);
		for (size_t d = 0; d <= count; d++)
			offsets[d] = row_offsets[d] * len;
		/* Segmented reduce (max): one value per row, rows in place on
		 * their devices. */
		ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, sizeof(cl_int)));
		ck_assert_clwarp_ok(clwarp_group_scatter(g, host, out, offsets, sizeof(cl_int)));
		ck_assert_clwarp_ok(clwarp_group_segmented_reduce(g, CLWARP_TYPE_INT, in, out,
								  row_offsets, len, CLWARP_OP_MAX));
		memcpy(reduced, row_offsets, sizeof(reduced));
		ck_assert_clwarp_ok(clwarp_group_gather(g, out, got, reduced, sizeof(cl_int)));
		for (size_t r = 0; r < rows; r++) {
			cl_int m = INT32_MIN;

			for (size_t j = 0; j < len; j++)
				m = host[r * len + j] > m ? host[r * len + j] : m;
			ck_assert_msg(got[r] == m, "row %zu of %zu: max %d, expected %d", r, len, got[r], m);
		}
		/* Segmented scan (add, exclusive), in place. */
		ck_assert_clwarp_ok(clwarp_group_segmented_scan(g, CLWARP_TYPE_INT, in, in,
								row_offsets, len, CLWARP_OP_ADD, 0));
		ck_assert_clwarp_ok(clwarp_group_gather(g, in, got, offsets, sizeof(cl_int)));
		for (size_t r = 0; r < rows; r++) {
			cl_int sum = 0;

			for (size_t j = 0; j < len; j++) {
				ck_assert_msg(got[r * len + j] == sum, "row %zu, element %zu: %d, expected %d", r,
					      j, got[r * len + j], sum);
				sum += host[r * len + j];
			}
		}
		clwarp_group_buffers_free(g, in);
		clwarp_group_buffers_free(g, out);
		/* Softmax of float rows. */
		ck_assert_clwarp_ok(clwarp_group_scatter(g, fhost, in, offsets, sizeof(cl_float)));
		ck_assert_clwarp_ok(clwarp_group_softmax_rows(g, in, in, row_offsets, len));
		ck_assert_clwarp_ok(clwarp_group_gather(g, in, fgot, offsets, sizeof(cl_float)));
		for (size_t r = 0; r < rows; r++) {
			double m = -INFINITY, sum = 0;

			for (size_t j = 0; j < len; j++)
				m = fmax(m, fhost[r * len + j]);
			for (size_t j = 0; j < len; j++)
				sum += exp((double)fhost[r * len + j] - m);
			for (size_t j = 0; j < len; j++) {
				double want = exp((double)fhost[r * len + j] - m) / sum;

				ck_assert_msg(fabs(fgot[r * len + j] - want) <= 1e-5 * want + 1e-7,
					      "softmax row %zu, element %zu: %g, expected %g", r, j,
					      (double)fgot[r * len + j], want);
			}
		}
		clwarp_group_buffers_free(g, in);
		free(host);
		free(got);
		free(fhost);
		free(fgot);
	}
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_errors)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem in[CLWARP_GROUP_MAX_DEVICES], swapped[CLWARP_GROUP_MAX_DEVICES];
	cl_int host[256] = { 0 }, result;

	ck_assert_clwarp_ok(clwarp_group_split(g, 256, 1, offsets));
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, in, offsets, sizeof(cl_int)));
	/* Device 1's buffer given to device 0: the message names device 0 and
	 * the buffer's context. */
	for (size_t d = 0; d < count; d++)
		swapped[d] = in[(d + 1) % count];
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, swapped, &result, offsets,
					 CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "device 0 (");
	/* A buffer too small for its slice. */
	offsets[count] = 100000;
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, in, &result, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "holds");
	ck_assert_clwarp_ok(clwarp_group_split(g, 256, 1, offsets));
	expect_error(clwarp_group_reduce(g, (clwarp_type)99, in, &result, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, in, NULL, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "NULL result");
	/* 1- and 2-byte types: refused by the calls that combine elements. */
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_UCHAR, in, &result, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_reduce: uchar elements are not supported");
	expect_error(clwarp_group_scan(g, CLWARP_TYPE_SHORT, in, in, offsets, CLWARP_OP_MAX,
				       CLWARP_SCAN_INCLUSIVE),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_scan: short elements are not supported");
	expect_error(clwarp_group_segmented_reduce(g, CLWARP_TYPE_CHAR, in, in, offsets, 1,
						   CLWARP_OP_MIN),
		     CLWARP_ERROR_INVALID_ARGUMENT,
		     "clwarp_group_segmented_reduce: char elements are not supported");
	expect_error(clwarp_group_segmented_scan(g, CLWARP_TYPE_USHORT, in, in, offsets, 1,
						 CLWARP_OP_ADD, 0),
		     CLWARP_ERROR_INVALID_ARGUMENT,
		     "clwarp_group_segmented_scan: ushort elements are not supported");
	expect_error(clwarp_group_scan(g, CLWARP_TYPE_INT, in, NULL, offsets, CLWARP_OP_ADD,
				       CLWARP_SCAN_INCLUSIVE),
		     CLWARP_ERROR_INVALID_ARGUMENT, "NULL");
	expect_error(clwarp_group_compact(g, CLWARP_TYPE_INT, in, in, out_offsets, offsets, "x >"),
		     CLWARP_ERROR_INVALID_ARGUMENT, "must be different buffers");
	{
		size_t bytes[CLWARP_GROUP_MAX_DEVICES];
		cl_mem out[CLWARP_GROUP_MAX_DEVICES];

		for (size_t d = 0; d < count; d++)
			bytes[d] = sizeof(host);
		ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
		expect_error(clwarp_group_compact(g, CLWARP_TYPE_INT, in, out, out_offsets, offsets,
						  "x >"),
			     CLWARP_ERROR_BUILD, "device 0 (");
		clwarp_group_buffers_free(g, out);
	}
	offsets[0] = 1;
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, in, &result, offsets, CLWARP_OP_ADD),
		     CLWARP_ERROR_INVALID_ARGUMENT, "offsets[0] is 1");
	expect_error(clwarp_group_scatter(g, host, swapped, offsets, 0), CLWARP_ERROR_INVALID_ARGUMENT,
		     "offsets[0]");
	/* Every engine is still usable after the errors. */
	ck_assert_clwarp_ok(clwarp_group_split(g, 256, 1, offsets));
	ck_assert_clwarp_ok(clwarp_group_reduce(g, CLWARP_TYPE_INT, in, &result, offsets,
						CLWARP_OP_ADD));
	ck_assert_int_eq(result, 0);
	clwarp_group_buffers_free(g, in);
	clwarp_group_free(g);
}
END_TEST

static void
add_tests(TCase *tc)
{
	ADD_TEST(tc, test_reduce_scan);
	ADD_TEST(tc, test_compact);
	ADD_TEST(tc, test_rows);
	ADD_TEST(tc, test_errors);
}

int
main(void)
{
	return group_test_main("group-algorithms", add_tests);
}
