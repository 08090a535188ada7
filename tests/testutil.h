/* Shared helpers for the Check tests: temp folders, files, engines, child runs. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TESTUTIL_H
#define CLWARP_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check-main.h"
#include "pocl_kcache.h"
#include "clwarp/clwarp.h"
#include "test-env.h"

/* $CLWARP_SOURCE_ROOT/rel (the source tree, which the meson tests set);
 * the caller frees the string. */
static inline char *
test_source_path(const char *rel)
{
	char *path = malloc(4096);
	const char *root = getenv("CLWARP_SOURCE_ROOT");

	if (!path)
		abort();
	snprintf(path, 4096, "%s/%s", root && *root ? root : ".", rel);
	ck_assert_msg(access(path, R_OK) == 0, "%s not found: set CLWARP_SOURCE_ROOT", path);
	return path;
}

/* The default engine, or (backend, warp_size) forced when backend is not
 * AUTO, without the disk cache: on PoCL, storing a binary compiles every
 * kernel once more for a generic work-group size, which for kernels of
 * hundreds of barriers costs minutes, and the cache has its own tests. */
static inline clwarp_engine *
test_engine_no_disk_cache(clwarp_backend backend, unsigned warp_size)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	clwarp_engine_options_init(&o);
	o.backend = backend;
	o.warp_size = warp_size;
	o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_OK, "engine: %s", clwarp_last_error());
	return e;
}

/* A read-write buffer of bytes, filled from data unless it is NULL. */
static inline cl_mem
test_buffer(clwarp_engine *e, size_t bytes, const void *data)
{
	cl_mem m = NULL;

	ck_assert_msg(clwarp_buffer_new(e, CL_MEM_READ_WRITE, bytes, data, &m) == CLWARP_OK,
		      "buffer of %zu bytes: %s", bytes, clwarp_last_error());
	return m;
}

/* The path of the one program binary (".bin") in the cache folder @p cache,
 * not the probe verdicts; fails unless there is exactly one. The caller
 * frees the string. */
static inline char *
test_only_binary_entry(const char *cache)
{
	DIR *d = opendir(cache);
	struct dirent *ent;
	char *found = NULL;
	int count = 0;

	ck_assert_ptr_nonnull(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);

		if (len > 4 && strcmp(ent->d_name + len - 4, ".bin") == 0) {
			free(found);
			found = malloc(strlen(cache) + len + 2);
			ck_assert_ptr_nonnull(found);
			sprintf(found, "%s/%s", cache, ent->d_name);
			count++;
		}
	}
	closedir(d);
	ck_assert_int_eq(count, 1);
	return found;
}

/* A fresh folder under $CLWARP_TEST_TMPDIR (or /tmp); the caller frees the string. */
static inline char *
test_tmpdir(void)
{
	const char *base = getenv("CLWARP_TEST_TMPDIR");
	char *path = malloc(4096);

	if (!path)
		abort();
	if (!base || !*base)
		base = "/tmp";
	mkdir(base, 0700);
	snprintf(path, 4096, "%s/clwarp-test-XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(path));
	return path;
}

static inline void
test_rmtree(const char *path)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	ck_assert_int_eq(system(cmd), 0);
}

/* Write `text` to dir/name (printf-style name), creating subfolders one level deep. */
static inline char *
test_write_file(const char *dir, const char *name, const char *text)
{
	char *path = malloc(4096);
	FILE *f;

	if (!path || !dir)
		abort();
	snprintf(path, 4096, "%s/%s", dir, name);
	/* mkdir -p of the file's folder */
	for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
	return path;
}

/* An engine on the default device with its disk cache in `cache_dir` (NULL: off). */
static inline clwarp_engine *
test_engine(const char *cache_dir)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_status s;

	clwarp_engine_options_init(&o);
	o.cache_dir = cache_dir;
	if (!cache_dir)
		o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	s = clwarp_engine_new(&o, &e);
	ck_assert_msg(s == CLWARP_OK, "engine: %s", clwarp_last_error());
	return e;
}

