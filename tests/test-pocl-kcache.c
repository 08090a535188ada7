/* Tests for the PoCL kernel cache rule (src/pocl_kcache.h): which devices
 * and which POCL_KERNEL_CACHE values make the engine store a binary only
 * once a second process builds the program. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "pocl_kcache.h"
#include "testutil.h"

static clwarp_device_info
device(const char *platform, cl_device_type type)
{
	clwarp_device_info info = { 0 };

	info.platform_name = platform;
	info.type = type;
	return info;
}

START_TEST(test_which_devices)
{
	clwarp_device_info pocl_cpu = device("Portable Computing Language", CL_DEVICE_TYPE_CPU),
			   pocl_gpu = device("Portable Computing Language", CL_DEVICE_TYPE_GPU),
			   nv = device("NVIDIA CUDA", CL_DEVICE_TYPE_GPU),
			   intel_cpu = device("Intel(R) OpenCL", CL_DEVICE_TYPE_CPU),
			   none = device(NULL, CL_DEVICE_TYPE_CPU);

	unsetenv("POCL_KERNEL_CACHE");
	ck_assert(pocl_kcache_on(&pocl_cpu));
	ck_assert(!pocl_kcache_on(&pocl_gpu));
	ck_assert(!pocl_kcache_on(&nv));
	ck_assert(!pocl_kcache_on(&intel_cpu));
	ck_assert(!pocl_kcache_on(&none));
	ck_assert(!pocl_kcache_on(NULL));
}
END_TEST

START_TEST(test_environment)
{
	clwarp_device_info pocl_cpu = device("Portable Computing Language", CL_DEVICE_TYPE_CPU);
	static const char *const on[] = { "1", "2", " 1" };
	static const char *const off[] = { "0", "", "no", "true", "00" };

	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		setenv("POCL_KERNEL_CACHE", on[i], 1);
		ck_assert_msg(pocl_kcache_on(&pocl_cpu), "POCL_KERNEL_CACHE=\"%s\"", on[i]);
	}
	/* A doubt counts as off: it costs a store, never a later full compile. */
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		setenv("POCL_KERNEL_CACHE", off[i], 1);
		ck_assert_msg(!pocl_kcache_on(&pocl_cpu), "POCL_KERNEL_CACHE=\"%s\"", off[i]);
	}
	unsetenv("POCL_KERNEL_CACHE");
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("pocl-kcache", &tc);

	ADD_TEST(tc, test_which_devices);
	ADD_TEST(tc, test_environment);
	return test_main(s);
}
