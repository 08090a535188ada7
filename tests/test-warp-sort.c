/* Warp sort and exchange conformance: warp_sort, warp_sort_descending,
 * warp_sort_pairs(_descending) and warp_exchange_blocked_to_striped /
 * _striped_to_blocked, through the engine, for every type and every width
 * 1, 2, 4, ... W, against a host reference, value by value. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>

#include "warp-sort-reference.h"

/*
 * The kernels are in tests/warp-sort.cl. Every launch is 1-D: four groups of
 * two warps. Warp k of the launch holds input pattern k % 6: random bits,
 * all equal, already sorted, reverse sorted, few distinct values, special
 * values (NaNs with payloads, +-0.0, +-inf, denormals; INT_MIN/MAX, 0, +-1).
 * The host sorts every segment with its own comparison (floats: NaNs after
 * everything, -0.0 before +0.0, otherwise <) by a stable insertion sort, and
 * checks the keys bit for bit (so the NaN that arrives is the right one),
 * the original lanes the pairs carry (stability) and a second value of
 * another type. The comparison, the sort and the input patterns are in
 * warp-sort-reference.h.
 *
 * Environment: CLWARP_BACKEND (the engine's backend), CLWARP_TEST_QUICK=1
 * (widths 1, 4 and W only), =2 (4 and W: for Oclgrind), CLWARP_SOURCE_ROOT.
 */

#define KEY_FIELDS 8
#define LANE_FIELDS 4
#define VAL_FIELDS 2
#define EX_ITEMS_TOTAL 17 /* 1 + 2 + 3 + 4 + 7 */
#define EX_KINDS 5
#define WARPS 8

static const char *const key_names[KEY_FIELDS] = {
	"warp_sort(k, w) (in a helper)", "warp_sort_descending(k, w)", "warp_sort_pairs(&k, &lane, w) key",
	"warp_sort_pairs_descending(&k, &lane, w) key", "warp_sort(k)", "warp_sort_descending(k)",
	"warp_sort_pairs(&k, &lane) key", "warp_sort_pairs_descending(&k, &lane) key",
};
static const char *const lane_names[LANE_FIELDS] = {
	"warp_sort_pairs(&k, &lane, w) lane (in a helper)", "warp_sort_pairs_descending(&k, &lane, w) lane",
	"warp_sort_pairs(&k, &lane) lane", "warp_sort_pairs_descending(&k, &lane) lane",
};
static const char *const ex_kind_names[EX_KINDS] = {
	"warp_exchange_blocked_to_striped(it, M, w)", "striped_to_blocked(blocked_to_striped(it, M, w), M, w)",
	"warp_exchange_striped_to_blocked(it, M, w)", "warp_exchange_blocked_to_striped(it, M)",
	"warp_exchange_striped_to_blocked(it, M)",
};
static const unsigned ex_items[5] = { 1, 2, 3, 4, 7 };
static const unsigned ex_prefix[5] = { 0, 1, 3, 6, 10 };

/* The value type of each key type's pairs test: every type appears once,
 * every 4-byte key with an 8-byte value and back. */
static const unsigned value_type_of[TYPE_COUNT_ALL] = { TYPE_DOUBLE, TYPE_FLOAT, TYPE_UINT, TYPE_INT,
						       TYPE_ULONG, TYPE_LONG, TYPE_USHORT, TYPE_INT,
						       TYPE_UCHAR, TYPE_FLOAT, TYPE_SHORT };

static int
quick_level(void)
{
	const char *q = test_quick_env();

	return test_quick() ? atoi(q) : 0;
}

/* ------------------------------------------------------------ runs */

struct run {
	const struct conf_type *t, *v;
	size_t n, group;
	unsigned warp;
	uint64_t *keys, *vals, *ex_in;
	void *keys_out, *vals_out, *ex_out;
	uint32_t *lanes_out;
};

