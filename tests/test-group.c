/* Device groups (include/clwarp/group.h) on two or more real devices: every
 * result is compared element by element with a host reference.
 *
 * Devices: CLWARP_DEVICES, else every device. meson runs this with PoCL's
 * POCL_DEVICES="pthread pthread" (two CPU devices); CI's PoCL-R step runs
 * it against two remote pocld servers. CLWARP_TEST_QUICK=1 keeps only
 * small sizes. */
/* SPDX-License-Identifier: MIT */
#include <float.h>
#include <math.h>

#include "testutil.h"

#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

static bool quick;

static clwarp_group *
test_group(void)
{
	clwarp_group *g = NULL;

	ck_assert_clwarp_ok(clwarp_group_new(NULL, NULL, &g));
	ck_assert_msg(clwarp_group_size(g) >= 2,
		      "the group tests need two devices (PoCL: POCL_DEVICES=\"pthread pthread\"); CLWARP_DEVICES=\"%s\" gave %zu",
		      getenv("CLWARP_DEVICES") ? getenv("CLWARP_DEVICES") : "", clwarp_group_size(g));
	return g;
}

/* A deterministic pseudo-random sequence (xorshift), the same on every run. */
static uint32_t
next_random(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* The splits every algorithm test runs: even, uneven, and with an empty
 * slice first or last (two devices; more devices get the weights' split). */
static void
make_split(const clwarp_group *g, size_t n, int which, size_t *offsets)
{
	size_t count = clwarp_group_size(g);

	ck_assert_clwarp_ok(clwarp_group_split(g, n, 1, offsets));
	if (which == 1 && count == 2)
		offsets[1] = n / 3;
	else if (which == 2)
		for (size_t i = 1; i < count; i++)
			offsets[i] = 0;   /* every element on the last device */
	else if (which == 3)
		for (size_t i = 1; i < count; i++)
			offsets[i] = n;   /* every element on the first device */
}
#define SPLITS 4

static void
expect_error(clwarp_status got, clwarp_status want, const char *needle)
{
	ck_assert_msg(got == want, "status %s, expected %s (%s)", clwarp_status_to_str(got),
		      clwarp_status_to_str(want), clwarp_last_error());
	ck_assert_msg(strstr(clwarp_last_error(), needle), "message \"%s\" lacks \"%s\"",
		      clwarp_last_error(), needle);
}

START_TEST(test_devices)
{
	clwarp_group *g = test_group(), *h = NULL;
	clwarp_engine_options o;
	size_t count = clwarp_group_size(g);
	char list[256] = "";

	/* Each device is its own engine with a backend of its own. */
	for (size_t i = 0; i < count; i++) {
		clwarp_backend b;
		unsigned w;

		ck_assert_ptr_nonnull(clwarp_group_engine(g, i));
		ck_assert_clwarp_ok(clwarp_engine_backend(clwarp_group_engine(g, i), &b, &w));
		ck_assert_uint_gt(w, 0);
		if (i < 2) {
			const clwarp_device_info *info = clwarp_engine_device_info(clwarp_group_engine(g, i));

			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u:%u", i ? " , " : "",
				 info->platform_index, info->device_index);
		}
	}
	ck_assert_ptr_null(clwarp_group_engine(g, count));
	/* The same devices named one by one, with spaces. */
	ck_assert_clwarp_ok(clwarp_group_new(list, NULL, &h));
	ck_assert_uint_eq(clwarp_group_size(h), 2);
	ck_assert_ptr_eq(clwarp_engine_device(clwarp_group_engine(h, 1)),
			 clwarp_engine_device(clwarp_group_engine(g, 1)));
	clwarp_group_free(h);

	/* Bad lists: each one message that names what is wrong. */
	expect_error(clwarp_group_new("0:0,0:0", NULL, &h), CLWARP_ERROR_INVALID_ARGUMENT, "named twice");
	ck_assert_ptr_null(h);
	expect_error(clwarp_group_new("no-such-device-anywhere", NULL, &h), CLWARP_ERROR_DEVICE_NOT_FOUND,
		     "\"no-such-device-anywhere\"");
	expect_error(clwarp_group_new(" , ,", NULL, &h), CLWARP_ERROR_INVALID_ARGUMENT, "names no device");
	expect_error(clwarp_group_new("all,0:0", NULL, &h), CLWARP_ERROR_INVALID_ARGUMENT, "0:0 is named twice");
	clwarp_engine_options_init(&o);
	o.device = "0:0";
	expect_error(clwarp_group_new("all", &o, &h), CLWARP_ERROR_INVALID_ARGUMENT, "options->device");
	expect_error(clwarp_group_new("all", NULL, NULL), CLWARP_ERROR_INVALID_ARGUMENT, "NULL output");
	/* A bad CLWARP_DEVICES is named as such. */
	{
		char *saved = getenv("CLWARP_DEVICES") ? strdup(getenv("CLWARP_DEVICES")) : NULL;

		setenv("CLWARP_DEVICES", "0:0,not-a-device-xyz", 1);
		expect_error(clwarp_group_new(NULL, NULL, &h), CLWARP_ERROR_DEVICE_NOT_FOUND,
			     "CLWARP_DEVICES=\"0:0,not-a-device-xyz\"");
		if (saved)
			setenv("CLWARP_DEVICES", saved, 1);
		else
			unsetenv("CLWARP_DEVICES");
		free(saved);
	}
	clwarp_group_free(NULL);
	clwarp_group_free(g);
}
END_TEST

START_TEST(test_split)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	double weights[CLWARP_GROUP_MAX_DEVICES];

	for (size_t i = 0; i < count; i++)
		weights[i] = i == 0 ? 1.0 : 3.0;
	ck_assert_clwarp_ok(clwarp_group_set_weights(g, weights));
	ck_assert_clwarp_ok(clwarp_group_split(g, 100000, 64, offsets));
	ck_assert_uint_eq(offsets[0], 0);
	ck_assert_uint_eq(offsets[count], 100000);
	for (size_t i = 1; i < count; i++) {
		ck_assert_uint_eq(offsets[i] % 64, 0);
		ck_assert_uint_ge(offsets[i], offsets[i - 1]);
	}
	/* Device 0 has a weight of 1 in 1 + 3 (count - 1). */
	double share = 100000.0 / (1.0 + 3.0 * (double)(count - 1));

	ck_assert_msg(fabs((double)offsets[1] - share) <= 32.0, "offsets[1] %zu, share %.1f", offsets[1], share);
	/* Fewer items than one granule: all on the last device. */
	ck_assert_clwarp_ok(clwarp_group_split(g, 10, 64, offsets));
	ck_assert_uint_eq(offsets[count - 1], 0);
	ck_assert_uint_eq(offsets[count], 10);

	weights[1] = 0.0;
	expect_error(clwarp_group_set_weights(g, weights), CLWARP_ERROR_INVALID_ARGUMENT, "weight 1 is 0");
	weights[1] = NAN;
	expect_error(clwarp_group_set_weights(g, weights), CLWARP_ERROR_INVALID_ARGUMENT, "positive and finite");
	expect_error(clwarp_group_split(g, 10, 0, offsets), CLWARP_ERROR_INVALID_ARGUMENT, "granule is 0");

	/* Measured weights are positive, and the split still covers n. */
	ck_assert_clwarp_ok(clwarp_group_measure_weights(g, quick ? 1u << 14 : 1u << 18, weights));
	for (size_t i = 0; i < count; i++)
		ck_assert_msg(weights[i] > 0.0 && isfinite(weights[i]), "weight %zu: %g", i, weights[i]);
	ck_assert_clwarp_ok(clwarp_group_split(g, 12345, 32, offsets));
	ck_assert_uint_eq(offsets[count], 12345);
	clwarp_group_free(g);
}
END_TEST

