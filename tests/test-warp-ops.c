/* Warp API 2 conformance: logical widths, the mul/and/or/xor operators,
 * warp_none, match and a user-defined operator, through the engine, for
 * every type and every width 1, 2, 4, ... W, against a host reference. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>

#include "warp-reference.h"

/*
 * The kernel is in tests/warp-ops.cl. Every launch is 1-D: two groups of
 * two warps. The host computes each field of each slot from the inputs,
 * the warp width W the engine reports and the logical width, and compares
 * bit for bit (a NaN result matches any NaN: min/max promise "some NaN"
 * when every value is one). Inputs keep sums and products exact, so every
 * combining order gives the same bits.
 *
 * Environment: CLWARP_BACKEND (the engine's backend), CLWARP_TEST_QUICK=1
 * (widths 1, 4 and W only: for Oclgrind), CLWARP_SOURCE_ROOT.
 */

#define T_FIELDS 33
#define BIT_FIELDS 9
#define FIELDS_ALL_TYPES 19
#define FIELDS_INT 29
#define FIELD_USER_FIRST 29

enum fop { F_ADD, F_MIN, F_MAX, F_MUL, F_AND, F_OR, F_XOR, F_AFFINE };

static const char *const t_names[T_FIELDS] = {
	"warp_shuffle(s, src, w)", "warp_shuffle_down(s, d, w)", "warp_shuffle_up(s, d, w)",
	"warp_shuffle_xor(s, m, w)", "warp_broadcast(s, src, w)",
	"warp_reduce_add(a, w)", "warp_reduce_min(m, w)", "warp_reduce_max(m, w)", "warp_reduce_mul(p, w)",
	"warp_scan_inclusive_add(a, w)", "warp_scan_inclusive_min(m, w)",
	"warp_scan_inclusive_max(m, w)", "warp_scan_inclusive_mul(p, w)",
	"warp_scan_exclusive_add(a, w)", "warp_scan_exclusive_min(m, w)",
	"warp_scan_exclusive_max(m, w)", "warp_scan_exclusive_mul(p, w)",
	"warp_reduce_mul(p)", "warp_scan_exclusive_mul(p)",
	"warp_reduce_and(s, w)", "warp_reduce_or(s, w)", "warp_reduce_xor(s, w)",
	"warp_scan_inclusive_and(s, w)", "warp_scan_inclusive_or(s, w)",
	"warp_scan_inclusive_xor(s, w)", "warp_scan_exclusive_and(s, w)",
	"warp_scan_exclusive_or(s, w)", "warp_scan_exclusive_xor(s, w)", "warp_reduce_xor(s)",
	"warp_reduce_affine(s, w)", "warp_scan_inclusive_affine(s, w)",
	"warp_scan_exclusive_affine(s, w)", "warp_scan_inclusive_affine(s)",
};

static const char *const bit_names[BIT_FIELDS] = {
	"warp_match_any(q, w)", "warp_match_all(q, w)", "warp_ballot(p, w)", "warp_all(p, w)",
	"warp_any(p, w)", "warp_none(p, w)", "warp_match_any(q)", "warp_match_all(q)", "warp_none(p)",
};

static int
quick(void)
{
	const char *q = getenv("CLWARP_TEST_QUICK");

	return q && *q && strcmp(q, "0") != 0;
}

/* --------------------------------------------------------- reference */

static uint64_t
affine(uint64_t a, uint64_t b)
{
	uint32_t ma = (uint32_t)a, ca = (uint32_t)(a >> 32), mb = (uint32_t)b, cb = (uint32_t)(b >> 32);

	return ((uint64_t)(uint32_t)(ca * mb + cb) << 32) | (uint32_t)(ma * mb);
}

static uint64_t
op_mul(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (t->kind != K_FLOAT)
		return (a * b) & mask_of(t);
	if (t->size == 4)
		return f_bits(bits_f(a) * bits_f(b));
	return d_bits(bits_d(a) * bits_d(b));
}

static uint64_t
apply(const struct conf_type *t, enum fop op, uint64_t a, uint64_t b)
{
	switch (op) {
	case F_ADD: return op_add(t, a, b);
	case F_MIN: return op_min(t, a, b);
	case F_MAX: return op_max(t, a, b);
	case F_MUL: return op_mul(t, a, b);
	case F_AND: return a & b;
	case F_OR: return a | b;
	case F_XOR: return a ^ b;
	case F_AFFINE: return affine(a, b);
	}
	return 0;
}