static void
check_sort(const struct run *rn, unsigned width, struct tally *tl)
{
	const struct conf_type *t = rn->t;
	unsigned *idx = calloc(rn->warp, sizeof(unsigned));

	for (size_t sb = 0; sb < rn->n; sb += width) {
		for (int desc = 0; desc < 2; desc++) {
			stable_order(t, rn->keys + sb, width, desc, idx);
			for (unsigned i = 0; i < width; i++) {
				size_t slot = sb + i, src = sb + idx[i];
				uint64_t want_key = rn->keys[src];
				uint32_t want_lane = (uint32_t)((src % rn->group) % rn->warp);

				for (unsigned f = (unsigned)desc; f < KEY_FIELDS; f += 2) {
					uint64_t got;

					if (f >= 4 && width != rn->warp)
						continue; /* the forms without a width */
					got = unpack_one(t, rn->keys_out, f * rn->n + slot);
					tl->checked++;
					if (got != want_key)
						mismatch(tl, "%s W=%u width=%u slot %zu %s: got 0x%" PRIx64
							 ", want 0x%" PRIx64 " (from slot %zu)", t->name, rn->warp,
							 width, slot, key_names[f], got, want_key, src);
				}
				for (unsigned f = (unsigned)desc; f < LANE_FIELDS; f += 2) {
					uint32_t got;

					if (f >= 2 && width != rn->warp)
						continue;
					got = rn->lanes_out[f * rn->n + slot];
					tl->checked++;
					if (got != want_lane)
						mismatch(tl, "%s W=%u width=%u slot %zu %s: got %" PRIu32
							 ", want %" PRIu32, t->name, rn->warp, width, slot,
							 lane_names[f], got, want_lane);
				}
				{
					uint64_t want = rn->vals[src] & mask_of(rn->v);
					uint64_t got = unpack_one(rn->v, rn->vals_out, (size_t)desc * rn->n + slot);

					tl->checked++;
					if (got != want)
						mismatch(tl, "%s W=%u width=%u slot %zu warp_sort_pairs%s(&k, &v, w) "
							 "value (%s): got 0x%" PRIx64 ", want 0x%" PRIx64, t->name,
							 rn->warp, width, slot, desc ? "_descending" : "",
							 rn->v->name, got, want);
				}
			}
		}
	}
	free(idx);
}

static void
check_exchange(const struct run *rn, unsigned width, struct tally *tl)
{
	const struct conf_type *t = rn->t;

	for (unsigned mi = 0; mi < 5; mi++) {
		unsigned m = ex_items[mi];
		size_t pre = ex_prefix[mi] * rn->n;

		for (unsigned kind = 0; kind < EX_KINDS; kind++) {
			unsigned w = kind >= 3 ? rn->warp : width;

			if (kind >= 3 && (m != 4 || width != rn->warp))
				continue;
			for (size_t g = 0; g < rn->n; g++) {
				size_t l = ((g % rn->group) % rn->warp) & (w - 1), gb = g - l;

				for (unsigned j = 0; j < m; j++) {
					size_t e, src_slot, src_item;
					uint64_t want, got;

					if (kind == 0 || kind == 3) { /* element j w + l of the blocked segment */
						e = (size_t)j * w + l;
						src_slot = gb + e / m;
						src_item = e % m;
					} else if (kind == 1) {
						src_slot = g;
						src_item = j;
					} else { /* element l m + j of the striped segment */
						e = l * m + j;
						src_slot = gb + e % w;
						src_item = e / w;
					}
					want = rn->ex_in[pre + src_slot * m + src_item];
					got = unpack_one(t, rn->ex_out, ((size_t)kind * EX_ITEMS_TOTAL + ex_prefix[mi]) *
								    rn->n + g * m + j);
					tl->checked++;
					if (got != want)
						mismatch(tl, "%s W=%u width=%u ITEMS=%u slot %zu item %u %s: got 0x%" PRIx64
							 ", want 0x%" PRIx64 " (item %zu of slot %zu)", t->name,
							 rn->warp, w, m, g, j, ex_kind_names[kind], got, want,
							 src_item, src_slot);
				}
			}
		}
	}
}

/* cl_khr_fp16 in the device's extension list (asked of the device). */
static int
device_has_fp16(clwarp_engine *e)
{
	const char *list = clwarp_engine_device_info(e)->extensions, *p = list;
	size_t len = strlen("cl_khr_fp16");

	while (p && (p = strstr(p, "cl_khr_fp16")) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return 1;
		p += len;
	}
	return 0;
}