static const char kernels_text[] =
	"__kernel void twice_plus_index(global int *data, int add)\n"
	"{\n"
	"	size_t i = get_global_id(0), local_i = i - get_global_offset(0);\n"
	"	/* The warp's sum of the global indices: the warp layer on each device. */\n"
	"	int sum = warp_reduce_add((int)i);\n"
	"	data[local_i] = data[local_i] * 2 + (int)i + add + (warp_lane_id() == 0 ? sum : 0);\n"
	"}\n";

START_TEST(test_launch)
{
	clwarp_group *g = test_group();
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1], local = 64;
	size_t n = (quick ? 40 : 400) * local;
	clwarp_group_program *p = NULL;
	clwarp_group_kernel *k = NULL;
	cl_mem buffers[CLWARP_GROUP_MAX_DEVICES];
	double weights[CLWARP_GROUP_MAX_DEVICES];
	int *host = malloc(n * sizeof(int)), *want = malloc(n * sizeof(int)), add = 7;
	uint32_t state = 12345;
	unsigned w;
	clwarp_backend b;
	char *log = NULL;

	for (size_t i = 0; i < count; i++)
		weights[i] = (double)(i + 1);
	ck_assert_clwarp_ok(clwarp_group_set_weights(g, weights));
	ck_assert_clwarp_ok(clwarp_group_split(g, n, local, offsets));
	for (size_t i = 0; i < n; i++)
		host[i] = (int)(next_random(&state) % 1000) - 500;
	ck_assert_clwarp_ok(clwarp_group_build_source(g, kernels_text, "group.cl", NULL, &p, &log));
	ck_assert_ptr_null(log);
	ck_assert_clwarp_ok(clwarp_group_kernel_new(p, "twice_plus_index", &k));
	ck_assert_ptr_nonnull(clwarp_group_program_device(p, count - 1));
	ck_assert_ptr_null(clwarp_group_program_device(p, count));
	/* The host reference: each device's warps are of its own width. */
	for (size_t d = 0; d < count; d++) {
		clwarp_kernel *dk = clwarp_group_kernel_device(k, d);

		ck_assert_clwarp_ok(clwarp_kernel_warp_info(dk, 1, &local, &b, &w));
		for (size_t i = offsets[d]; i < offsets[d + 1]; i += w) {
			int sum = 0;

			for (size_t j = i; j < i + w; j++)
				sum += (int)j;
			for (size_t j = i; j < i + w; j++)
				want[j] = host[j] * 2 + (int)j + add + (j == i ? sum : 0);
		}
	}
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, sizeof(int), offsets, buffers));
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_buffers(k, 0, buffers));
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_scalar(k, 1, sizeof(add), &add));
	ck_assert_clwarp_ok(clwarp_group_launch(k, offsets, local));
	memset(host, 0, n * sizeof(int));
	ck_assert_clwarp_ok(clwarp_group_gather(g, buffers, sizeof(int), offsets, host));
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(host[i] == want[i], "element %zu: %d, expected %d", i, host[i], want[i]);

	/* A slice that is not whole work-groups names its device. */
	size_t odd[CLWARP_GROUP_MAX_DEVICES + 1];

	memcpy(odd, offsets, sizeof(odd));
	odd[1] = offsets[1] + 1;
	expect_error(clwarp_group_launch(k, odd, local), CLWARP_ERROR_INVALID_ARGUMENT, "device 0's slice");
	odd[1] = offsets[2] + 1;
	expect_error(clwarp_group_launch(k, odd, local), CLWARP_ERROR_INVALID_ARGUMENT, "must not decrease");
	{
		clwarp_group_kernel *missing = NULL;

		expect_error(clwarp_group_kernel_new(p, "missing_kernel", &missing),
			     CLWARP_ERROR_KERNEL_NOT_FOUND, "device 0 (");
		ck_assert_ptr_null(missing);
	}
	/* A build error names the device and keeps its log. */
	expect_error(clwarp_group_build_source(g, "__kernel void broken(global int *x) { x[0] = y; }",
					       "broken.cl", NULL, &p, &log),
		     CLWARP_ERROR_BUILD, "device 0 (");
	ck_assert_ptr_nonnull(log);
	ck_assert_msg(strstr(log, "broken.cl"), "log: %s", log);
	free(log);
	clwarp_group_kernel_free(k);
	clwarp_group_release_buffers(g, buffers);
	free(host);
	free(want);
	clwarp_group_free(g);
}
END_TEST

