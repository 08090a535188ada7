/* The launches of tests/test-warp.c: launch shapes, engines at a backend
 * and width, the programs of tests/warp-conformance.cl, and the checks that
 * a kernel runs at the engine's backend and width. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARP_CONFORMANCE_HARNESS_H
#define CLWARP_WARP_CONFORMANCE_HARNESS_H

#include <time.h>

#include "warp-reference.h"

/* One launch shape: dims, local and global sizes. */
struct shape {
	unsigned dims;
	size_t local[3];
	size_t global[3];
	char name[64];
};

static inline size_t
shape_local_items(const struct shape *sh)
{
	size_t t = 1;

	for (unsigned d = 0; d < sh->dims; d++)
		t *= sh->local[d];
	return t;
}

static inline size_t
shape_items(const struct shape *sh)
{
	size_t t = 1;

	for (unsigned d = 0; d < sh->dims; d++)
		t *= sh->global[d];
	return t;
}

static inline void
shape_set(struct shape *sh, unsigned dims, const size_t *local, const size_t *groups)
{
	int len;

	memset(sh, 0, sizeof(*sh));
	sh->dims = dims;
	len = snprintf(sh->name, sizeof(sh->name), "local (");
	for (unsigned d = 0; d < dims; d++) {
		sh->local[d] = local[d];
		sh->global[d] = local[d] * groups[d];
		len += snprintf(sh->name + len, sizeof(sh->name) - (size_t)len, "%s%zu",
				d ? "," : "", local[d]);
	}
	snprintf(sh->name + len, sizeof(sh->name) - (size_t)len, ") x %zu groups",
		 groups[0] * (dims > 1 ? groups[1] : 1) * (dims > 2 ? groups[2] : 1));
}

static inline int
quick_mode(void)
{
	const char *q = getenv("CLWARP_TEST_QUICK");

	return q && *q && strcmp(q, "0") != 0;
}

/*
 * Launch shapes for width w, each with at least 2 work-groups:
 *   0: local W, 4 groups (one warp per group)
 *   1: local 4W, 2 groups (four warps per group)
 *   2: 2-D local (3W/4, 4), 2 groups: three warps, each running over rows
 *   3: 3-D local (W/2, 2, 3), 2 groups (votes and ids only)
 * Quick mode keeps shape 2 for the type kernels: it has several warps per
 * group, several groups, and warps that cross rows.
 */
static inline unsigned
make_shapes(unsigned w, size_t max_items, int with_3d, struct shape *out)
{
	struct shape all[4];
	unsigned count = 0;
	size_t one[3] = { 4, 1, 1 }, two[3] = { 2, 1, 1 }, two_y[3] = { 1, 2, 1 };
	size_t l;

	l = w;
	shape_set(&all[0], 1, &l, one);
	l = 4 * (size_t)w;
	shape_set(&all[1], 1, &l, two);
	{
		size_t l2[2] = { w >= 4 ? 3 * (size_t)w / 4 : 3, w >= 4 ? 4 : 2 };
		shape_set(&all[2], 2, l2, two_y);
	}
	{
		size_t l3[3] = { w >= 2 ? w / 2 : 1, 2, 3 };
		shape_set(&all[3], 3, l3, two);
	}
	for (unsigned i = 0; i < (with_3d ? 4u : 3u); i++) {
		if (quick_mode() && !with_3d && i != 2)
			continue;
		if (shape_local_items(&all[i]) > max_items)
			continue;
		out[count++] = all[i];
	}
	return count;
}

static inline double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* --------------------------------------------------------------- engine */

/* Where tests/warp-conformance.cl is. */
static inline char *
conformance_path(void)
{
	char *path = malloc(4096);
	const char *root = getenv("CLWARP_SOURCE_ROOT");
	const char *data = getenv("CLWARP_TEST_DATA");

	if (root && *root)
		snprintf(path, 4096, "%s/tests/warp-conformance.cl", root);
	else if (data && *data)
		snprintf(path, 4096, "%s/../warp-conformance.cl", data);
	else
		snprintf(path, 4096, "tests/warp-conformance.cl");
	ck_assert_msg(access(path, R_OK) == 0,
		      "%s not found: set CLWARP_SOURCE_ROOT to the source folder", path);
	return path;
}

/*
 * An engine with the disk cache meson gives the tests (none without it, or
 * when `disk_cache` is 0). The default engine's int program is shared by
 * three tests, each in its own process, and reruns come from the cache. The
 * forced-width engines build each program once per run and go without: on
 * PoCL 3.1, storing a binary compiles every kernel once more (a generic
 * work-group function), ~4 s a program on a loaded 2-core machine.
 */
static inline clwarp_engine *
conf_engine(clwarp_backend backend, unsigned warp_size, int disk_cache)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	const char *cache = getenv("CLWARP_CACHE_DIR");

	clwarp_engine_options_init(&o);
	o.backend = backend;
	o.warp_size = warp_size;
	if (disk_cache && cache && *cache)
		o.cache_dir = cache;
	else
		o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_OK, "engine: %s", clwarp_last_error());
	return e;
}

static inline void
engine_backend(clwarp_engine *e, clwarp_backend *backend, unsigned *w)
{
	ck_assert_clwarp_ok(clwarp_engine_backend(e, backend, w));
	ck_assert_msg(*w >= 1 && *w <= 64 && (*w & (*w - 1)) == 0, "warp size %u", *w);
}

static inline clwarp_program *
build_type(clwarp_engine *e, unsigned type)
{
	char *path = conformance_path();
	char options[128];
	clwarp_program *p = NULL;
	clwarp_build_info info;
	clwarp_status s;

	snprintf(options, sizeof(options), "-DCW_T=%s%s", conf_types[type].name,
		 type == TYPE_INT ? " -DCW_WITH_VOTES" : "");
	s = clwarp_program_build_file(e, path, options, &p, &info);
	ck_assert_msg(s == CLWARP_OK, "building %s with %s: %s (%s)\n%s", path, options,
		      clwarp_status_to_str(s), clwarp_last_error(), info.log ? info.log : "");
	fprintf(stderr, "built %s (%s) in %.0f ms (%s)\n", conf_types[type].name, path,
		info.milliseconds, clwarp_build_source_name(info.source));
	clwarp_build_info_clear(&info);
	free(path);
	return p;
}

static inline cl_mem
new_buffer(clwarp_engine *e, size_t bytes, const void *data)
{
	cl_mem m = NULL;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, bytes, data, &m));
	return m;
}

/* Check that the kernel reports the engine's backend and width for a shape. */
static inline void
check_warp_info(clwarp_engine *e, clwarp_kernel *k, const struct shape *sh)
{
	clwarp_backend eb, kb;
	unsigned ew, kw;

	engine_backend(e, &eb, &ew);
	ck_assert_clwarp_ok(clwarp_kernel_warp_info(k, sh->dims, sh->local, &kb, &kw));
	ck_assert_int_eq(kb, eb);
	ck_assert_uint_eq(kw, ew);
}

#endif