/* extra: more build options (-DCLWARP_SORT_NETWORK), or "". */
static void
run_type(clwarp_engine *e, unsigned type, const char *extra, struct tally *tl)
{
	struct run rn;
	const clwarp_device_info *info = clwarp_engine_device_info(e);
	unsigned vtype = value_type_of[type];
	clwarp_backend backend;
	char *path = test_source_path("tests/warp-sort.cl");
	char options[128];
	clwarp_program *prog = NULL;
	static const char *const kernel_names[4] = { "sort_width", "sort_full", "sort_values", "exchange" };
	clwarp_kernel *ks[4] = { NULL };
	clwarp_build_info binfo;
	clwarp_status st;

	if (vtype == TYPE_DOUBLE && !info->has_fp64)
		vtype = 2; /* long */
	rn.t = &conf_types[type];
	rn.v = &conf_types[vtype];
	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &rn.warp));
	snprintf(options, sizeof(options), "-DCW_T=%s -DCW_V=%s %s", rn.t->name, rn.v->name, extra);
	st = clwarp_program_build_file(e, path, options, &prog, &binfo);
	ck_assert_msg(st == CLWARP_OK, "building %s with %s: %s (%.1500s)\n%.2000s", path, options,
		      clwarp_status_name(st), clwarp_last_error(), binfo.log ? binfo.log : "");
	fprintf(stderr, "%s (values %s%s%s): built in %.0f ms (%s), backend %s, W = %u\n", rn.t->name,
		rn.v->name, *extra ? ", " : "", extra, binfo.milliseconds, clwarp_build_source_name(binfo.source),
		clwarp_backend_name(backend), rn.warp);
	clwarp_build_info_free(&binfo);
	for (unsigned j = 0; j < 4; j++)
		ck_assert_clwarp_ok(clwarp_kernel_new(prog, kernel_names[j], &ks[j]));

	rn.group = 2 * (size_t)rn.warp;
	rn.n = WARPS * (size_t)rn.warp;
	size_t n = rn.n, ex_n = EX_ITEMS_TOTAL * n, ex_out_n = EX_KINDS * ex_n;
	size_t tsz = rn.t->size, vsz = rn.v->size;
	rn.keys = calloc(n, 8);
	rn.vals = calloc(n, 8);
	rn.ex_in = calloc(ex_n, 8);
	rn.keys_out = calloc(n * KEY_FIELDS, tsz);
	rn.vals_out = calloc(n * VAL_FIELDS, vsz);
	rn.ex_out = calloc(ex_out_n, tsz);
	rn.lanes_out = calloc(n * LANE_FIELDS, 4);
	void *host = calloc(ex_n, 8);
	cl_mem bkeys, bvals, bex, bkeys_out, blanes_out, bvals_out, bex_out;

	rng_seed(type * 6151u + rn.warp);
	gen_keys(rn.t, rn.keys, n, rn.warp);
	for (size_t i = 0; i < n; i++)
		rn.vals[i] = rng() & mask_of(rn.v);
	for (size_t i = 0; i < ex_n; i++)
		rn.ex_in[i] = rng() & mask_of(rn.t);
	pack(rn.t, rn.keys, n, host);
	bkeys = test_buffer(e, n * tsz, host);
	pack(rn.v, rn.vals, n, host);
	bvals = test_buffer(e, n * vsz, host);
	pack(rn.t, rn.ex_in, ex_n, host);
	bex = test_buffer(e, ex_n * tsz, host);
	bkeys_out = test_buffer(e, n * KEY_FIELDS * tsz, NULL);
	blanes_out = test_buffer(e, n * LANE_FIELDS * 4, NULL);
	bvals_out = test_buffer(e, n * VAL_FIELDS * vsz, NULL);
	bex_out = test_buffer(e, ex_out_n * tsz, NULL);
	for (unsigned j = 0; j < 4; j++) {
		const cl_mem args[8] = { bkeys, bvals, bex, NULL, bkeys_out, blanes_out, bvals_out, bex_out };

		for (unsigned a = 0; a < 8; a++) {
			if (args[a])
				ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(ks[j], a, args[a]));
		}
	}

	for (unsigned width = 1; width <= rn.warp; width *= 2) {
		/* Quick: widths 1, 4 and W; level 2 (Oclgrind) leaves out 1, where
		 * no lane talks to another. */
		if (test_quick() && width != 1 && width != 4 && width != rn.warp)
			continue;
		if (quick_level() == 2 && width == 1 && rn.warp > 1)
			continue;
		/* poison the outputs: a value the kernel forgets cannot pass */
		memset(rn.keys_out, 0xa5, n * KEY_FIELDS * tsz);
		memset(rn.lanes_out, 0xa5, n * LANE_FIELDS * 4);
		memset(rn.vals_out, 0xa5, n * VAL_FIELDS * vsz);
		memset(rn.ex_out, 0xa5, ex_out_n * tsz);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bkeys_out, 0, n * KEY_FIELDS * tsz, rn.keys_out));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, blanes_out, 0, n * LANE_FIELDS * 4, rn.lanes_out));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bvals_out, 0, n * VAL_FIELDS * vsz, rn.vals_out));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bex_out, 0, ex_out_n * tsz, rn.ex_out));
		for (unsigned j = 0; j < 4; j++) {
			/* the forms without a width: once, at width W */
			if (j == 1 && width != rn.warp)
				continue;
			ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(ks[j], 3, sizeof(uint32_t), &width));
			st = clwarp_kernel_launch(ks[j], 1, &rn.n, &rn.group, NULL);
			ck_assert_msg(st == CLWARP_OK, "launch %s: %s", kernel_names[j], clwarp_last_error());
		}
		ck_assert_clwarp_ok(clwarp_buffer_read(e, bkeys_out, 0, n * KEY_FIELDS * tsz, rn.keys_out));
		ck_assert_clwarp_ok(clwarp_buffer_read(e, blanes_out, 0, n * LANE_FIELDS * 4, rn.lanes_out));
		ck_assert_clwarp_ok(clwarp_buffer_read(e, bvals_out, 0, n * VAL_FIELDS * vsz, rn.vals_out));
		ck_assert_clwarp_ok(clwarp_buffer_read(e, bex_out, 0, ex_out_n * tsz, rn.ex_out));
		check_sort(&rn, width, tl);
		check_exchange(&rn, width, tl);
	}

	clReleaseMemObject(bkeys);
	clReleaseMemObject(bvals);
	clReleaseMemObject(bex);
	clReleaseMemObject(bkeys_out);
	clReleaseMemObject(blanes_out);
	clReleaseMemObject(bvals_out);
	clReleaseMemObject(bex_out);
	free(rn.keys);
	free(rn.vals);
	free(rn.ex_in);
	free(rn.keys_out);
	free(rn.vals_out);
	free(rn.ex_out);
	free(rn.lanes_out);
	free(host);
	for (unsigned j = 0; j < 4; j++)
		clwarp_kernel_free(ks[j]);
	free(path);
}

