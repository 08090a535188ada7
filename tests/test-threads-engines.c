/* Thread stress with an engine per thread: on one device through
 * clwarp_engine_new(), and on one context of the test's own through
 * clwarp_engine_new_from_cl(); part of test-threads (docs/reliability-threads.md). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "threads-testutil.h"

/*
 * Both cases run the same rounds as test_threads_one_engine
 * (tests/test-threads.c), but every thread makes, uses and frees engines
 * of its own, all with the case's disk cache folder, while the other
 * threads do the same. What the engines share is the driver (and, in the
 * second case, its context and one queue) and the folder on disk.
 *
 * Each runs half of CLWARP_TEST_THREADS (rounded up, at least 2; 3 by
 * default) for all the rounds. Most of the time goes into PoCL's compiles,
 * which grow with the threads (each has programs of its own) and hardly
 * with the rounds; so the two cases together take about as long as the
 * first one alone, and each thread still makes two or three engines.
 */

static void
setup(struct threads_case *c)
{
	threads_case_setup(c);
	c->threads = c->threads > 3 ? (c->threads + 1) / 2 : 2;
}

START_TEST(test_threads_engine_per_thread)
{
	struct threads_case c;
	struct worker workers[MAX_THREADS];
	const clwarp_device_info *info;
	clwarp_backend backend;
	unsigned warp = 0;
	char device[64];

	setup(&c);
	if (c.engine) {
		/* "P:D": every engine on the device of the case's engine, which CLWARP_DEVICE chose. */
		info = clwarp_engine_device_info(c.engine);
		snprintf(device, sizeof(device), "%u:%u", info->platform_index, info->device_index);
		for (int i = 0; i < c.threads; i++) {
			workers[i] = (struct worker){ .own_engine = true, .device = clwarp_engine_device(c.engine) };
			clwarp_engine_options_init(&workers[i].options);
			workers[i].options.device = device;
			workers[i].options.cache_dir = c.cache;
		}
		threads_case_run(&c, workers);
		ck_assert_clwarp_ok(clwarp_engine_backend(c.engine, &backend, &warp));
		threads_case_report(&c, "an engine per thread", workers, backend, warp);
	}
	threads_case_teardown(&c);
}
END_TEST

/* The device of the case's engine, found again with plain OpenCL by its indices. */
static cl_device_id
raw_device(const clwarp_device_info *info, cl_platform_id *platform)
{
	cl_platform_id platforms[64];
	cl_device_id devices[64];
	cl_uint np = 0, nd = 0;

	ck_assert_int_eq(clGetPlatformIDs(64, platforms, &np), CL_SUCCESS);
	ck_assert_uint_lt(info->platform_index, np);
	*platform = platforms[info->platform_index];
	ck_assert_int_eq(clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 64, devices, &nd), CL_SUCCESS);
	ck_assert_uint_lt(info->device_index, nd);
	return devices[info->device_index];
}

/*
 * One context and one in-order queue, made here with plain OpenCL as an
 * application would. Even threads give their engines that queue, odd ones
 * give NULL, so those engines make queues of their own on the context.
 */
START_TEST(test_threads_shared_context)
{
	struct threads_case c;
	struct worker workers[MAX_THREADS];
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	cl_int err;
	clwarp_backend backend;
	unsigned warp = 0;

	setup(&c);
	if (c.engine) {
		device = raw_device(clwarp_engine_device_info(c.engine), &platform);
		ck_assert_ptr_eq(device, clwarp_engine_device(c.engine));
		cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };

		context = clCreateContext(props, 1, &device, NULL, NULL, &err);
		ck_assert_int_eq(err, CL_SUCCESS);
		queue = clCreateCommandQueue(context, device, 0, &err);
		ck_assert_int_eq(err, CL_SUCCESS);
		for (int i = 0; i < c.threads; i++) {
			workers[i] = (struct worker){ .own_engine = true, .context = context, .device = device,
						      .queue = i % 2 ? NULL : queue };
			clwarp_engine_options_init(&workers[i].options);
			workers[i].options.cache_dir = c.cache;
		}
		threads_case_run(&c, workers);
		ck_assert_clwarp_ok(clwarp_engine_backend(c.engine, &backend, &warp));
		threads_case_report(&c, "engines on one context", workers, backend, warp);
		/* Every engine is gone; the test's references still work. */
		ck_assert_int_eq(clFinish(queue), CL_SUCCESS);
		clReleaseCommandQueue(queue);
		clReleaseContext(context);
	}
	threads_case_teardown(&c);
}
END_TEST

void
threads_engines_add(TCase *tc)
{
	ADD_TEST(tc, test_threads_engine_per_thread);
	ADD_TEST(tc, test_threads_shared_context);
}