/* Oclgrind 21.10 runs a queue's commands in whichever host thread flushes
 * or waits, and aborts when two threads do at once: tests that need
 * either behaviour ask this. */
static inline bool
test_on_oclgrind(const clwarp_engine *e)
{
	const clwarp_device_info *info = clwarp_engine_device_info(e);

	return strstr(info->platform_name, "Oclgrind") || strstr(info->name, "Oclgrind");
}

#define ck_assert_clwarp_ok(expr)                                                           \
	do {                                                                                \
		clwarp_status s_ = (expr);                                                  \
		ck_assert_msg(s_ == CLWARP_OK, "%s: %s (%s)", #expr, clwarp_status_name(s_), \
			      clwarp_last_error());                                         \
	} while (0)

/* @p expr returns @p status and clwarp_last_error() says @p text. */
#define ck_assert_error(expr, status, text)                                                   \
	do {                                                                                  \
		ck_assert_int_eq((expr), (status));                                           \
		ck_assert_msg(strstr(clwarp_last_error(), (text)) != NULL,                    \
			      "message \"%s\" lacks \"%s\"", clwarp_last_error(), (text));    \
	} while (0)

/* Run one 1-D kernel over `n` ints: out[i] = kernel(in[i]); returns the output array. */
static inline int *
test_run_int_kernel(clwarp_engine *e, clwarp_program *p, const char *name, const int *in,
		    size_t n, size_t local)
{
	clwarp_kernel *k = NULL;
	cl_mem bin = NULL, bout = NULL;
	int *out = calloc(n, sizeof(int));
	size_t global = n;

	ck_assert_clwarp_ok(clwarp_kernel_new(p, name, &k));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_ONLY, n * sizeof(int), in, &bin));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bin));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, 1, &global, local ? &local : NULL, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, n * sizeof(int), out));
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
	return out;
}

/*
 * The device's own sub-group width for a 1-D work-group of `local`, asked
 * of the device with plain OpenCL (no libclwarp code in the kernel):
 * get_max_sub_group_size() of a kernel built without any width pin.
 * 0 when the device has no sub-groups.
 */
