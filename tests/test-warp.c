/* Warp API conformance: every primitive x type x launch shape, through the
 * engine, against a host reference for the warp width the engine reports. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <limits.h>

#include "testutil.h"
#include "warp-conformance-harness.h"
#include "warp-conformance-reference.h"

/*
 * The kernels are in tests/warp-conformance.cl. Each launch writes NF fields
 * per work-item (see that file); the host computes every field for every
 * work-item from the same inputs and compares bit for bit. Only the width W
 * and the work-group size enter the reference, so the same test runs on
 * every backend and width.
 *
 * Environment: CLWARP_BACKEND (when set, the engine must use exactly that
 * backend), CLWARP_TEST_QUICK=1 (fewer launch shapes: for Oclgrind; every
 * primitive and type is still checked), CLWARP_SOURCE_ROOT / CLWARP_TEST_DATA
 * (where to find the .cl file).
 *
 * The launch shapes, engines and programs are in warp-conformance-harness.h,
 * the inputs and the reference of every field in
 * warp-conformance-reference.h.
 */

/* ------------------------------------------------------ type primitives */

static void
run_type(clwarp_engine *e, clwarp_program *p, unsigned type, const struct shape *sh,
	 unsigned shape_index, struct tally *tl)
{
	const struct conf_type *t = &conf_types[type];
	clwarp_backend backend;
	unsigned w;
	size_t n = shape_items(sh), lt = shape_local_items(sh);
	uint64_t *s = calloc(n, 8), *a = calloc(n, 8), *m = calloc(n, 8);
	uint32_t *args = calloc(n * 4, 4);
	void *host = calloc(n, t->size), *out = calloc(n * NF, t->size);
	cl_mem bs, ba, bm, bargs, buni, bout;
	clwarp_kernel *k = NULL;
	uint32_t uni[NU], nu = NU;
	int lane_order;
	double start;

	engine_backend(e, &backend, &w);
	/* The local backend promises lane order for add: test it with inexact sums. */
	lane_order = backend == CLWARP_BACKEND_LOCAL;
	rng_seed(type * 1000 + shape_index * 10 + w);
	gen_inputs(t, n, w, lane_order, s, a, m);
	for (size_t i = 0; i < n; i++) {
		args[i * 4 + 0] = (uint32_t)(rng() % (3 * w + 1));
		args[i * 4 + 1] = (uint32_t)(rng() % (w + 3));
		args[i * 4 + 2] = (uint32_t)(rng() % (w + 3));
		args[i * 4 + 3] = (uint32_t)(rng() % (2 * w + 1));
		if (i % 17 == 0)
			args[i * 4 + 1] = 0xffffffffu;
		if (i % 19 == 0)
			args[i * 4 + 2] = 0x80000001u;
		if (i % 23 == 0)
			args[i * 4 + 3] = 0xfffffffeu;
	}
	/* uniform operands: 0, 1, 2, W-1, W (>= width), W+1, one past 32, and ~0 */
	uni[0] = 0;
	uni[1] = 1;
	uni[2] = 2;
	uni[3] = w - 1;
	uni[4] = w;
	uni[5] = w + 1;
	uni[6] = 37u + 11u * shape_index;
	uni[7] = 0xffffffffu;

	pack(t, s, n, host);
	bs = new_buffer(e, n * t->size, host);
	pack(t, a, n, host);
	ba = new_buffer(e, n * t->size, host);
	pack(t, m, n, host);
	bm = new_buffer(e, n * t->size, host);
	bargs = new_buffer(e, n * 16, args);
	buni = new_buffer(e, sizeof(uni), uni);
	bout = new_buffer(e, n * NF * t->size, NULL);

	ck_assert_clwarp_ok(clwarp_kernel_new(p, "conf_type", &k));
	ck_assert_uint_eq(clwarp_kernel_arg_count(k), 7);
	if (!check_warp_info(e, k, sh))
		goto done;
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bs));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, ba));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 2, bm));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 3, bargs));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 4, buni));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 5, sizeof(nu), &nu));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 6, bout));
	start = now_ms();
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, sh->dims, sh->global, sh->local, NULL));
	fprintf(stderr, "  %s W=%u %s: launch %.0f ms\n", t->name, w, sh->name, now_ms() - start);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, n * NF * t->size, out));

	for (unsigned f = 0; f < NF; f++) {
		for (size_t i = 0; i < n; i++) {
			uint64_t want = type_expected(t, f, i, lt, w, s, a, m, args, uni);
			uint64_t got = unpack_one(t, out, f * n + i);
			char name[96];

			tl->checked++;
			if (got == want)
				continue;
			/* fmin/fmax of NaNs only: any NaN will do */
			if (is_minmax_field(f) && is_nan(t, want) && is_nan(t, got))
				continue;
			field_name(f, uni, name, sizeof(name));
			mismatch(tl, "%s %s W=%u %s: %s, item %zu (lane %zu of warp %zu of group %zu): got 0x%0*" PRIx64 " want 0x%0*" PRIx64,
				 t->name, clwarp_backend_name(backend), w, sh->name, name, i,
				 (i % lt) % w, (i % lt) / w, i / lt, (int)t->size * 2, got,
				 (int)t->size * 2, want);
		}
	}
