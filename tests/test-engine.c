/* Engine tests on the real OpenCL runtime: devices, engine options, engines
 * made of the application's OpenCL handles or shared by threads, the
 * native sub-group width (builds: test-program.c; launches: test-launch.c). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <pthread.h>

#include "program.h"
#include "saxpy-kernel.h"
#include "testutil.h"

START_TEST(test_device_list)
{
	clwarp_device_info *list = NULL;
	size_t count = 0;

	ck_assert_clwarp_ok(clwarp_device_list_new(&list, &count));
	ck_assert_uint_ge(count, 1);
	for (size_t i = 0; i < count; i++) {
		ck_assert_str_ne(list[i].name, "");
		ck_assert_str_ne(list[i].platform_name, "");
		ck_assert_ptr_nonnull(list[i].driver_version);
		ck_assert(strncmp(list[i].opencl_c_version, "OpenCL C ", 9) == 0);
		ck_assert_uint_gt(list[i].max_work_group_size, 0);
		ck_assert_uint_gt(list[i].local_mem_size, 0);
		ck_assert_ptr_nonnull(list[i].extensions);
	}
	clwarp_device_list_free(list, count);
}
END_TEST

START_TEST(test_device_selection)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_device_info *list = NULL;
	size_t count = 0;
	char spec[64];

	ck_assert_clwarp_ok(clwarp_device_list_new(&list, &count));
	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_DISK_CACHE;

	snprintf(spec, sizeof(spec), "%u:%u", list[count - 1].platform_index,
		 list[count - 1].device_index);
	o.device = spec;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert_str_eq(clwarp_engine_device_info(e)->name, list[count - 1].name);
	clwarp_engine_free(e);

	/* A name substring, in other case. */
	snprintf(spec, sizeof(spec), "%.6s", list[0].name);
	for (char *c = spec; *c; c++)
		*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	clwarp_engine_free(e);

	o.device = (list[0].type & CL_DEVICE_TYPE_GPU) ? "gpu" : "cpu";
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert(clwarp_engine_device_info(e)->type & list[0].type);
	clwarp_engine_free(e);

	o.device = "no such device anywhere";
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_DEVICE_NOT_FOUND);
	ck_assert_ptr_null(e);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "no such device anywhere"));

	o.device = "99:0";
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_DEVICE_NOT_FOUND);

	/* The environment names the device when the options do not. */
	o.device = NULL;
	setenv("CLWARP_DEVICE", "7:7", 1);
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_DEVICE_NOT_FOUND);
	o.flags |= CLWARP_ENGINE_NO_ENVIRONMENT;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	clwarp_engine_free(e);
	unsetenv("CLWARP_DEVICE");
	clwarp_device_list_free(list, count);
}
END_TEST

START_TEST(test_engine_bad_options)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	clwarp_engine_options_init(&o);
	o.flags = 0x100;
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "flags"));

	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_DISK_CACHE;
	o.warp_size = 48;
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "48"));

	o.warp_size = 0;
	setenv("CLWARP_BACKEND", "cuda", 1);
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "CLWARP_BACKEND"));
	unsetenv("CLWARP_BACKEND");

	setenv("CLWARP_WARP_SIZE", "abc", 1);
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_INVALID_ARGUMENT);
	unsetenv("CLWARP_WARP_SIZE");

	setenv("CLWARP_NATIVE_WIDTH", "yes", 1);
	ck_assert_int_eq(clwarp_engine_new(&o, &e), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "CLWARP_NATIVE_WIDTH"));
	unsetenv("CLWARP_NATIVE_WIDTH");

	ck_assert_int_eq(clwarp_engine_new(&o, NULL), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_str_eq(clwarp_status_name(CLWARP_ERROR_BUILD), "OpenCL C build failed");
	ck_assert_str_eq(clwarp_cl_error_name(CL_INVALID_KERNEL_NAME), "CL_INVALID_KERNEL_NAME");
}
END_TEST

