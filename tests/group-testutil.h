/* What the device group tests (tests/test-group.c: devices, splits,
 * launches, time limits; tests/test-group-algorithms.c: the algorithms
 * across devices) share: the group of every device, random numbers, the
 * splits, error checks.
 *
 * Devices: CLWARP_DEVICES, else the CPU devices, else every device
 * (group_test_choose_devices). meson runs the tests with PoCL's
 * POCL_DEVICES="pthread pthread" (two CPU devices); CI's PoCL-R step runs
 * them against two remote pocld servers, tools/gpu-check.sh on the GPU and
 * a CPU. CLWARP_TEST_QUICK=1 keeps
 * only small sizes. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_GROUP_TESTUTIL_H
#define CLWARP_GROUP_TESTUTIL_H

#include "group-devices.h"

#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

/* CLWARP_TEST_QUICK: set by group_test_main. */
static bool quick;

static inline clwarp_group *
test_group(void)
{
	clwarp_group *g = NULL;

	ck_assert_clwarp_ok(clwarp_group_new(NULL, NULL, &g));
	ck_assert_msg(clwarp_group_size(g) >= 2, "the group tests need two devices; CLWARP_DEVICES=\"%s\" gave %zu",
		      getenv("CLWARP_DEVICES") ? getenv("CLWARP_DEVICES") : "", clwarp_group_size(g));
	return g;
}

/* A deterministic pseudo-random sequence (xorshift), the same on every run. */
static inline uint32_t
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
static inline void
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

static inline void
expect_error(clwarp_status got, clwarp_status want, const char *needle)
{
	ck_assert_msg(got == want, "status %s, expected %s (%s)", clwarp_status_name(got),
		      clwarp_status_name(want), clwarp_last_error());
	ck_assert_msg(strstr(clwarp_last_error(), needle), "message \"%s\" lacks \"%s\"",
		      clwarp_last_error(), needle);
}

/* Run the tests @p add_tests adds to one test case of suite @p name, after
 * reading CLWARP_TEST_QUICK; returns the exit status. */
static inline int
group_test_main(const char *name, void (*add_tests)(TCase *tc))
{
	TCase *tc;
	Suite *s = test_suite_with_timeout(name, &tc);
	const char *q = test_quick_env();

	int skip = group_test_choose_devices();

	if (skip)
		return skip;
	quick = q && *q && strcmp(q, "0") != 0;
	add_tests(tc);
	return test_main(s);
}

#endif