done:
	clwarp_kernel_free(k);
	clReleaseMemObject(bs);
	clReleaseMemObject(ba);
	clReleaseMemObject(bm);
	clReleaseMemObject(bargs);
	clReleaseMemObject(buni);
	clReleaseMemObject(bout);
	free(s);
	free(a);
	free(m);
	free(args);
	free(host);
	free(out);
}

/* make_shapes()'s question: does the engine refuse this shape for conf_type
 * (program ctx)? */
static int
type_shape_refused(const struct shape *sh, void *ctx)
{
	clwarp_kernel *k = NULL;
	clwarp_status s;

	ck_assert_clwarp_ok(clwarp_kernel_new(ctx, "conf_type", &k));
	s = clwarp_kernel_warp_info(k, sh->dims, sh->local, NULL, NULL);
	clwarp_kernel_free(k);
	return s == CLWARP_ERROR_WARP_CONTRACT;
}

/* Every primitive of one type on every shape; 0 when the type is not supported. */
static int
check_type(clwarp_engine *e, unsigned type, struct tally *tl)
{
	clwarp_program *p;
	struct shape shapes[MAX_SHAPES];
	unsigned count, w;
	clwarp_backend backend;

	if (type == TYPE_DOUBLE && !clwarp_engine_device_info(e)->has_fp64) {
		fprintf(stderr, "double: skipped, the device has no fp64\n");
		return 0;
	}
	engine_backend(e, &backend, &w);
	p = build_type(e, type);
	count = make_shapes(w, clwarp_engine_device_info(e)->max_work_group_size, 0, type_shape_refused,
			    p, shapes);
	ck_assert_uint_ge(count, 1);
	for (unsigned i = 0; i < count; i++)
		run_type(e, p, type, &shapes[i], i, tl);
	return 1;
}

/* --------------------------------------------------------------- votes */

#define PATTERNS 6
#define NV (3 * PATTERNS + 6)

static const char *const vote_names[6] = {
	"warp_lane_id", "warp_id", "warp_count", "warp_size", "warp_barrier (write, read)",
	"warp_barrier (read, write)",
};

