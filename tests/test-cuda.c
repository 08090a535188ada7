/* <clwarp/cuda.h> against a host model of CUDA's rules (tests/cuda-semantics.h),
 * and that model against CUDA's own output where tests/data holds it. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>

#include "cuda-semantics.h"
#include "test-cuda.h"

/*
 * Every shuffle (the _sync forms and the ones before CUDA 9) with every
 * operand of the table at every width 1 .. 32 and without one, every vote,
 * mask, reduction and block count under every pattern, and the
 * execution-model names on a 3-D launch; on the engine's backend, and on
 * local at W = 1, 16 and 64 too (the model says what CUDA's rules mean on a
 * warp of W lanes: operands keep their low log2(W) bits as PTX keeps 5).
 *
 * The model is checked against tests/data/cuda-semantics.txt, the output
 * of tests/cuda-semantics.cu on an NVIDIA GPU, when that file exists;
 * without it test_model_vs_cuda says so and checks nothing.
 *
 * test-cuda-block.c adds the block votes on blocks of every size and shape,
 * and the C++ functional casts.
 *
 * Environment: CLWARP_BACKEND, CLWARP_SOURCE_ROOT, CLWARP_TEST_DATA.
 */

#define SHFL_FIELDS 16

static void
check_shuffles(clwarp_engine *e, clwarp_program *prog, unsigned W, struct tally *tl)
{
	clwarp_kernel *k = NULL;
	int v[CS_N], out[SHFL_FIELDS * CS_N];
	size_t n = CS_N;
	cl_mem bv, bout;

	for (int i = 0; i < CS_N; i++)
		v[i] = cs_value(i);
	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "shuffles", &k));
	bv = buffer(e, sizeof(v), v);
	bout = buffer(e, sizeof(out), NULL);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bv));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 4, bout));
	for (int w = 0; w < CS_WIDTHS; w++) {
		for (int a = 0; a < CS_ARGS; a++) {
			int width = cs_widths[w];

			ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 1, sizeof(int), &cs_args[a].a));
			ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 2, sizeof(int), &cs_args[a].b));
			ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 3, sizeof(int), &width));
			memset(out, 0xa5, sizeof(out));	/* a field the kernel forgets cannot pass */
			ck_assert_clwarp_ok(clwarp_buffer_write(e, bout, 0, sizeof(out), out));
			launch(k, 1, &n, &n);
			ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, sizeof(out), out));
			for (int f = 0; f < SHFL_FIELDS; f++) {
				enum cs_shfl op = (enum cs_shfl)((f % 8) / 2);
				int fw = f % 2 ? width : 0;

				for (int i = 0; i < CS_N; i++) {
					int arg = cs_args[a].a + cs_args[a].b * (i % (int)W);
					int want = cs_shfl_model(op, (int)W, i, arg, fw);

					tl->checked++;
					if (out[f * CS_N + i] != want)
						mismatch(tl, "W=%u %s%s(a=%d b=%d%s%d) thread %d: got %d, want %d",
							 W, f >= 8 ? "old " : "", cs_shfl_names[op],
							 cs_args[a].a, cs_args[a].b, f % 2 ? " width=" : "",
							 f % 2 ? width : 0, i, out[f * CS_N + i], want);
				}
			}
		}
	}
	clReleaseMemObject(bv);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
}

static void
check_votes(clwarp_engine *e, clwarp_program *prog, unsigned W, struct tally *tl)
{
	clwarp_kernel *k = NULL;
	int p[CS_N], x[CS_N];
	unsigned u[CS_N];
	int64_t out[CS_VOTE_FIELDS * CS_N];
	size_t n = CS_N;
	cl_mem bp, bx, bu, bout;

	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "votes", &k));
	bp = buffer(e, sizeof(p), NULL);
	bx = buffer(e, sizeof(x), NULL);
	bu = buffer(e, sizeof(u), NULL);
	bout = buffer(e, sizeof(out), NULL);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bp));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bx));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 2, bu));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 3, bout));
	for (int pat = 0; pat < CS_PATTERNS; pat++) {
		for (int i = 0; i < CS_N; i++) {
			p[i] = cs_pred(pat, i);
			x[i] = cs_x(pat, i);
			u[i] = cs_u(pat, i);
		}
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bp, 0, sizeof(p), p));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bx, 0, sizeof(x), x));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bu, 0, sizeof(u), u));
		memset(out, 0xa5, sizeof(out));
		ck_assert_clwarp_ok(clwarp_buffer_write(e, bout, 0, sizeof(out), out));
		launch(k, 1, &n, &n);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, sizeof(out), out));
		for (int f = 0; f < CS_VOTE_FIELDS; f++) {
			for (int i = 0; i < CS_N; i++) {
				int64_t want = cs_vote_model(f, (int)W, pat, i), got = out[f * CS_N + i];

				tl->checked++;
				if (cs_vote_fields[f].is_bool ? (got != 0) != (want != 0) : got != want)
					mismatch(tl, "W=%u %s pattern %d thread %d: got %" PRId64 ", want %" PRId64,
						 W, cs_vote_fields[f].name, pat, i, got, want);
			}
		}
	}
	clReleaseMemObject(bp);
	clReleaseMemObject(bx);
	clReleaseMemObject(bu);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
}

