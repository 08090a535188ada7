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
 * The devices the tests take when CLWARP_DEVICES is unset, written to
 * @p spec: with a GPU, the first GPU and the first CPU device ("P:D,P:D"),
 * so that the GPU is tested and a machine's PoCL is needed once only
 * (on the GPU machine PoCL 5.0 aborted in pocl_release_dlhandle_cache
 * with two of its devices, contrib/driver-bugs/pocl-5.0-two-devices/README.md); without
 * one, the CPU devices ("cpu", two PoCL devices under meson); else "all".
 * Chosen in a child process: an OpenCL platform set up before Check forks
 * the tests leaves the children without its threads (PoCL then hangs).
 * @return how many devices @p spec names.
 */
static inline size_t
group_test_default_devices(char *spec, size_t size)
{
	int fds[2], status = 0;
	pid_t pid;
	size_t n = 0;
	char buf[128] = "";

	if (pipe(fds) != 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		clwarp_device_info *list = NULL;
		size_t count = 0, gpus = 0, cpus = 0;
		int gpu = -1, cpu = -1;

		close(fds[0]);
		if (clwarp_device_list_new(&list, &count) == CLWARP_OK) {
			for (size_t i = 0; i < count; i++) {
				bool is_gpu = list[i].type & CL_DEVICE_TYPE_GPU, is_cpu = list[i].type & CL_DEVICE_TYPE_CPU;

				if (is_gpu && gpu < 0)
					gpu = (int)i;
				if (is_cpu && cpu < 0)
					cpu = (int)i;
				gpus += is_gpu;
				cpus += is_cpu;
			}
			if (gpu >= 0 && cpu >= 0)
				snprintf(buf, sizeof(buf), "%u:%u,%u:%u %d", list[gpu].platform_index,
					 list[gpu].device_index, list[cpu].platform_index, list[cpu].device_index, 2);
			else if (cpus >= 2)
				snprintf(buf, sizeof(buf), "cpu %zu", cpus);
			else
				snprintf(buf, sizeof(buf), "all %zu", count);
		}
		clwarp_device_list_free(list, count);
		(void)!write(fds[1], buf, strlen(buf));
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0) {
		ssize_t got = read(fds[0], buf, sizeof(buf) - 1);

		buf[got > 0 ? got : 0] = '\0';
		waitpid(pid, &status, 0);
	}
	close(fds[0]);
	char *space = strchr(buf, ' ');
	if (pid <= 0 || !WIFEXITED(status) || !space)
		return 0;
	*space = '\0';
	n = strtoul(space + 1, NULL, 10);
	snprintf(spec, size, "%s", buf);
	return n;
}

/* How many devices CLWARP_DEVICES names, 0 where it names none (in a
 * child, as above). */
static inline size_t
group_test_count_env(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		clwarp_group *g = NULL;
		size_t n = 0;

		if (clwarp_group_new(NULL, NULL, &g) == CLWARP_OK)
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
 * is set (CI's PoCL-R step, the GPU check), else group_test_default_devices.
 * The library's own default takes the GPUs alone where there are any, one
 * on most machines: the tests must not fail just because a GPU is there.
 * @return 0, or the exit status of a skip (group_test_skip).
 */
static inline int
group_test_choose_devices(void)
{
	const char *env = getenv("CLWARP_DEVICES");
	char why[256], spec[128];
	size_t n;

	if (env && *env) {
		n = group_test_count_env();
		if (n >= 2)
			return 0;
		snprintf(why, sizeof(why), "CLWARP_DEVICES=\"%.200s\" gives %zu", env, n);
		return group_test_skip(why);
	}
	n = group_test_default_devices(spec, sizeof(spec));
	if (n < 2) {
		snprintf(why, sizeof(why), "this machine has %zu (with PoCL: POCL_DEVICES=\"pthread pthread\")", n);
		return group_test_skip(why);
	}
	setenv("CLWARP_DEVICES", spec, 1);
	printf("group tests on CLWARP_DEVICES=\"%s\"\n", spec);
	return 0;
}

#endif