static void
run_votes(clwarp_engine *e, clwarp_program *p, const struct shape *sh, struct tally *tl)
{
	clwarp_backend backend;
	unsigned w;
	size_t n = shape_items(sh), lt = shape_local_items(sh);
	int32_t *preds = calloc(PATTERNS * n, 4);
	uint64_t *out = calloc(NV * n, 8);
	cl_mem bp, bout;
	clwarp_kernel *k = NULL;
	double start;

	engine_backend(e, &backend, &w);
	rng_seed(77 + w);
	for (size_t i = 0; i < n; i++) {
		size_t lane = (i % lt) % w;

		preds[0 * n + i] = (int32_t)(i % 5) - 7;           /* all true, none of them 1 */
		preds[1 * n + i] = 0;                              /* none */
		preds[2 * n + i] = (int32_t)(lane & 1);            /* alternating lanes */
		preds[3 * n + i] = rng() % 3 == 0 ? (int32_t)(rng() | 1) : 0; /* random */
		preds[4 * n + i] = lane == w - 1 ? INT32_MIN : 0;  /* only the last lane */
		preds[5 * n + i] = lane != 0;                      /* all but lane 0 */
	}
	/* in the random pattern, warp 0 all true and warp 1 all false */
	for (size_t i = 0; i < w && 2 * (size_t)w <= n; i++) {
		preds[3 * n + i] = 1;
		preds[3 * n + w + i] = 0;
	}
	bp = new_buffer(e, PATTERNS * n * 4, preds);
	bout = new_buffer(e, NV * n * 8, NULL);
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "conf_votes", &k));
	ck_assert_uint_eq(clwarp_kernel_arg_count(k), 3);
	if (!check_warp_info(e, k, sh))
		goto done;
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bp));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_local(k, 2, lt * 4));
	start = now_ms();
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, sh->dims, sh->global, sh->local, NULL));
	fprintf(stderr, "  votes W=%u %s: launch %.0f ms\n", w, sh->name, now_ms() - start);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, NV * n * 8, out));

	for (size_t i = 0; i < n; i++) {
		size_t lid = i % lt, lane = lid % w, base = i - lane;
		uint64_t full = w == 64 ? ~0ull : (1ull << w) - 1;
		uint64_t want[NV];

		for (unsigned pt = 0; pt < PATTERNS; pt++) {
			uint64_t ballot = 0;

			for (unsigned j = 0; j < w; j++)
				ballot |= (uint64_t)(preds[pt * n + base + j] != 0) << j;
			want[3 * pt + 0] = ballot == full;
			want[3 * pt + 1] = ballot != 0;
			want[3 * pt + 2] = ballot;
		}
		want[3 * PATTERNS + 0] = lane;
		want[3 * PATTERNS + 1] = lid / w;
		want[3 * PATTERNS + 2] = lt / w;
		want[3 * PATTERNS + 3] = w;
		want[3 * PATTERNS + 4] = (uint32_t)((base + (lane + 1) % w) * 3 + 1);
		want[3 * PATTERNS + 5] = (uint32_t)((base + (lane + w - 1) % w) * 5 + 2);
		for (unsigned f = 0; f < NV; f++) {
			char name[64];
			uint64_t got = out[f * n + i];

			tl->checked++;
			if (got == want[f])
				continue;
			if (f < 3 * PATTERNS)
				snprintf(name, sizeof(name), "%s, pattern %u",
					 f % 3 == 0 ? "warp_all" : f % 3 == 1 ? "warp_any" : "warp_ballot", f / 3);
			else
				snprintf(name, sizeof(name), "%s", vote_names[f - 3 * PATTERNS]);
			mismatch(tl, "votes %s W=%u %s: %s, item %zu (lane %zu of warp %zu of group %zu): got 0x%" PRIx64 " want 0x%" PRIx64,
				 clwarp_backend_name(backend), w, sh->name, name, i, lane, lid / w, i / lt,
				 got, want[f]);
		}
	}
done:
	clwarp_kernel_free(k);
	clReleaseMemObject(bp);
	clReleaseMemObject(bout);
	free(preds);
	free(out);
}

static void
check_votes(clwarp_engine *e, struct tally *tl)
{
	clwarp_program *p;
	struct shape shapes[MAX_SHAPES];
	unsigned count, w;
	clwarp_backend backend;

	engine_backend(e, &backend, &w);
	p = build_type(e, TYPE_INT);
	count = make_shapes(w, clwarp_engine_device_info(e)->max_work_group_size, 1, NULL, NULL, shapes);
	ck_assert_uint_ge(count, 1);
	for (unsigned i = 0; i < count; i++)
		run_votes(e, p, &shapes[i], tl);
}