static uint64_t
identity(const struct conf_type *t, enum fop op)
{
	switch (op) {
	case F_MIN: return min_identity(t);
	case F_MAX: return max_identity(t);
	case F_MUL: return t->kind == K_FLOAT ? (t->size == 4 ? f_bits(1.0f) : d_bits(1.0)) : 1;
	case F_AND: return mask_of(t);
	case F_AFFINE: return 1;
	default: return 0;
	}
}

/* OP over x[first .. end-1] in index order; the identity when empty. */
static uint64_t
fold(const struct conf_type *t, enum fop op, const uint64_t *x, size_t first, size_t end)
{
	uint64_t acc;

	if (end <= first)
		return identity(t, op);
	acc = x[first];
	for (size_t j = first + 1; j < end; j++)
		acc = apply(t, op, acc, x[j]);
	return acc;
}

struct inputs {
	uint64_t *s, *a, *m, *p, *q;
	int32_t *pr;
	uint32_t *args;
	uint32_t bsrc;
};

/* Where slot i sits: its lane, the first slot of its segment, its segment lane. */
struct place {
	size_t i, seg_base;
	uint64_t lane, seg_lane;
	unsigned w; /* logical width, at most W */
};

static struct place
place_of(size_t i, size_t group_items, unsigned warp, unsigned width)
{
	struct place pl;

	pl.i = i;
	pl.w = width < warp ? width : warp;
	pl.lane = (i % group_items) % warp;
	pl.seg_lane = pl.lane & (pl.w - 1);
	pl.seg_base = i - pl.seg_lane;
	return pl;
}

static const enum fop col_ops[4] = { F_ADD, F_MIN, F_MAX, F_MUL };
static const enum fop bit_ops[3] = { F_AND, F_OR, F_XOR };

static const uint64_t *
col_input(const struct inputs *in, unsigned k)
{
	return k == 0 ? in->a : k == 3 ? in->p : in->m;
}

static uint64_t
t_expected(const struct conf_type *t, unsigned f, const struct place *pl, unsigned warp,
	   const struct inputs *in)
{
	size_t i = pl->i, sb = pl->seg_base, se = pl->seg_base + pl->w;
	uint64_t d;

	switch (f) {
	case 0:
		return in->s[sb + (in->args[i * 4] & (pl->w - 1))];
	case 1:
		d = in->args[i * 4 + 1];
		return d < pl->w - pl->seg_lane ? in->s[i + d] : in->s[i];
	case 2:
		d = in->args[i * 4 + 2];
		return d <= pl->seg_lane ? in->s[i - d] : in->s[i];
	case 3:
		d = in->args[i * 4 + 3];
		return d < pl->w ? in->s[i - pl->lane + (pl->lane ^ d)] : in->s[i];
	case 4:
		return in->s[sb + (in->bsrc & (pl->w - 1))];
	case 17:
		return fold(t, F_MUL, in->p, i - pl->lane, i - pl->lane + warp);
	case 18:
		return fold(t, F_MUL, in->p, i - pl->lane, i);
	case 28:
		return fold(t, F_XOR, in->s, i - pl->lane, i - pl->lane + warp);
	case 29: return fold(t, F_AFFINE, in->s, sb, se);
	case 30: return fold(t, F_AFFINE, in->s, sb, i + 1);
	case 31: return fold(t, F_AFFINE, in->s, sb, i);
	case 32: return fold(t, F_AFFINE, in->s, i - pl->lane, i + 1);
	}
	if (f >= 5 && f < 17) {
		unsigned k = (f - 5) % 4, kind = (f - 5) / 4; /* 0 reduce, 1 inclusive, 2 exclusive */
		size_t end = kind == 0 ? se : kind == 1 ? i + 1 : i;
		return fold(t, col_ops[k], col_input(in, k), sb, end);
	}
	if (f >= 19 && f < 28) {
		unsigned k = (f - 19) % 3, kind = (f - 19) / 3;
		size_t end = kind == 0 ? se : kind == 1 ? i + 1 : i;
		return fold(t, bit_ops[k], in->s, sb, end);
	}
	return 0;
}

static uint64_t
bits_expected(const struct conf_type *t, unsigned f, const struct place *seg,
	      const struct place *whole, const struct inputs *in)
{
	const struct place *pl = f >= 6 ? whole : seg;
	uint64_t mask = 0, all = 1;
	uint64_t mine = in->q[pl->i] & mask_of(t);

	for (unsigned j = 0; j < pl->w; j++) {
		size_t k = pl->seg_base + j;
		switch (f) {
		case 0:
		case 6:
			mask |= (uint64_t)((in->q[k] & mask_of(t)) == mine) << j;
			break;
		case 1:
		case 7:
			all &= (in->q[k] & mask_of(t)) == (in->q[pl->seg_base] & mask_of(t));
			break;
		default:
			mask |= (uint64_t)(in->pr[k] != 0) << j;
			break;
		}
	}
	switch (f) {
	case 0: case 6: case 2: return mask;
	case 1: case 7: return all;
	case 3: return mask == (pl->w == 64 ? ~0ull : (1ull << pl->w) - 1);
	case 4: return mask != 0;
	default: return mask == 0; /* 5, 8 */
	}
}