/* CLWARP_TEST_ONLY=<type>: that type only (a quick look at one failure). */
static int
skipped(unsigned type)
{
	const char *only = getenv("CLWARP_TEST_ONLY");

	return only && *only && strcmp(only, conf_types[type].name) != 0;
}

START_TEST(test_sort_exchange)
{
	clwarp_engine *e;
	struct tally tl = { 0 };
	char what[64];

	if (skipped((unsigned)_i))
		return;
	/* Quick runs (both levels): one type of each size and signedness pair
	 * (int, long, char, ushort) and the float types; the others run the
	 * same kernel source at a size and order already covered. */
	if (quick_level() >= 1 && (_i == TYPE_UINT || _i == TYPE_ULONG || _i == TYPE_UCHAR ||
				   _i == TYPE_SHORT))
		return;
	e = test_engine_no_disk_cache(CLWARP_BACKEND_AUTO, 0);
	if ((_i == TYPE_DOUBLE && !clwarp_engine_device_info(e)->has_fp64) ||
	    (_i == TYPE_HALF && !device_has_fp16(e))) {
		/* asked of the device: no fp64 (fp16) here, so no double (half) kernels */
		fprintf(stderr, "%s: the device does not support the type\n", conf_types[_i].name);
		clwarp_engine_free(e);
		return;
	}
	run_type(e, (unsigned)_i, "", &tl);
	snprintf(what, sizeof(what), "%s sort and exchange", conf_types[_i].name);
	tally_assert(&tl, what);
	clwarp_engine_free(e);
}
END_TEST

