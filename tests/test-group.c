/* Device groups (include/clwarp/group.h) on two or more real devices:
 * device lists, weights and splits, a warp kernel launched across the
 * devices, time limits (the algorithms: test-group-algorithms.c). Every
 * result is compared element by element with a host reference; devices as
 * group-testutil.h says. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "group-testutil.h"

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
	clwarp_build_info info;

	for (size_t i = 0; i < count; i++)
		weights[i] = (double)(i + 1);
	ck_assert_clwarp_ok(clwarp_group_set_weights(g, weights));
	ck_assert_clwarp_ok(clwarp_group_split(g, n, local, offsets));
	for (size_t i = 0; i < n; i++)
		host[i] = (int)(next_random(&state) % 1000) - 500;
	ck_assert_clwarp_ok(clwarp_group_program_build_source(g, kernels_text, "group.cl", NULL, &p,
							      &info));
	/* A log only where a device's compiler said something (NVIDIA's may
	 * on success), each device's under a line naming it. */
	ck_assert_msg(!info.log || strncmp(info.log, "device ", 7) == 0, "log: %.400s", info.log);
	ck_assert_int_eq(info.cl_error, CL_SUCCESS);
	ck_assert_msg(info.milliseconds > 0.0, "%g ms", info.milliseconds);
	/* The same build again: every device answers from memory. */
	{
		clwarp_group_program *again = NULL;

		ck_assert_clwarp_ok(clwarp_group_program_build_source(g, kernels_text, "group.cl", NULL,
								      &again, &info));
		ck_assert_int_eq(info.source, CLWARP_BUILD_MEMORY_HIT);
		ck_assert_ptr_null(info.log);
	}
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
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, buffers, offsets, sizeof(int)));
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_buffers(k, 0, buffers));
	ck_assert_clwarp_ok(clwarp_group_kernel_set_arg_scalar(k, 1, sizeof(add), &add));
	ck_assert_clwarp_ok(clwarp_group_launch(k, offsets, local));
	memset(host, 0, n * sizeof(int));
	ck_assert_clwarp_ok(clwarp_group_gather(g, buffers, host, offsets, sizeof(int)));
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
	/* A build error names the device and keeps every device's log, each
	 * after a line naming its device. */
	expect_error(clwarp_group_program_build_source(g, "__kernel void broken(global int *x) { x[0] = y; }",
						       "broken.cl", NULL, &p, &info),
		     CLWARP_ERROR_BUILD, "device 0 (");
	ck_assert_ptr_nonnull(info.log);
	ck_assert_int_eq(info.source, CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(info.cl_error, CL_BUILD_PROGRAM_FAILURE);
	for (size_t d = 0; d < count; d++) {
		char head[256];
		const char *name = clwarp_engine_device_info(clwarp_group_engine(g, d))->name;

		snprintf(head, sizeof(head), "device %zu (%s):\n", d, name);
		ck_assert_msg(strstr(info.log, head), "log lacks \"%s\": %s", head, info.log);
	}
	ck_assert_msg(strstr(info.log, "broken.cl"), "log: %s", info.log);
	clwarp_build_info_free(&info);
	clwarp_build_info_free(NULL);
	clwarp_group_kernel_free(k);
	clwarp_group_buffers_free(g, buffers);
	free(host);
	free(want);
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
	ck_assert_clwarp_ok(clwarp_group_program_build_source(g, spin, "spin.cl", NULL, &p, NULL));
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
	clwarp_group_buffers_free(g, buffers);
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

static void
add_tests(TCase *tc)
{
	ADD_TEST(tc, test_devices);
	ADD_TEST(tc, test_split);
	ADD_TEST(tc, test_launch);
	ADD_TEST(tc, test_timeout);
}

int
main(void)
{
	return group_test_main("group", add_tests);
}