/* ---------------------------------------------------------------- tests */

/* The backend the environment asks for is the one the engine uses: a silent
 * fallback (e.g. khr to local) fails here. */
START_TEST(test_backend_reported)
{
	clwarp_engine *e = conf_engine(CLWARP_BACKEND_AUTO, 0, 1);
	const char *want = getenv("CLWARP_BACKEND");
	const char *want_w = getenv("CLWARP_WARP_SIZE");
	const char *want_b = getenv("CLWARP_TEST_EXPECT_BACKEND");
	clwarp_backend backend;
	unsigned w;
	int native = -1;

	engine_backend(e, &backend, &w);
	fprintf(stderr, "device %s: backend %s, warp size %u, fp64 %s\n",
		clwarp_engine_device_info(e)->name, clwarp_backend_name(backend), w,
		clwarp_engine_device_info(e)->has_fp64 ? "yes" : "no");
	ck_assert_int_ne(backend, CLWARP_BACKEND_AUTO);
	if (want && *want && strcmp(want, "auto") != 0) {
		clwarp_backend forced;

		ck_assert_clwarp_ok(clwarp_backend_from_name(want, &forced));
		ck_assert_msg(backend == forced, "CLWARP_BACKEND=%s but the engine uses %s", want,
			      clwarp_backend_name(backend));
	}
	ck_assert_clwarp_ok(clwarp_engine_backend_native(e, &native));
	fprintf(stderr, "width: %s\n", native ? "the device's own (no pin)" : "pinned or emulated");
	if (want_b && *want_b) {
		/* e.g. CLWARP_TEST_EXPECT_BACKEND=khr-native: what CI expects the
		 * automatic choice to be on this device */
		char got[32];

		snprintf(got, sizeof(got), "%s%s", clwarp_backend_name(backend), native ? "-native" : "");
		ck_assert_msg(strcmp(got, want_b) == 0, "CLWARP_TEST_EXPECT_BACKEND=%s but the engine uses %s",
			      want_b, got);
	}
	ck_assert(!native || backend == CLWARP_BACKEND_KHR);
	if (backend == CLWARP_BACKEND_LOCAL)
		ck_assert_uint_eq(w, want_w && *want_w ? (unsigned)atoi(want_w) : 32);
	else if (backend == CLWARP_BACKEND_KHR && native)
		/* the width the device itself reports for a work-group of 64 */
		ck_assert_uint_eq(w, test_raw_sub_group_width(e, 64));
	else if (backend == CLWARP_BACKEND_KHR || backend == CLWARP_BACKEND_NV)
		ck_assert_uint_eq(w, 32);
	else if (backend == CLWARP_BACKEND_INTEL)
		ck_assert_uint_eq(w, 16);
	/* asking again gives the same answer */
	{
		clwarp_backend again;
		unsigned w2;

		engine_backend(e, &again, &w2);
		ck_assert_int_eq(again, backend);
		ck_assert_uint_eq(w2, w);
	}
	clwarp_engine_free(e);
}
END_TEST

/* Every primitive for one type (the loop index) on every launch shape. */
START_TEST(test_type_primitives)
{
	clwarp_engine *e = conf_engine(CLWARP_BACKEND_AUTO, 0, 1);
	struct tally tl = { 0 };
	char what[64];

	if (check_type(e, (unsigned)_i, &tl)) {
		snprintf(what, sizeof(what), "%s primitives", conf_types[_i].name);
		tally_assert(&tl, what);
	}
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_votes_ids_barrier)
{
	clwarp_engine *e = conf_engine(CLWARP_BACKEND_AUTO, 0, 1);
	struct tally tl = { 0 };

	check_votes(e, &tl);
	tally_assert(&tl, "votes, ids and warp_barrier");
	clwarp_engine_free(e);
}
END_TEST