/* ---------------------------------------------------------- inputs */

static void
gen(const struct conf_type *t, size_t n, unsigned warp, struct inputs *in)
{
	uint64_t mask = mask_of(t);
	int is_float = t->kind == K_FLOAT;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = rng();
		unsigned lane = (unsigned)(i % warp), warp_index = (unsigned)(i / warp);

		/* s: any bits (signalling NaNs, -0.0 and denormals for floats) */
		if (is_float && i % 7 == 3)
			in->s[i] = nan_bits(t, r, 1);
		else if (i % 11 == 0)
			in->s[i] = t->size == 4 ? 0x80000000ull : 0x8000000000000000ull;
		else
			in->s[i] = r & mask;
		if (t->size == 8 && t->kind == K_UINT && i % 5 == 0) /* affine maps: some with m = 1 */
			in->s[i] = (in->s[i] & ~0xffffffffull) | 1;

		/* a: sums exact in any order */
		r = rng();
		if (is_float)
			in->a[i] = t->size == 4 ? f_bits((float)((int32_t)(r % 65537u) - 32768) * 0.5f)
						: d_bits((double)((int64_t)(r % 65537u) - 32768) * 0.5);
		else
			in->a[i] = (uint64_t)((int64_t)(r % 2000001u) - 1000000) & mask;

		/* m: min/max inputs, never a zero; infinities and quiet NaNs for floats */
		r = rng();
		if (is_float && i % 29 == 1)
			in->m[i] = min_identity(t);
		else if (is_float && (i % 13 == 2 || warp_index == 3))
			in->m[i] = nan_bits(t, r, i % 2 ? 2 : 0);
		else if (is_float) {
			int64_t k = (int64_t)(r % 200001u) - 100000;
			if (k == 0)
				k = 1;
			in->m[i] = t->size == 4 ? f_bits((float)k * 0.25f) : d_bits((double)k * 0.25);
		} else if (i % 13 == 1)
			in->m[i] = max_identity(t);
		else
			in->m[i] = r & mask;

		/* p: products exact in any order and in range: +-1, +-2, 3, (0.5) */
		{
			int64_t v = (r >> 20) % 2 ? 1 : -1;
			if (lane % 16 == 1 || lane % 16 == 9)
				v *= 2;
			else if (lane % 16 == 5)
				v *= 3;
			if (is_float && lane % 16 == 13)
				in->p[i] = t->size == 4 ? f_bits(0.5f) : d_bits(0.5);
			else if (is_float)
				in->p[i] = t->size == 4 ? f_bits((float)v) : d_bits((double)v);
			else
				in->p[i] = (uint64_t)v & mask;
		}

		/* q: few distinct values; warp 1 is uniform (match_all), floats
		 * mix -0.0, +0.0 and one NaN */
		r = rng();
		if (warp_index == 1) {
			in->q[i] = is_float ? nan_bits(t, 5, 0) : 7;
		} else {
			static const uint64_t f32[4] = { 0x80000000ull, 0, 0x3f800000ull, 0x7fc00005ull };
			static const uint64_t f64[4] = { 0x8000000000000000ull, 0, 0x3ff0000000000000ull,
							 0x7ff8000000000005ull };
			unsigned k = (unsigned)(r % 4);
			in->q[i] = is_float ? (t->size == 4 ? f32[k] : f64[k]) : ((uint64_t)k - 1) & mask;
		}

		/* predicates: warp 1 all true, warp 2 all false, else random */
		in->pr[i] = warp_index == 1 ? 3 : warp_index == 2 ? 0 : (int32_t)(rng() % 3 == 0) * -5;

		in->args[i * 4 + 0] = (uint32_t)(rng() % (3 * warp + 1));
		in->args[i * 4 + 1] = i % 17 == 0 ? 0xffffffffu : (uint32_t)(rng() % (warp + 3));
		in->args[i * 4 + 2] = i % 19 == 0 ? 0x80000001u : (uint32_t)(rng() % (warp + 3));
		in->args[i * 4 + 3] = i % 23 == 0 ? 0xfffffffeu : (uint32_t)(rng() % (2 * warp + 1));
	}
}

