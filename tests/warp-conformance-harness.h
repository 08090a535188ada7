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
	const char *q = test_quick_env();

	return q && *q && strcmp(q, "0") != 0;
}

/* The most shapes make_shapes() gives. */
#define MAX_SHAPES 8

/*
 * Launch shapes for width w, each with at least 2 work-groups. The 2-D and
 * 3-D ones have an x extent smaller than, equal to and a multiple of W:
 * where sub-groups follow dimension 0 only (Intel's runtime), the engine
 * refuses the first kind (check_warp_info) and runs the others.
 *   0: local W, 4 groups (one warp per group)
 *   1: local 4W, 2 groups (four warps per group)
 *   2: 2-D local (3W/4, 4), 2 groups: three warps, each running over rows
 *   3: 2-D local (W, 3), 2 groups: one warp per row
 *   4: 2-D local (2W, 2), 2 groups: two warps per row
 *   5: 3-D local (W/2, 2, 3), 2 groups (votes and ids only)
 *   6: 3-D local (W, 2, 2), 2 groups (votes and ids only)
 *   7: 3-D local (2W, 1, 2), 2 groups (votes and ids only)
 * The votes and ids kernel runs them all (with_3d). The type kernels run
 * shapes 0, 1 and 2, or where the device refuses shape 2 (refused(), when
 * given, says so) 0, 1, 3 and 4; quick mode keeps shape 2 for them (several
 * warps per group, several groups, warps that cross rows), or shape 4.
 */
static inline unsigned
make_shapes(unsigned w, size_t max_items, int with_3d, int (*refused)(const struct shape *, void *),
	    void *ctx, struct shape *out)
{
	struct shape all[MAX_SHAPES];
	unsigned count = 0;
	size_t one[3] = { 4, 1, 1 }, two[3] = { 2, 1, 1 }, two_y[3] = { 1, 2, 1 };
	size_t l;

	l = w;
	shape_set(&all[0], 1, &l, one);
	l = 4 * (size_t)w;
	shape_set(&all[1], 1, &l, two);
	{
		size_t l2[2] = { w >= 4 ? 3 * (size_t)w / 4 : 3, w >= 4 ? 4 : 2 };
		size_t eq[2] = { w, 3 }, mul[2] = { 2 * (size_t)w, 2 };

		shape_set(&all[2], 2, l2, two_y);
		shape_set(&all[3], 2, eq, two_y);
		shape_set(&all[4], 2, mul, two_y);
	}
	{
		size_t l3[3] = { w >= 2 ? w / 2 : 1, 2, 3 };
		size_t eq[3] = { w, 2, 2 }, mul[3] = { 2 * (size_t)w, 1, 2 };

		shape_set(&all[5], 3, l3, two);
		shape_set(&all[6], 3, eq, two);
		shape_set(&all[7], 3, mul, two);
	}
	int rows_refused = !with_3d && refused && refused(&all[2], ctx);

	for (unsigned i = 0; i < (with_3d ? 8u : 5u); i++) {
		if (shape_local_items(&all[i]) > max_items)
			continue;
		if (!with_3d && (i == 2 ? rows_refused : i >= 3 && !rows_refused))
			continue;
		if (quick_mode() && !with_3d && i != 2 && i != 4)
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
 * three tests, each in its own process, and reruns come from the cache (on
 * PoCL, from its second compile: docs/cache.md, "PoCL"). The forced-width
 * engines build each program once per run and go without: storing a
 * binary on PoCL 3.1 compiles every kernel once more (a generic work-group
 * function), ~4 s a program on a loaded 2-core machine.
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
		      clwarp_status_name(s), clwarp_last_error(), info.log ? info.log : "");
	fprintf(stderr, "built %s (%s) in %.0f ms (%s)\n", conf_types[type].name, path,
		info.milliseconds, clwarp_build_source_name(info.source));
	clwarp_build_info_free(&info);
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

/*
 * Check that the kernel reports the engine's backend and width for a shape;
 * 0 when the engine refuses the shape instead. That is right only where
 * the device's sub-groups follow dimension 0 (never on local), only for an
 * x extent that is not a multiple of W, with the rule in the message
 * (docs/warp-api.md, "The contract"), and the launch is refused too.
 */
static inline int
check_warp_info(clwarp_engine *e, clwarp_kernel *k, const struct shape *sh)
{
	clwarp_backend eb, kb;
	unsigned ew, kw;
	clwarp_status s;
	char rule[96];

	engine_backend(e, &eb, &ew);
	s = clwarp_kernel_warp_info(k, sh->dims, sh->local, &kb, &kw);
	if (s == CLWARP_ERROR_WARP_CONTRACT && eb != CLWARP_BACKEND_LOCAL && sh->local[0] % ew != 0) {
		snprintf(rule, sizeof(rule), "local size x (%zu) must be a multiple of the warp width %u",
			 sh->local[0], ew);
		ck_assert_msg(strstr(clwarp_last_error(), rule), "%s: refused without the rule: %s",
			      sh->name, clwarp_last_error());
		ck_assert_int_eq(clwarp_kernel_launch(k, sh->dims, sh->global, sh->local, NULL),
				 CLWARP_ERROR_WARP_CONTRACT);
		fprintf(stderr, "  W=%u %s: refused (sub-groups along dimension 0 only)\n", ew, sh->name);
		return 0;
	}
	ck_assert_clwarp_ok(s);
	ck_assert_int_eq(kb, eb);
	ck_assert_uint_eq(kw, ew);
	return 1;
}

#endif