/* threadIdx, blockIdx, blockDim, gridDim on a 3-D launch of 2 x 2 x 2
 * groups of 8 x 4 x 2, and __shared__ through __syncthreads. */
static void
check_names(clwarp_engine *e, clwarp_program *prog, struct tally *tl)
{
	static const size_t local[3] = { 8, 4, 2 }, groups[3] = { 2, 2, 2 };
	size_t global[3] = { 16, 8, 4 }, items = 512, per_group = 64;
	uint32_t *out = calloc(items * 12, 4), *mirror = calloc(items, 4);
	clwarp_kernel *k = NULL;
	cl_mem bout, bmirror;

	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "names", &k));
	bout = buffer(e, items * 12 * 4, NULL);
	bmirror = buffer(e, items * 4, NULL);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bmirror));
	launch(k, 3, global, local);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, items * 12 * 4, out));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bmirror, 0, items * 4, mirror));
	for (size_t z = 0; z < global[2]; z++) {
		for (size_t y = 0; y < global[1]; y++) {
			for (size_t x = 0; x < global[0]; x++) {
				size_t id[3] = { x, y, z }, want[12];
				size_t t = x % 8 + 8 * (y % 4 + 4 * (z % 2));
				size_t blk = x / 8 + 2 * (y / 4 + 2 * (z / 2));
				size_t g = blk * per_group + t;

				for (int d = 0; d < 3; d++) {
					want[d] = id[d] % local[d];
					want[3 + d] = id[d] / local[d];
					want[6 + d] = local[d];
					want[9 + d] = groups[d];
				}
				for (int f = 0; f < 12; f++) {
					tl->checked++;
					if (out[g * 12 + f] != want[f])
						mismatch(tl, "names: work-item (%zu,%zu,%zu) field %d: got %u, want %zu",
							 x, y, z, f, out[g * 12 + f], want[f]);
				}
				tl->checked++;
				if (mirror[g] != blk * per_group + per_group - 1 - t)
					mismatch(tl, "__shared__ after __syncthreads: work-item (%zu,%zu,%zu): got %u, want %zu",
						 x, y, z, mirror[g], blk * per_group + per_group - 1 - t);
			}
		}
	}
	clReleaseMemObject(bout);
	clReleaseMemObject(bmirror);
	clwarp_kernel_free(k);
	free(out);
	free(mirror);
}

START_TEST(test_header_vs_model)
{
	clwarp_engine *e = engine_new(forced_widths[_i]);
	struct tally tl = { 0 };
	clwarp_backend backend;
	unsigned W;
	char what[96];
	clwarp_program *prog;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &W));
	prog = build_program(e, "cuda-semantics.cl");
	check_shuffles(e, prog, W, &tl);
	check_votes(e, prog, W, &tl);
	prog = build_program(e, "cuda-names.cl");
	check_names(e, prog, &tl);
	snprintf(what, sizeof(what), "<clwarp/cuda.h> on %s, W = %u", clwarp_backend_name(backend), W);
	tally_assert(&tl, what);
	clwarp_engine_free(e);
}
END_TEST

/* A constant mask that leaves lanes out fails the build, where the compiler
 * has diagnose_if; a full one (0xffffffff, -1, __activemask()) and a
 * run-time one build, and so do the qualifiers' usual orders. */