START_TEST(test_engine_from_cl_handles)
{
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_int err;
	clwarp_engine *e = NULL;
	clwarp_engine_options o;
	clwarp_program *p = NULL;

	ck_assert_int_eq(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
	ck_assert_int_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
	ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	ck_assert_int_eq(err, CL_SUCCESS);
	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_clwarp_ok(clwarp_engine_new_from_cl(ctx, device, NULL, &o, &e));
	ck_assert_ptr_eq(clwarp_engine_context(e), ctx);
	ck_assert_ptr_eq(clwarp_engine_device(e), device);
	ck_assert_ptr_nonnull(clwarp_engine_queue(e));
	/* The engine holds its own reference: the application may drop its one. */
	clReleaseContext(ctx);
	ck_assert_clwarp_ok(clwarp_program_build_source(e, saxpy_source, NULL, NULL, &p, NULL));
	check_saxpy(e, p, 77, 5);
	clwarp_engine_free(e);
}
END_TEST

struct thread_job {
	clwarp_engine *engine;
	int id;
	int ok;
};

static void *
thread_main(void *arg)
{
	struct thread_job *job = arg;
	char src[512];
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	cl_mem m = NULL;
	int out[256];
	size_t n = 256;

	/* Threads 0-1 and 2-3 build the same program; the pairs differ. */
	snprintf(src, sizeof(src),
		 "kernel void t(global int *o) { o[get_global_id(0)] = (int)get_global_id(0) * %d; }\n",
		 job->id / 2 + 2);
	job->ok = clwarp_program_build_source(job->engine, src, NULL, NULL, &p, NULL) == CLWARP_OK &&
		  clwarp_kernel_new(p, "t", &k) == CLWARP_OK &&
		  clwarp_buffer_new(job->engine, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &m) == CLWARP_OK &&
		  clwarp_kernel_set_arg_buffer(k, 0, m) == CLWARP_OK &&
		  clwarp_kernel_launch(k, 1, &n, NULL, NULL) == CLWARP_OK &&
		  clwarp_buffer_read(job->engine, m, 0, sizeof(out), out) == CLWARP_OK;
	for (int i = 0; job->ok && i < 256; i++)
		job->ok = out[i] == i * (job->id / 2 + 2);
	if (m)
		clReleaseMemObject(m);
	clwarp_kernel_free(k);
	return NULL;
}

START_TEST(test_engine_shared_by_threads)
{
	clwarp_engine *e = test_engine(NULL);
	pthread_t threads[4];
	struct thread_job jobs[4];

	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct thread_job){ e, i, 0 };
		ck_assert_int_eq(pthread_create(&threads[i], NULL, thread_main, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(threads[i], NULL);
		ck_assert_msg(jobs[i].ok, "thread %d failed", i);
	}
	clwarp_engine_free(e);
}
END_TEST

/* An engine forced to the khr backend at the device's own width. */
static clwarp_status
native_engine(clwarp_engine **e)
{
	clwarp_engine_options o;

	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_ENVIRONMENT | CLWARP_ENGINE_NO_DISK_CACHE | CLWARP_ENGINE_NATIVE_WIDTH;
	o.device = getenv("CLWARP_DEVICE");
	o.backend = CLWARP_BACKEND_KHR;
	return clwarp_engine_new(&o, e);
}

static const char *native_source =
	"kernel void ids(global const int *in, global int *out)\n"
	"{\n"
	"\tout[get_global_id(0)] = (int)(warp_size() * 1000000u + CLWARP_WARP_SIZE * 10000u +\n"
	"\t\twarp_lane_id() * 100u + warp_id());\n"
	"}\n"
	"kernel void sum(global const int *in, global int *out)\n"
	"{\n"
	"\tout[get_global_id(0)] = warp_reduce_add(in[get_global_id(0)]);\n"
	"}\n";

/*
 * CLWARP_ENGINE_NATIVE_WIDTH with khr forced. The device's width, asked of
 * it with plain OpenCL at local sizes 64 and 128, decides what must happen:
 * one power of two up to 64 -> the engine runs at exactly that width and
 * warp_size(), CLWARP_WARP_SIZE, lanes, warp ids and a reduction agree with
 * it; a width that follows the local size (PoCL) -> khr is refused and the
 * message says so; no sub-groups -> refused.
 */
START_TEST(test_native_width)
{
	clwarp_engine *probe_e = NULL, *e = NULL;
	unsigned w64, w128;
	clwarp_status s;

	ck_assert_clwarp_ok(native_engine(&probe_e));
	w64 = test_raw_sub_group_width(probe_e, 64);
	w128 = clwarp_engine_device_info(probe_e)->max_work_group_size >= 128
		       ? test_raw_sub_group_width(probe_e, 128) : w64;
	fprintf(stderr, "raw sub-group width: %u at local size 64, %u at 128\n", w64, w128);
	s = clwarp_engine_backend(probe_e, NULL, NULL);
	if (w64 == 0 || w64 != w128 || w64 > 64 || (w64 & (w64 - 1)) != 0) {
		ck_assert_msg(s == CLWARP_ERROR_BACKEND_UNAVAILABLE, "khr at a native width was accepted: %s",
			      clwarp_status_name(s));
		fprintf(stderr, "refused as it must be: %s\n", clwarp_last_error());
		ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "khr"));
		if (w64 && w64 != w128)
			ck_assert_msg(strstr(clwarp_last_error(), "follows the local size"),
				      "the refusal does not say why: %s", clwarp_last_error());
		clwarp_engine_free(probe_e);
		return;
	}
	clwarp_engine_free(probe_e);

	ck_assert_clwarp_ok(native_engine(&e));
	{
		clwarp_backend b;
		unsigned w;
		int native = 0;
		clwarp_program *p = NULL;
		size_t n = 256;
		int in[256], *out;

		ck_assert_clwarp_ok(clwarp_engine_backend(e, &b, &w));
		ck_assert_clwarp_ok(clwarp_engine_backend_native(e, &native));
		ck_assert_int_eq(b, CLWARP_BACKEND_KHR);
		ck_assert_int_eq(native, 1);
		ck_assert_uint_eq(w, w64);
		ck_assert_clwarp_ok(clwarp_program_build_source(e, native_source, "native.cl", NULL, &p, NULL));
		for (size_t i = 0; i < n; i++)
			in[i] = (int)(i * 37 % 101) - 50;
		out = test_run_int_kernel(e, p, "ids", in, n, 64);
		for (size_t i = 0; i < n; i++)
			ck_assert_int_eq(out[i], (int)(w * 1000000u + w * 10000u + (unsigned)(i % w) * 100u +
						       (unsigned)(i % 64 / w)));
		free(out);
		out = test_run_int_kernel(e, p, "sum", in, n, 64);
		for (size_t i = 0; i < n; i++) {
			int want = 0;

			for (size_t j = i - i % w; j < i - i % w + w; j++)
				want += in[j];
			ck_assert_int_eq(out[i], want);
		}
		free(out);
		fprintf(stderr, "khr at the native width %u: ids and warp_reduce_add match\n", w);
	}
	clwarp_engine_free(e);
}
END_TEST