static void
assert_contract_error(clwarp_status s, unsigned w, const char *what)
{
	char num[32];
	const char *msg = clwarp_last_error();

	snprintf(num, sizeof(num), "%u", w);
	ck_assert_msg(s == CLWARP_ERROR_WARP_CONTRACT, "%s: got %s (%s), want a warp contract error",
		      what, clwarp_status_name(s), msg);
	ck_assert_msg(strstr(msg, "warp size") && strstr(msg, num),
		      "%s: the message does not name the warp size %u: \"%s\"", what, w, msg);
}

/* The host refuses launches that would break the warp contract. */
START_TEST(test_warp_contract)
{
	clwarp_engine *e = conf_engine(CLWARP_BACKEND_AUTO, 0, 1);
	clwarp_program *p;
	clwarp_kernel *k = NULL;
	clwarp_backend backend, kb;
	unsigned w, kw;
	cl_mem buf;
	size_t g1 = 0, l1 = 0, g2[2], l2[2];
	struct tally tl = { 0 };
	struct shape sh[MAX_SHAPES];

	engine_backend(e, &backend, &w);
	p = build_type(e, TYPE_INT);
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "conf_votes", &k));
	buf = new_buffer(e, 64 * 1024, NULL);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, buf));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, buf));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_local(k, 2, 4 * 64 * 4));

	/* NULL local: the driver would pick any size */
	g1 = 4 * (size_t)w;
	assert_contract_error(clwarp_kernel_launch(k, 1, &g1, NULL, NULL), w, "NULL local");
	assert_contract_error(clwarp_kernel_warp_info(k, 1, NULL, &kb, &kw), w, "warp_info, NULL local");

	if (w > 1) {
		/* 1-D: half a warp; 3/2 of a warp */
		l1 = w / 2;
		g1 = 2 * l1;
		assert_contract_error(clwarp_kernel_launch(k, 1, &g1, &l1, NULL), w, "local W/2");
		assert_contract_error(clwarp_kernel_warp_info(k, 1, &l1, &kb, &kw), w, "warp_info, local W/2");
		l1 = 3 * (size_t)w / 2;
		g1 = 2 * l1;
		assert_contract_error(clwarp_kernel_launch(k, 1, &g1, &l1, NULL), w, "local 3W/2");
		/* 2-D whose product is not a multiple either */
		l2[0] = w / 2;
		l2[1] = 3;
		g2[0] = 2 * l2[0];
		g2[1] = 3;
		assert_contract_error(clwarp_kernel_launch(k, 2, g2, l2, NULL), w, "local (W/2, 3)");
	}
	/* a legal size: warp_info agrees with the engine */
	l1 = w;
	ck_assert_clwarp_ok(clwarp_kernel_warp_info(k, 1, &l1, &kb, &kw));
	ck_assert_int_eq(kb, backend);
	ck_assert_uint_eq(kw, w);
	clwarp_kernel_free(k);
	clReleaseMemObject(buf);

	/* refused launches leave the kernel usable */
	make_shapes(w, clwarp_engine_device_info(e)->max_work_group_size, 1, NULL, NULL, sh);
	run_votes(e, p, &sh[0], &tl);
	tally_assert(&tl, "votes after refused launches");
	clwarp_engine_free(e);
}
END_TEST

/* Save an environment variable and unset it; restore_env puts it back
 * (tests also run in one process under CK_FORK=no). */
static char *
unset_env(const char *name)
{
	const char *v = getenv(name);
	char *saved = v ? strdup(v) : NULL;

	unsetenv(name);
	return saved;
}

static void
restore_env(const char *name, char *saved)
{
	if (saved)
		setenv(name, saved, 1);
	else
		unsetenv(name);
	free(saved);
}

static const unsigned forced_widths[] = { 8, 64, 1 };

/* The local backend forced by option at widths 8, 64 and 1 passes the core
 * subset: every primitive on int, votes, ids and warp_barrier, on every
 * launch shape. */