START_TEST(test_mask_check)
{
	static const char *const full =
		"#include <clwarp/cuda.h>\n"
		"#if !defined(__has_attribute)\n#error no diagnose_if\n#elif !__has_attribute(diagnose_if)\n"
		"#error no diagnose_if\n#endif\n"
		"static __device__ int one(int x);\n"
		"__host__ __device__ static inline int two(int x) { return one(x) + 1; }\n"
		"static __device__ int one(int x) { return x; }\n"
		"__global__ void k(global int *o, unsigned m) {\n"
		"  int x = o[threadIdx.x];\n"
		"  x = __shfl_sync(0xffffffff, x, 1) + __shfl_xor_sync(-1, x, 1, 8) + __shfl_up(x, 1);\n"
		"  x += __ballot_sync(__activemask(), x > 3) + __any_sync(m, x);\n"
		"  __syncwarp(); __syncwarp(0xffffffffu);\n"
		"  o[threadIdx.x] = two(x);\n"
		"}\n";
	static const char *const partial =
		"#include <clwarp/cuda.h>\n"
		"__global__ void k(global int *o) {\n"
		"  o[threadIdx.x] = __shfl_down_sync((1u << (warpSize / 2)) - 1u, o[threadIdx.x], 1);\n"
		"}\n";
	clwarp_engine *e = engine_new(0);
	clwarp_program *prog = NULL;
	clwarp_build_info info;
	clwarp_status st;

	st = clwarp_program_build_source(e, full, "full.cl", NULL, &prog, &info);
	if (st != CLWARP_OK && info.log && strstr(info.log, "no diagnose_if")) {
		fprintf(stderr, "the compiler has no diagnose_if: constant masks are not checked here\n");
		clwarp_build_info_free(&info);
		clwarp_engine_free(e);
		return;
	}
	ck_assert_msg(st == CLWARP_OK, "full masks: %s\n%s", clwarp_last_error(), info.log ? info.log : "");
	clwarp_build_info_free(&info);
	/* Half the warp's lanes (W >= 2): the low W/2 bits. At W = 1 there is
	 * no partial mask to give. */
	if (warpSize_of(e) >= 2) {
		st = clwarp_program_build_source(e, partial, "partial.cl", NULL, &prog, &info);
		ck_assert_int_eq(st, CLWARP_ERROR_BUILD);
		fprintf(stderr, "a constant partial mask failed the build, as it must (the compiler's error above)\n");
		ck_assert_msg(strstr(clwarp_last_error(), "a lane mask that leaves out lanes of the warp") ||
			      (info.log && strstr(info.log, "a lane mask that leaves out lanes of the warp")),
			      "no mask message: %s\n%s", clwarp_last_error(), info.log ? info.log : "");
		clwarp_build_info_free(&info);
	}
	clwarp_engine_free(e);
}
END_TEST

/* A kernel that reaches the warp only through <clwarp/cuda.h>'s macros
 * keeps the warp contract: a work-group of 1.5 warps is refused before the
 * launch, as for warp_* calls, and a whole number of warps runs. */
START_TEST(test_contract_through_macros)
{
	static const char *const src =
		"#include <clwarp/cuda.h>\n"
		"__global__ void k(global unsigned *o) {\n"
		"  o[blockIdx.x * blockDim.x + threadIdx.x] = __popc(__ballot_sync(0xffffffffu, 1));\n"
		"}\n";
	clwarp_engine *e = engine_new(0);
	clwarp_program *prog = NULL;
	clwarp_kernel *k = NULL;
	cl_mem buf = NULL;
	unsigned w = warpSize_of(e), out[256];
	size_t global = 4 * (size_t)w, local = 2 * (size_t)w;

	ck_assert_msg(clwarp_program_build_source(e, src, "macros.cl", NULL, &prog, NULL) == CLWARP_OK,
		      "build: %s", clwarp_last_error());
	ck_assert_int_eq(clwarp_kernel_new(prog, "k", &k), CLWARP_OK);
	ck_assert_int_eq(clwarp_buffer_new(e, CL_MEM_READ_WRITE, sizeof(out), NULL, &buf), CLWARP_OK);
	ck_assert_int_eq(clwarp_kernel_set_arg_buffer(k, 0, buf), CLWARP_OK);
	if (w >= 2) {
		size_t bad = 3 * (size_t)w / 2, bad_global = 2 * bad;

		ck_assert_int_eq(clwarp_kernel_launch(k, 1, &bad_global, &bad, NULL), CLWARP_ERROR_WARP_CONTRACT);
		ck_assert_msg(strstr(clwarp_last_error(), "not a multiple of the warp size"), "%s",
			      clwarp_last_error());
	}
	ck_assert_msg(clwarp_kernel_launch(k, 1, &global, &local, NULL) == CLWARP_OK, "launch: %s",
		      clwarp_last_error());
	ck_assert_int_eq(clwarp_buffer_read(e, buf, 0, global * sizeof(unsigned), out), CLWARP_OK);
	for (size_t i = 0; i < global; i++)
		ck_assert_msg(out[i] == (w < 32 ? w : 32), "lane %zu: %u lanes voted, the warp has %u", i,
			      out[i], w);
	clReleaseMemObject(buf);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
}
END_TEST