/*
 * The per-launch check of a native-width program: built (through the
 * internal program_build) for the width W the device gives a work-group of
 * 64, it runs at local size 64 with warp_size() == W on every lane; built
 * for another width X, the same launch is refused (CLWARP_ERROR_WARP_CONTRACT,
 * the message naming both widths) instead of giving warp results for X
 * lanes that the hardware does not have.
 */
START_TEST(test_native_launch_check)
{
	clwarp_engine *e = test_engine(NULL);
	const clwarp_device_info *d = clwarp_engine_device_info(e);
	unsigned w = test_raw_sub_group_width(e, 64);
	struct backend_config c = { 0 };
	clwarp_program *p = NULL;
	int in[128], *out;

	if (!w || w > 64) {
		fprintf(stderr, "native launch check: no sub-groups of at most 64 lanes (%u), nothing to check\n", w);
		clwarp_engine_free(e);
		return;
	}
	for (int i = 0; i < 128; i++)
		in[i] = i;
	c.backend = CLWARP_BACKEND_KHR;
	c.native = true;
	c.fp64 = d->has_fp64;
	c.cl_std_30 = !strstr(d->extensions, "cl_khr_subgroups") &&
		      strncmp(d->device_version, "OpenCL 3", 8) == 0;
	c.warp_size = w;
	ck_assert_clwarp_ok(program_build(e, native_source, "native.cl", ".", NULL, &c, &p, NULL));
	out = test_run_int_kernel(e, p, "ids", in, 128, 64);
	for (unsigned i = 0; i < 128; i++)
		ck_assert_int_eq(out[i], (int)(w * 1000000u + w * 10000u + i % w * 100u + i % 64 / w));
	free(out);

	c.warp_size = w == 64 ? 32 : w * 2;
	ck_assert_clwarp_ok(program_build(e, native_source, "native.cl", ".", NULL, &c, &p, NULL));
	{
		clwarp_kernel *k = NULL;
		cl_mem bin, bout;
		size_t global = 128, local = 64;
		char want[64];

		ck_assert_clwarp_ok(clwarp_kernel_new(p, "ids", &k));
		ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_ONLY, sizeof(in), in, &bin));
		ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, sizeof(in), NULL, &bout));
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bin));
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
		ck_assert_int_eq(clwarp_kernel_launch(k, 1, &global, &local, NULL), CLWARP_ERROR_WARP_CONTRACT);
		fprintf(stderr, "refused as it must be: %s\n", clwarp_last_error());
		snprintf(want, sizeof(want), "sub-groups of %u lanes", w);
		ck_assert_ptr_nonnull(strstr(clwarp_last_error(), want));
		snprintf(want, sizeof(want), "native width %u", c.warp_size);
		ck_assert_ptr_nonnull(strstr(clwarp_last_error(), want));
		clReleaseMemObject(bin);
		clReleaseMemObject(bout);
		clwarp_kernel_free(k);
	}
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("engine", &tc);

	tcase_add_test(tc, test_device_list);
	tcase_add_test(tc, test_device_selection);
	tcase_add_test(tc, test_engine_bad_options);
	tcase_add_test(tc, test_engine_from_cl_handles);
	tcase_add_test(tc, test_engine_shared_by_threads);
	tcase_add_test(tc, test_native_width);
	tcase_add_test(tc, test_native_launch_check);
	return test_main(s);
}
