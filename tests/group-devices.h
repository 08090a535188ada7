/* Which devices the device group tests run on (tests/test-group*.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_GROUP_DEVICES_H
#define CLWARP_GROUP_DEVICES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clwarp/group.h"
#include "testutil.h"

/*
 * How many devices the list names, 0 where it names none. Counted in a
 * child process: an OpenCL platform set up before Check forks the tests
 * leaves the children without its threads (PoCL's devices then hang).
 */
static inline size_t
group_test_count(const char *devices)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		clwarp_group *g = NULL;
		size_t n = 0;

		if (clwarp_group_new(devices, NULL, &g) == CLWARP_OK)
			n = clwarp_group_size(g);
		clwarp_group_free(g);
		_exit(n > 100 ? 100 : (int)n);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 0;
	return (size_t)WEXITSTATUS(status);
}

/* Exit status 77 (skip) with the reason; where CLWARP_TEST_REQUIRE_ALL is
 * set (CI, which has two devices), a failure instead. */
static inline int
group_test_skip(const char *why)
{
	const char *require = getenv("CLWARP_TEST_REQUIRE_ALL");
	bool fail = require && *require && strcmp(require, "0") != 0;

	printf("%s: the group tests need two devices; %s\n", fail ? "FAIL" : "SKIP", why);
	return fail ? 1 : 77;
}

/*
 * Choose the group's devices, before any test runs: CLWARP_DEVICES where it
 * is set (CI's PoCL-R step, the GPU check's GPU + CPU case), else the CPU
 * devices (two PoCL devices under meson), else every device. The library's
 * own default takes the GPUs alone where there are any, one on most
 * machines: the tests must not fail just because a GPU is there.
 * @return 0, or the exit status of a skip (group_test_skip).
 */
static inline int
group_test_choose_devices(void)
{
	static const char *const lists[] = { "cpu", "all" };
	const char *env = getenv("CLWARP_DEVICES");
	char why[256];

	if (env && *env) {
		size_t n = group_test_count(NULL);

		if (n >= 2)
			return 0;
		snprintf(why, sizeof(why), "CLWARP_DEVICES=\"%.200s\" gives %zu", env, n);
		return group_test_skip(why);
	}
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (group_test_count(lists[i]) >= 2) {
			setenv("CLWARP_DEVICES", lists[i], 1);
			printf("group tests on CLWARP_DEVICES=\"%s\"\n", lists[i]);
			return 0;
		}
	return group_test_skip("this machine has one (with PoCL: POCL_DEVICES=\"pthread pthread\")");
}

#endif