/* ------------------------------------------------------------ runs */

static char *
kernel_path(void)
{
	char *path = malloc(4096);
	const char *root = getenv("CLWARP_SOURCE_ROOT");

	snprintf(path, 4096, "%s/tests/warp-ops.cl", root && *root ? root : ".");
	ck_assert_msg(access(path, R_OK) == 0, "%s not found: set CLWARP_SOURCE_ROOT", path);
	return path;
}

/* The default engine, or (backend, warp_size) forced when backend is not AUTO. */
static clwarp_engine *
engine_new(clwarp_backend backend, unsigned warp_size)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	const char *cache = getenv("CLWARP_CACHE_DIR");

	clwarp_engine_options_init(&o);
	o.backend = backend;
	o.warp_size = warp_size;
	if (cache && *cache)
		o.cache_dir = cache;
	else
		o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_OK, "engine: %s", clwarp_last_error());
	return e;
}

static cl_mem
buffer(clwarp_engine *e, size_t bytes, const void *data)
{
	cl_mem m = NULL;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, bytes, data, &m));
	return m;
}

static int
type_has_field(unsigned type, unsigned f)
{
	const struct conf_type *t = &conf_types[type];

	if (f < FIELDS_ALL_TYPES)
		return 1;
	if (f < FIELDS_INT)
		return t->kind != K_FLOAT;
	return t->size == 8 && t->kind == K_UINT; /* the user operator: ulong */
}

static int
same_bits(const struct conf_type *t, unsigned f, uint64_t want, uint64_t got)
{
	int minmax = f == 6 || f == 7 || f == 10 || f == 11 || f == 14 || f == 15;

	if (want == got)
		return 1;
	return minmax && is_nan(t, want) && is_nan(t, got);
}

static void
run_type(clwarp_engine *e, unsigned type, struct tally *tl)
{
	const struct conf_type *t = &conf_types[type];
	clwarp_backend backend;
	unsigned warp;
	char *path = kernel_path();
	char options[128];
	clwarp_program *prog = NULL;
	clwarp_kernel *k = NULL;
	clwarp_build_info info;
	clwarp_status st;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &warp));
	snprintf(options, sizeof(options), "-DCW_T=%s%s%s", t->name, t->kind != K_FLOAT ? " -DCW_INT" : "",
		 type_has_field(type, FIELD_USER_FIRST) ? " -DCW_USER_OP" : "");
	st = clwarp_program_build_file(e, path, options, &prog, &info);
	ck_assert_msg(st == CLWARP_OK, "building %s with %s: %s (%.1500s)\n%.2000s", path, options,
		      clwarp_status_to_str(st), clwarp_last_error(), info.log ? info.log : "");
	fprintf(stderr, "%s: built in %.0f ms (%s), backend %s, W = %u\n", t->name,
		info.milliseconds, clwarp_build_source_name(info.source), clwarp_backend_name(backend),
		warp);
	clwarp_build_info_clear(&info);
	ck_assert_clwarp_ok(clwarp_program_kernel(prog, "ops", &k));

	size_t local = 2 * (size_t)warp, n = 4 * (size_t)warp;
	struct inputs in;
	in.s = calloc(n, 8);
	in.a = calloc(n, 8);
	in.m = calloc(n, 8);
	in.p = calloc(n, 8);
	in.q = calloc(n, 8);
	in.pr = calloc(n, 4);
	in.args = calloc(n * 4, 4);
	void *host = calloc(n, t->size), *out = calloc(n * T_FIELDS, t->size);
	uint64_t *bits = calloc(n * BIT_FIELDS, 8);
	uint64_t *const inputs[5] = { in.s, in.a, in.m, in.p, in.q };
	cl_mem bin[5], bpr, bargs, bout, bbits;

	rng_seed(type * 7919u + warp);
	gen(t, n, warp, &in);
	for (unsigned j = 0; j < 5; j++) {
		pack(t, inputs[j], n, host);
		bin[j] = buffer(e, n * t->size, host);
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, j, bin[j]));
	}
	bpr = buffer(e, n * 4, in.pr);
	bargs = buffer(e, n * 16, in.args);
	bout = buffer(e, n * T_FIELDS * t->size, NULL);
	bbits = buffer(e, n * BIT_FIELDS * 8, NULL);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 5, bpr));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 6, bargs));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 9, bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 10, bbits));

	for (unsigned width = 1; width <= warp; width *= 2) {
		if (quick() && width != 1 && width != 4 && width != warp)
			continue;
		in.bsrc = width * 5 + 3;
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 7, sizeof(uint32_t), &in.bsrc));
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 8, sizeof(uint32_t), &width));
		/* poison the outputs: a field the kernel forgets cannot pass */
		memset(out, 0xa5, n * T_FIELDS * t->size);
		memset(bits, 0xa5, n * BIT_FIELDS * 8);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bout, 0, n * T_FIELDS * t->size, out));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bbits, 0, n * BIT_FIELDS * 8, bits));
		st = clwarp_kernel_launch(k, 1, &n, &local, NULL);
		ck_assert_msg(st == CLWARP_OK, "launch: %s", clwarp_last_error());
		ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, n * T_FIELDS * t->size, out));
		ck_assert_clwarp_ok(clwarp_buffer_read(e, bbits, 0, n * BIT_FIELDS * 8, bits));

		for (size_t i = 0; i < n; i++) {
			struct place seg = place_of(i, local, warp, width);
			struct place whole = place_of(i, local, warp, warp);

			for (unsigned f = 0; f < T_FIELDS; f++) {
				if (!type_has_field(type, f))
					continue;
				uint64_t want = t_expected(t, f, &seg, warp, &in) & mask_of(t);
				uint64_t got = unpack_one(t, out, f * n + i);
				tl->checked++;
				if (!same_bits(t, f, want, got))
					mismatch(tl, "%s W=%u width=%u slot %zu %s: got 0x%" PRIx64
						 ", want 0x%" PRIx64, t->name, warp, width, i, t_names[f],
						 got, want);
			}
			for (unsigned f = 0; f < BIT_FIELDS; f++) {
				uint64_t want = bits_expected(t, f, &seg, &whole, &in);
				uint64_t got = bits[f * n + i];
				tl->checked++;
				if (want != got)
					mismatch(tl, "%s W=%u width=%u slot %zu %s: got 0x%" PRIx64
						 ", want 0x%" PRIx64, t->name, warp, width, i, bit_names[f],
						 got, want);
			}
		}
	}

	for (unsigned j = 0; j < 5; j++)
		clReleaseMemObject(bin[j]);
	clReleaseMemObject(bpr);
	clReleaseMemObject(bargs);
	clReleaseMemObject(bout);
	clReleaseMemObject(bbits);
	for (unsigned j = 0; j < 5; j++)
		free(inputs[j]);
	free(in.pr);
	free(in.args);
	free(host);
	free(out);
	free(bits);
	clwarp_kernel_free(k);
	free(path);
}