/* ------------------------------------------------------------ algorithms */

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
				ck_assert_clwarp_ok(clwarp_group_scatter(g, host, size, offsets, in));
				/* Reduce. */
				host_identity(type, op, acc);
				for (size_t i = 0; i < n; i++) {
					host_combine(type, op, acc, host, i);
					abs_sum += fabsl(value_at(type, host, i));
				}
				ck_assert_clwarp_ok(clwarp_group_reduce(g, type, op, in, offsets, result));
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
					ck_assert_clwarp_ok(clwarp_group_scan(g, type, op, inclusive, in, dst, offsets));
					ck_assert_clwarp_ok(clwarp_group_gather(g, dst, size, offsets, got));
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
						clwarp_group_release_buffers(g, out);
				}
				clwarp_group_release_buffers(g, in);
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
		ck_assert_clwarp_ok(clwarp_group_scatter(g, host, sizeof(cl_int), offsets, in));
		ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
		ck_assert_clwarp_ok(clwarp_group_compact(g, CLWARP_TYPE_INT, "x > 100 || (x & 7) == 3", in,
							 offsets, out, out_offsets));
		ck_assert_uint_eq(out_offsets[0], 0);
		/* Each device's part is read to its place in the whole result. */
		for (size_t d = 0; d < count; d++)
			ck_assert_uint_le(out_offsets[d + 1] - out_offsets[d], offsets[d + 1] - offsets[d]);
		ck_assert_clwarp_ok(clwarp_group_gather(g, out, sizeof(cl_int), out_offsets, got));
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
		clwarp_group_release_buffers(g, in);
		clwarp_group_release_buffers(g, out);
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
		ck_assert_clwarp_ok(clwarp_group_scatter(g, bytes_in, 1, offsets, in));
		ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
		ck_assert_clwarp_ok(clwarp_group_compact(g, CLWARP_TYPE_UCHAR, "x > 200", in, offsets, out,
							 out_offsets));
		ck_assert_clwarp_ok(clwarp_group_gather(g, out, 1, out_offsets, bytes_got));
		for (size_t i = 0; i < n; i++) {
			if (bytes_in[i] > 200) {
				ck_assert_msg(k < out_offsets[count] && bytes_got[k] == bytes_in[i],
					      "uchar: selected element %zu is %d, expected %d", k,
					      k < out_offsets[count] ? bytes_got[k] : -1, bytes_in[i]);
				k++;
			}
		}
		ck_assert_uint_eq(k, out_offsets[count]);
		clwarp_group_release_buffers(g, in);
		clwarp_group_release_buffers(g, out);
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
		ck_assert_clwarp_ok(clwarp_group_scatter(g, host, sizeof(cl_int), offsets, in));
		ck_assert_clwarp_ok(clwarp_group_scatter(g, host, sizeof(cl_int), offsets, out));
		ck_assert_clwarp_ok(clwarp_group_segmented_reduce(g, CLWARP_TYPE_INT, CLWARP_OP_MAX, in,
								  row_offsets, len, out));
		memcpy(reduced, row_offsets, sizeof(reduced));
		ck_assert_clwarp_ok(clwarp_group_gather(g, out, sizeof(cl_int), reduced, got));
		for (size_t r = 0; r < rows; r++) {
			cl_int m = INT32_MIN;

			for (size_t j = 0; j < len; j++)
				m = host[r * len + j] > m ? host[r * len + j] : m;
			ck_assert_msg(got[r] == m, "row %zu of %zu: max %d, expected %d", r, len, got[r], m);
		}
		/* Segmented scan (add, exclusive), in place. */
		ck_assert_clwarp_ok(clwarp_group_segmented_scan(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, 0, in,
								row_offsets, len, in));
		ck_assert_clwarp_ok(clwarp_group_gather(g, in, sizeof(cl_int), offsets, got));
		for (size_t r = 0; r < rows; r++) {
			cl_int sum = 0;

			for (size_t j = 0; j < len; j++) {
				ck_assert_msg(got[r * len + j] == sum, "row %zu, element %zu: %d, expected %d", r,
					      j, got[r * len + j], sum);
				sum += host[r * len + j];
			}
		}
		clwarp_group_release_buffers(g, in);
		clwarp_group_release_buffers(g, out);
		/* Softmax of float rows. */
		ck_assert_clwarp_ok(clwarp_group_scatter(g, fhost, sizeof(cl_float), offsets, in));
		ck_assert_clwarp_ok(clwarp_group_softmax_rows(g, in, row_offsets, len, in));
		ck_assert_clwarp_ok(clwarp_group_gather(g, in, sizeof(cl_float), offsets, fgot));
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
		clwarp_group_release_buffers(g, in);
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
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, sizeof(cl_int), offsets, in));
	/* Device 1's buffer given to device 0: the message names device 0 and
	 * the buffer's context. */
	for (size_t d = 0; d < count; d++)
		swapped[d] = in[(d + 1) % count];
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, swapped, offsets, &result),
		     CLWARP_ERROR_INVALID_ARGUMENT, "device 0 (");
	/* A buffer too small for its slice. */
	offsets[count] = 100000;
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, offsets, &result),
		     CLWARP_ERROR_INVALID_ARGUMENT, "holds");
	ck_assert_clwarp_ok(clwarp_group_split(g, 256, 1, offsets));
	expect_error(clwarp_group_reduce(g, (clwarp_type)99, CLWARP_OP_ADD, in, offsets, &result),
		     CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, offsets, NULL),
		     CLWARP_ERROR_INVALID_ARGUMENT, "NULL result");
	/* 1- and 2-byte types: refused by the calls that combine elements. */
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_UCHAR, CLWARP_OP_ADD, in, offsets, &result),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_reduce: uchar elements are not supported");
	expect_error(clwarp_group_scan(g, CLWARP_TYPE_SHORT, CLWARP_OP_MAX, 1, in, in, offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_scan: short elements are not supported");
	expect_error(clwarp_group_segmented_reduce(g, CLWARP_TYPE_CHAR, CLWARP_OP_MIN, in, offsets, 1, in),
		     CLWARP_ERROR_INVALID_ARGUMENT,
		     "clwarp_group_segmented_reduce: char elements are not supported");
	expect_error(clwarp_group_segmented_scan(g, CLWARP_TYPE_USHORT, CLWARP_OP_ADD, 0, in, offsets, 1,
						 in),
		     CLWARP_ERROR_INVALID_ARGUMENT,
		     "clwarp_group_segmented_scan: ushort elements are not supported");
	expect_error(clwarp_group_scan(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, in, NULL, offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "NULL");
	expect_error(clwarp_group_compact(g, CLWARP_TYPE_INT, "x >", in, offsets, in, out_offsets),
		     CLWARP_ERROR_INVALID_ARGUMENT, "must be different buffers");
	{
		size_t bytes[CLWARP_GROUP_MAX_DEVICES];
		cl_mem out[CLWARP_GROUP_MAX_DEVICES];

		for (size_t d = 0; d < count; d++)
			bytes[d] = sizeof(host);
		ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, out));
		expect_error(clwarp_group_compact(g, CLWARP_TYPE_INT, "x >", in, offsets, out, out_offsets),
			     CLWARP_ERROR_BUILD, "device 0 (");
		clwarp_group_release_buffers(g, out);
	}
	offsets[0] = 1;
	expect_error(clwarp_group_reduce(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, offsets, &result),
		     CLWARP_ERROR_INVALID_ARGUMENT, "offsets[0] is 1");
	expect_error(clwarp_group_scatter(g, host, 0, offsets, swapped), CLWARP_ERROR_INVALID_ARGUMENT,
		     "offsets[0]");
	/* Every engine is still usable after the errors. */
	ck_assert_clwarp_ok(clwarp_group_split(g, 256, 1, offsets));
	ck_assert_clwarp_ok(clwarp_group_reduce(g, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, offsets, &result));
	ck_assert_int_eq(result, 0);
	clwarp_group_release_buffers(g, in);
	clwarp_group_free(g);
}
END_TEST