static inline unsigned
test_raw_sub_group_width(clwarp_engine *e, size_t local)
{
	static const char *src =
		"#ifndef CL3\n#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n#endif\n"
		"__kernel void w(__global uint *o)\n"
		"{\n"
		"\tuint l = get_local_id(0);\n"
		"\tif (l == 0) {\n"
		"\t\to[0] = get_max_sub_group_size();\n"
		"\t\to[1] = get_num_sub_groups();\n"
		"\t}\n"
		"\to[2 + l] = get_sub_group_size();\n"
		"}\n";
	const clwarp_device_info *d = clwarp_engine_device_info(e);
	cl_device_id dev = clwarp_engine_device(e);
	int cl3 = !strstr(d->extensions, "cl_khr_subgroups") && strncmp(d->device_version, "OpenCL 3", 8) == 0;
	cl_int err;
	cl_program p;
	cl_kernel k;
	cl_mem b;
	cl_uint o[2 + 256] = { 0 }, w;

	/* Simpler kernels (only o[get_local_id(0)] = get_sub_group_size()) crash
	 * PoCL 6.0 at run time; this shape runs everywhere we tried. */
	ck_assert_uint_le(local, 256);
	if (!d->has_subgroups)
		return 0;
	p = clCreateProgramWithSource(clwarp_engine_context(e), 1, &src, NULL, &err);
	ck_assert_int_eq(err, CL_SUCCESS);
	err = clBuildProgram(p, 1, &dev, cl3 ? "-cl-std=CL3.0 -DCL3" : "", NULL, NULL);
	ck_assert_msg(err == CL_SUCCESS, "building the raw sub-group kernel: %d", err);
	k = clCreateKernel(p, "w", &err);
	ck_assert_int_eq(err, CL_SUCCESS);
	b = clCreateBuffer(clwarp_engine_context(e), CL_MEM_READ_WRITE, sizeof(o), NULL, &err);
	ck_assert_int_eq(err, CL_SUCCESS);
	ck_assert_int_eq(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
	ck_assert_int_eq(clEnqueueNDRangeKernel(clwarp_engine_queue(e), k, 1, NULL, &local, &local, 0,
						NULL, NULL), CL_SUCCESS);
	ck_assert_int_eq(clEnqueueReadBuffer(clwarp_engine_queue(e), b, CL_TRUE, 0, sizeof(o), o, 0,
					     NULL, NULL), CL_SUCCESS);
	w = o[0];
	ck_assert_uint_gt(w, 0);
	ck_assert_uint_eq(o[1], (local + w - 1) / w);
	for (size_t l = 0; l < local; l++)
		ck_assert_uint_eq(o[2 + l], l / w < local / w ? w : local % w);
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(p);
	return w;
}

/* Run this test binary again as `self --child ARGS...`; returns its exit status. */
static inline int
test_run_child(char *const argv[])
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The engine stores no binaries on a PoCL CPU device while PoCL's own
 * kernel cache is on (src/pocl_kcache.h). The tests of the disk cache
 * store them anyway, with PoCL's cache left on so that their compiles stay
 * cheap; call before the first engine. */
static inline void
test_store_binaries_on_pocl(void)
{
	pocl_kcache_store_anyway(true);
}

static inline Suite *
test_suite_with_timeout(const char *name, TCase **tc)
{
	Suite *s = suite_create(name);

	*tc = tcase_create("main");
	/* PoCL compiles take seconds on a loaded 2-core machine; Check's default is 4 s. */
	tcase_set_timeout(*tc, 300);
	suite_add_tcase(s, *tc);
	return s;
}

/*
 * CLWARP_TEST_ONLY=name[,name...]: run only those tests (CI retries the
 * failed ones). CLWARP_TEST_SHARD=K/N: run the tests whose place in main()'s
 * list is K modulo N, so N processes side by side run every test once
 * (CI's Oclgrind step). A test that is not wanted is not added at all.
 */
static inline bool
test_wanted(const char *name)
{
	static unsigned place;
	const char *only = getenv("CLWARP_TEST_ONLY");
	const char *shard = getenv("CLWARP_TEST_SHARD");
	size_t len = strlen(name);
	unsigned index, count, mine = place++;

	if (shard && *shard) {
		if (sscanf(shard, "%u/%u", &index, &count) != 2 || count == 0 || index >= count) {
			fprintf(stderr, "CLWARP_TEST_SHARD=%s: expected K/N with 0 <= K < N\n", shard);
			exit(EXIT_FAILURE);
		}
		if (mine % count != index)
			return false;
	}
	if (!only || !*only)
		return true;
	for (const char *p = only; *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && strncmp(p, name, len) == 0)
			return true;
		p += n + (end != NULL);
	}
	return false;
}

#define ADD_TEST(tc, t)                      \
	do {                                 \
		if (test_wanted(#t))              \
			tcase_add_test(tc, t); \
	} while (0)

/*
 * A loop test over the entries [0, count) of a list (types, cases). Quick
 * runs (the default setup) take every other entry from @p phase (0 or 1),
 * so that two tests looped over one list of types split it between them
 * and still cover it together; full runs take every entry. Each entry of
 * these lists is a build of its own, most of a quick run's time on PoCL
 * (docs/testing.md, "What quick reduces").
 */
static inline void
test_add_loop_halved(TCase *tc, const TTest *test, int count, int phase)
{
	for (int i = 0; i < count; i++)
		if (!test_quick() || i % 2 == phase)
			tcase_add_loop_test(tc, test, i, i + 1);
}

#endif