START_TEST(test_forced_local_width)
{
	unsigned want_w = forced_widths[_i];
	char *saved_backend = unset_env("CLWARP_BACKEND");
	char *saved_width = unset_env("CLWARP_WARP_SIZE");
	clwarp_engine *e = conf_engine(CLWARP_BACKEND_LOCAL, want_w, 0);
	clwarp_backend backend;
	unsigned w;
	struct tally tl = { 0 };
	char what[64];

	engine_backend(e, &backend, &w);
	ck_assert_int_eq(backend, CLWARP_BACKEND_LOCAL);
	ck_assert_uint_eq(w, want_w);
	check_type(e, TYPE_INT, &tl);
	check_votes(e, &tl);
	snprintf(what, sizeof(what), "local backend, width %u", want_w);
	tally_assert(&tl, what);
	clwarp_engine_free(e);
	restore_env("CLWARP_BACKEND", saved_backend);
	restore_env("CLWARP_WARP_SIZE", saved_width);
}
END_TEST

static void
assert_unavailable(clwarp_backend forced, int by_env)
{
	clwarp_engine *e;
	clwarp_backend backend;
	unsigned w;
	clwarp_program *p = NULL;
	clwarp_status s;
	const char *name = clwarp_backend_name(forced);

	if (by_env)
		setenv("CLWARP_BACKEND", name, 1);
	e = conf_engine(by_env ? CLWARP_BACKEND_AUTO : forced, 0, 1);
	s = clwarp_engine_backend(e, &backend, &w);
	ck_assert_msg(s == CLWARP_ERROR_BACKEND_UNAVAILABLE, "forcing %s%s: got %s (%s)", name,
		      by_env ? " by CLWARP_BACKEND" : "", clwarp_status_name(s), clwarp_last_error());
	ck_assert_msg(strstr(clwarp_last_error(), name), "the message does not name %s: \"%s\"", name,
		      clwarp_last_error());
	/* and again: the verdict sticks, no fallback on the second call */
	ck_assert_int_eq(clwarp_engine_backend(e, &backend, &w), CLWARP_ERROR_BACKEND_UNAVAILABLE);
	s = clwarp_program_build_source(e, "kernel void f(global int *o) { o[0] = 1; }\n", NULL, NULL,
					&p, NULL);
	ck_assert_msg(s == CLWARP_ERROR_BACKEND_UNAVAILABLE, "building with %s forced: got %s", name,
		      clwarp_status_name(s));
	ck_assert_ptr_null(p);
	clwarp_engine_free(e);
	if (by_env)
		unsetenv("CLWARP_BACKEND");
}

/* Forcing a backend the device cannot run is an error naming it, not a fallback. */
START_TEST(test_forced_unavailable)
{
	char *saved_backend = unset_env("CLWARP_BACKEND");
	clwarp_engine *e = conf_engine(CLWARP_BACKEND_AUTO, 0, 1);
	const clwarp_device_info *info = clwarp_engine_device_info(e);
	int nv = info->nv_warp_size != 0, subgroups = info->has_subgroups;
	int tested = 0;

	clwarp_engine_free(e);
	if (!nv) {
		assert_unavailable(CLWARP_BACKEND_NV, 0);
		assert_unavailable(CLWARP_BACKEND_NV, 1);
		tested++;
	}
	if (!subgroups) {
		assert_unavailable(CLWARP_BACKEND_KHR, 0);
		tested++;
	}
	if (!tested)
		fprintf(stderr, "forced_unavailable: the device has NVIDIA warps and sub-groups, nothing to test\n");
	restore_env("CLWARP_BACKEND", saved_backend);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("warp", &tc);

	tcase_add_test(tc, test_backend_reported);
	tcase_add_loop_test(tc, test_type_primitives, 0, TYPE_COUNT);
	tcase_add_test(tc, test_votes_ids_barrier);
	tcase_add_test(tc, test_warp_contract);
	tcase_add_loop_test(tc, test_forced_local_width, 0,
			    (int)(sizeof(forced_widths) / sizeof(forced_widths[0])));
	tcase_add_test(tc, test_forced_unavailable);
	return test_main(s);
}