/* A device that does not finish in the time limit: a kernel that runs far
 * longer than the limit (a dependent chain of 2^28 steps, a tenth of a
 * second or more on a CPU) gives CLWARP_ERROR_TIMEOUT naming its device. */
START_TEST(test_timeout)
{
	static const char spin[] =
		"__kernel void spin(global uint *d, uint n)\n"
		"{\n"
		"	uint acc = 0;\n"
		"	for (uint k = 0; k < n; k++)\n"
		"		acc = acc * 31u + d[k & 63u];\n"
		"	d[64] = acc;\n"
		"}\n";
	clwarp_group *g = test_group(), *h = NULL;
	size_t count = clwarp_group_size(g), offsets[CLWARP_GROUP_MAX_DEVICES + 1] = { 0 };
	size_t bytes[CLWARP_GROUP_MAX_DEVICES];
	cl_mem buffers[CLWARP_GROUP_MAX_DEVICES];
	clwarp_group_program *p = NULL;
	clwarp_group_kernel *k = NULL;
	cl_uint n = 1u << 28;

	expect_error(clwarp_group_set_timeout(g, -1.0), CLWARP_ERROR_INVALID_ARGUMENT, "0 (none) or positive");
	expect_error(clwarp_group_set_timeout(g, NAN), CLWARP_ERROR_INVALID_ARGUMENT, "0 (none) or positive");
	ck_assert_clwarp_ok(clwarp_group_build_source(g, spin, "spin.cl", NULL, &p, NULL));
	ck_assert_clwarp_ok(clwarp_group_kernel_new(p, "spin", &k));
	for (size_t d = 0; d < count; d++)
		bytes[d] = 65 * sizeof(cl_uint);
	ck_assert_clwarp_ok(clwarp_group_buffers_new(g, CL_MEM_READ_WRITE, bytes, buffers));
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_buffers(k, 0, buffers));
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_scalar(k, 1, sizeof(n), &n));
	/* One work-item, on the last device only. */
	offsets[count] = 1;
	ck_assert_clwarp_ok(clwarp_group_set_timeout(g, 0.01));
	expect_error(clwarp_group_launch(k, offsets, 0), CLWARP_ERROR_TIMEOUT, "the group's time limit");
	char needle[32];

	snprintf(needle, sizeof(needle), "device %zu (", count - 1);
	ck_assert_msg(strstr(clwarp_last_error(), needle), "%s", clwarp_last_error());
	/* This kernel does end: let it, then the device works again. */
	ck_assert_int_eq(clFinish(clwarp_engine_queue(clwarp_group_engine(g, count - 1))), CL_SUCCESS);
	ck_assert_clwarp_ok(clwarp_group_set_timeout(g, 0));
	n = 64;
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_scalar(k, 1, sizeof(n), &n));
	ck_assert_clwarp_ok(clwarp_group_launch(k, offsets, 0));
	clwarp_group_kernel_free(k);
	clwarp_group_release_buffers(g, buffers);
	clwarp_group_free(g);
	/* The variable that sets the default. */
	setenv("CLWARP_GROUP_TIMEOUT", "soon", 1);
	expect_error(clwarp_group_new(NULL, NULL, &h), CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_GROUP_TIMEOUT=\"soon\"");
	setenv("CLWARP_GROUP_TIMEOUT", "2.5", 1);
	ck_assert_clwarp_ok(clwarp_group_new(NULL, NULL, &h));
	unsetenv("CLWARP_GROUP_TIMEOUT");
	clwarp_group_free(h);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("group", &tc);
	const char *q = getenv("CLWARP_TEST_QUICK");

	quick = q && *q && strcmp(q, "0") != 0;
	ADD_TEST(tc, test_devices);
	ADD_TEST(tc, test_split);
	ADD_TEST(tc, test_launch);
	ADD_TEST(tc, test_reduce_scan);
	ADD_TEST(tc, test_compact);
	ADD_TEST(tc, test_rows);
	ADD_TEST(tc, test_errors);
	ADD_TEST(tc, test_timeout);
	return test_main(s);
}