/* The local backend at the other widths (1, 8, 64): one-lane warps, the
 * 64-lane edge of the lane bits. int and double cover the 4- and 8-byte
 * keys and the float order, each with local's own sort (ranks in local
 * memory) and with the network the other backends use
 * (-DCLWARP_SORT_NETWORK: one shuffle or two per step). */
START_TEST(test_local_widths)
{
	static const unsigned widths[] = { 1, 8, 64 };
	static const unsigned types[] = { TYPE_INT, TYPE_DOUBLE };
	static const char *const variants[] = { "", "-DCLWARP_SORT_NETWORK" };
	static const unsigned quick_case[] = { 0, 3, 2 };   /* k below, by width */
	clwarp_engine *e;
	clwarp_backend backend;
	unsigned warp;
	char what[128];

	/* Level 2 (Oclgrind): at width 1 no lane talks to another. */
	if (quick_level() == 2 && widths[_i] == 1)
		return;
	e = test_engine_no_disk_cache(CLWARP_BACKEND_LOCAL, widths[_i]);

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &warp));
	ck_assert_uint_eq(warp, widths[_i]);
	for (unsigned k = 0; k < 4; k++) {
		struct tally tl = { 0 };
		unsigned type = types[k % 2];

		/* Quick runs: one of the four at each width, both types and both
		 * sorts among them: int with local's sort at W = 1, the network
		 * (what the other backends run) on double at W = 8 and on int at
		 * W = 64. Local's sort on double runs at the default width. */
		if (skipped(type) || (quick_level() >= 1 && k != quick_case[_i]))
			continue;
		if (type == TYPE_DOUBLE && !clwarp_engine_device_info(e)->has_fp64)
			continue; /* asked of the device: no fp64 kernels here */
		run_type(e, type, variants[k / 2], &tl);
		snprintf(what, sizeof(what), "local W=%u %s%s%s", widths[_i], conf_types[type].name,
			 k / 2 ? " " : "", variants[k / 2]);
		tally_assert(&tl, what);
	}
	clwarp_engine_free(e);
}
END_TEST

/* sort.cl joins the prelude only where the program's text or options name
 * warp_sort* or warp_exchange*: a name that comes in through -D alone must
 * still find it. The kernel sorts 0..n-1 descending per warp. */
START_TEST(test_prelude_inclusion)
{
	static const char text[] =
		"kernel void k(global int *a) { size_t i = get_global_id(0); a[i] = SORT_FN(a[i]); }\n";
	clwarp_engine *e = test_engine_no_disk_cache(CLWARP_BACKEND_AUTO, 0);
	clwarp_program *prog = NULL;
	clwarp_kernel *k = NULL;
	clwarp_build_info info;
	clwarp_backend backend;
	unsigned warp;
	size_t n, local;
	cl_mem buf;
	int32_t *host;
	clwarp_status st;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &warp));
	n = 2 * (size_t)warp;
	local = n;
	host = calloc(n, 4);
	for (size_t i = 0; i < n; i++)
		host[i] = (int32_t)i;
	st = clwarp_program_build_source(e, text, "inclusion.cl", "-DSORT_FN=warp_sort_descending", &prog,
					 &info);
	ck_assert_msg(st == CLWARP_OK, "build: %s\n%.2000s", clwarp_last_error(), info.log ? info.log : "");
	clwarp_build_info_free(&info);
	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "k", &k));
	buf = test_buffer(e, n * 4, host);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, buf));
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, 1, &n, &local, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, n * 4, host));
	for (size_t i = 0; i < n; i++) {
		size_t base = i - i % warp;
		ck_assert_int_eq(host[i], (int32_t)(base + warp - 1 - (i - base)));
	}
	clReleaseMemObject(buf);
	clwarp_kernel_free(k);
	free(host);
	clwarp_engine_free(e);
}
END_TEST

static Suite *
warp_sort_suite(void)
{
	Suite *s = suite_create("warp-sort");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_prelude_inclusion);
	tcase_add_loop_test(tc, test_sort_exchange, 0, TYPE_COUNT_ALL);
	tcase_add_loop_test(tc, test_local_widths, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return test_main(warp_sort_suite());
}