/* Values of one line "shfl OP a b width: v..." or "vote FIELD k: v...". */
static int
parse_values(const char *text, int64_t *values)
{
	const char *p = strchr(text, ':');
	int count = 0;

	for (p = p ? p + 1 : text + strlen(text); *p && count < CS_N;) {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p)
			break;
		values[count++] = v;
		p = end;
	}
	return count;
}

START_TEST(test_model_vs_cuda)
{
	const char *dir = getenv("CLWARP_TEST_DATA");
	char path[4096], line[4096], name[64];
	struct tally tl = { 0 };
	unsigned shfl_lines = 0, vote_lines = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cuda-semantics.txt", dir && *dir ? dir : "tests/data");
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s not found: the host model is NOT checked against CUDA here "
			"(tests/cuda-semantics.cu says how to make it on a GPU)\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		int64_t got[CS_N];
		int a, b, width, k, op = -1, field = -1;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		ck_assert_msg(parse_values(line, got) == CS_N, "%s: not %d values: %.80s", path, CS_N, line);
		if (sscanf(line, "shfl %63s %d %d %d:", name, &a, &b, &width) == 4) {
			for (int o = 0; o < CS_SHFL_OPS; o++)
				op = strcmp(name, cs_shfl_names[o]) == 0 ? o : op;
			ck_assert_msg(op >= 0, "%s: unknown shuffle %s", path, name);
			shfl_lines++;
			for (int i = 0; i < CS_N; i++) {
				int want = cs_shfl_model((enum cs_shfl)op, 32, i, a + b * (i % 32), width);

				tl.checked++;
				if (got[i] != want)
					mismatch(&tl, "CUDA %s(a=%d b=%d width=%d) thread %d: CUDA %" PRId64
						 ", the model %d", name, a, b, width, i, got[i], want);
			}
		} else if (sscanf(line, "vote %63s %d:", name, &k) == 2) {
			for (int o = 0; o < CS_VOTE_FIELDS; o++)
				field = strcmp(name, cs_vote_fields[o].name) == 0 ? o : field;
			ck_assert_msg(field >= 0 && k >= 0 && k < CS_PATTERNS, "%s: unknown line %.80s", path, line);
			vote_lines++;
			for (int i = 0; i < CS_N; i++) {
				int64_t want = cs_vote_model(field, 32, k, i);

				tl.checked++;
				if (cs_vote_fields[field].is_bool ? (got[i] != 0) != (want != 0) : got[i] != want)
					mismatch(&tl, "CUDA %s pattern %d thread %d: CUDA %" PRId64 ", the model %" PRId64,
						 name, k, i, got[i], want);
			}
		} else {
			ck_abort_msg("%s: unknown line %.80s", path, line);
		}
	}
	fclose(f);
	/* Every row of the table, so that a cut-off file cannot pass. */
	ck_assert_uint_eq(shfl_lines, CS_WIDTHS * CS_ARGS * CS_SHFL_OPS);
	ck_assert_uint_eq(vote_lines, CS_PATTERNS * CS_CUDA_VOTE_FIELDS);
	fprintf(stderr, "%s: the host model checked against CUDA's output\n", path);
	tally_assert(&tl, "the model against CUDA");
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("cuda", &tc);

	tcase_set_timeout(tc, 600);
	if (test_wanted("test_mask_check"))
		tcase_add_test(tc, test_mask_check);
	if (test_wanted("test_contract_through_macros"))
		tcase_add_test(tc, test_contract_through_macros);
	if (test_wanted("test_model_vs_cuda"))
		tcase_add_test(tc, test_model_vs_cuda);
	if (test_wanted("test_header_vs_model"))
		tcase_add_loop_test(tc, test_header_vs_model, 0, FORCED_WIDTHS);
	cuda_add_block_tests(tc, test_wanted);
	cuda_add_port_tests(tc, test_wanted);
	return test_main(s);
}