START_TEST(test_widths_operators_match)
{
	clwarp_engine *e = engine_new(CLWARP_BACKEND_AUTO, 0);
	struct tally tl = { 0 };
	char what[64];

	if (_i == TYPE_DOUBLE && !clwarp_engine_device_info(e)->has_fp64) {
		/* asked of the device: no fp64 here, so no double kernels */
		fprintf(stderr, "double: the device has no fp64\n");
		clwarp_engine_free(e);
		return;
	}
	run_type(e, (unsigned)_i, &tl);
	snprintf(what, sizeof(what), "%s widths, operators, votes and match", conf_types[_i].name);
	tally_assert(&tl, what);
	clwarp_engine_free(e);
}
END_TEST

/* The local backend at the other widths of the issue (1, 8, 64): segment
 * masks at the 64-bit edge, one-lane warps. int and double cover the
 * 4- and 8-byte paths, integer and float operators. */
START_TEST(test_local_widths)
{
	static const unsigned widths[] = { 1, 8, 64 };
	static const unsigned types[] = { TYPE_INT, TYPE_DOUBLE };
	clwarp_engine *e = engine_new(CLWARP_BACKEND_LOCAL, widths[_i]);
	clwarp_backend backend;
	unsigned warp;
	char what[96];

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &warp));
	ck_assert_uint_eq(warp, widths[_i]);
	for (unsigned k = 0; k < 2; k++) {
		struct tally tl = { 0 };

		if (types[k] == TYPE_DOUBLE && !clwarp_engine_device_info(e)->has_fp64)
			continue; /* asked of the device: no fp64 kernels here */
		run_type(e, types[k], &tl);
		snprintf(what, sizeof(what), "local W=%u %s", widths[_i], conf_types[types[k]].name);
		tally_assert(&tl, what);
	}
	clwarp_engine_free(e);
}
END_TEST

static Suite *
warp_ops_suite(void)
{
	Suite *s = suite_create("warp-ops");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_widths_operators_match, 0, TYPE_COUNT);
	tcase_add_loop_test(tc, test_local_widths, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(warp_ops_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
