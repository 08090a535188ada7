/* <clwarp/cuda.h>'s block votes (__syncthreads_count/_and/_or) and C++
 * functional casts, against host counts and values, on every backend (the
 * engine's; local at W = 1, 16, 64 too for the votes). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "test-cuda.h"

/* Block shapes for test_block_votes: sizes that are not multiples of any
 * W among them, and 2-D ones (whose rows intel's sub-groups follow). */
static const size_t vote_shapes[][2] = {
	{ 1, 1 }, { 7, 1 }, { 32, 1 }, { 48, 1 }, { 64, 1 }, { 100, 1 }, { 256, 1 }, { 1024, 1 },
	{ 12, 4 }, { 5, 3 },
};

#define VOTE_PATTERNS 6

/* Pattern k's predicate for work-item t of a block of n, grid id g: none,
 * all (values other than 1), only the last, all but the first, a hash, odd t. */
static int
vote_pred(int k, size_t n, size_t t, size_t g)
{
	uint32_t h = (uint32_t)g * 2654435761u;

	switch (k) {
	case 0: return 0;
	case 1: return (int)(g % 5) + 1;
	case 2: return t == n - 1 ? -3 : 0;
	case 3: return t == 0 ? 0 : (int)(g % 3) - 4;
	case 4: return (h >> 13) & 1 ? (int)(g % 9) - 4 : 0;
	default: return (int)(t % 2);
	}
}

/* __syncthreads_count/_and/_or against a count of each block's
 * predicates, value by value, on every shape that fits the device and 3 or
 * 3 x 2 blocks, with the barrier each of them is. */
static void
check_block_votes(clwarp_engine *e, struct tally *tl)
{
	clwarp_program *prog = build_program(e, "cuda-block-votes.cl");
	size_t max_items = clwarp_engine_device_info(e)->max_work_group_size;
	clwarp_kernel *k = NULL;

	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "block_votes", &k));
	ck_assert_uint_eq(clwarp_kernel_arg_count(k), 2);	/* the scratch stays hidden */
	for (size_t s = 0; s < sizeof(vote_shapes) / sizeof(vote_shapes[0]); s++) {
		size_t bx = vote_shapes[s][0], by = vote_shapes[s][1], n = bx * by;
		unsigned dims = by > 1 ? 2 : 1;
		size_t gx = 3, gy = dims == 2 ? 2 : 1, blocks = gx * gy, items = blocks * n;
		size_t global[2] = { gx * bx, gy * by }, local[2] = { bx, by };
		int *pred, *out;
		cl_mem bp, bout;

		if (n > max_items) {
			fprintf(stderr, "block votes: a block of %zu x %zu is over the device's %zu; not run\n",
				bx, by, max_items);
			continue;
		}
		pred = malloc(items * sizeof(int));
		out = malloc(items * 5 * sizeof(int));
		bp = buffer(e, items * sizeof(int), NULL);
		bout = buffer(e, items * 5 * sizeof(int), NULL);
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bp));
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
		for (int pat = 0; pat < VOTE_PATTERNS; pat++) {
			for (size_t g = 0; g < items; g++)
				pred[g] = vote_pred(pat, n, g % n, g);
			ck_assert_clwarp_ok(clwarp_buffer_write(e, bp, 0, items * sizeof(int), pred));
			memset(out, 0xa5, items * 5 * sizeof(int));
			ck_assert_clwarp_ok(clwarp_buffer_write(e, bout, 0, items * 5 * sizeof(int), out));
			launch(k, dims, global, local);
			ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, items * 5 * sizeof(int), out));
			for (size_t g = 0; g < items; g++) {
				size_t first = g - g % n, c = 0;
				long want[5];

				for (size_t i = first; i < first + n; i++)
					c += pred[i] != 0;
				want[0] = (long)c;
				want[1] = c == n;
				want[2] = c != 0;
				want[3] = (long)c + 1000 * (long)(n - c);
				want[4] = (long)(first + n - 1 - g % n);
				for (int f = 0; f < 5; f++) {
					static const char *const names[] = { "__syncthreads_count", "__syncthreads_and",
						"__syncthreads_or", "two counts in a helper", "__shared__ across them" };

					tl->checked++;
					if (out[5 * g + f] != want[f])
						mismatch(tl, "block %zu x %zu, pattern %d, work-item %zu: %s gave %d, want %ld",
							 bx, by, pat, g, names[f], out[5 * g + f], want[f]);
				}
			}
		}
		clReleaseMemObject(bp);
		clReleaseMemObject(bout);
		free(pred);
		free(out);
	}
	clwarp_kernel_free(k);
}

START_TEST(test_block_votes)
{
	clwarp_engine *e = engine_new(forced_widths[_i]);
	struct tally tl = { 0 };
	clwarp_backend backend;
	unsigned W;
	char what[96];

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &W));
	check_block_votes(e, &tl);
	snprintf(what, sizeof(what), "__syncthreads_count/_and/_or on %s, W = %u", clwarp_backend_name(backend), W);
	tally_assert(&tl, what);
	clwarp_engine_free(e);
}
END_TEST

/* A program that names a block vote only in a #define or a -D option gets
 * the scratch too (khr and intel give it only where the text names one). */
START_TEST(test_block_votes_named_indirectly)
{
	static const char *const text[2] = {
		"#include <clwarp/cuda.h>\n#define ANY(p) __syncthreads_or(p)\n"
		"__global__ void k(global int *o) { o[threadIdx.x] = ANY(o[threadIdx.x]); }\n",
		"#include <clwarp/cuda.h>\n"
		"__global__ void k(global int *o) { o[threadIdx.x] = VOTE(o[threadIdx.x]); }\n",
	};
	static const char *const options[2] = { NULL, "-DVOTE=__syncthreads_count" };
	static const int want[2] = { 1, 2 };
	clwarp_engine *e = engine_new(0);
	size_t n = 8;

	for (int i = 0; i < 2; i++) {
		int v[8] = { 0, 0, 3, 0, 0, 0, -1, 0 };
		clwarp_program *prog = NULL;
		clwarp_kernel *k = NULL;
		clwarp_build_info info;
		clwarp_status st;
		cl_mem b;

		st = clwarp_program_build_source(e, text[i], "indirect.cl", options[i], &prog, &info);
		ck_assert_msg(st == CLWARP_OK, "%s\n%s", clwarp_last_error(), info.log ? info.log : "");
		clwarp_build_info_free(&info);
		ck_assert_clwarp_ok(clwarp_kernel_new(prog, "k", &k));
		ck_assert_uint_eq(clwarp_kernel_arg_count(k), 1);
		b = buffer(e, sizeof(v), v);
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, b));
		launch(k, 1, &n, &n);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, b, 0, sizeof(v), v));
		for (int j = 0; j < 8; j++)
			ck_assert_msg(v[j] == want[i], "program %d, work-item %d: got %d, want %d", i, j, v[j], want[i]);
		clReleaseMemObject(b);
		clwarp_kernel_free(k);
	}
	clwarp_engine_free(e);
}
END_TEST

/* C++ functional casts T(x), in the places the engine rewrites them to
 * (T)(x), next to parenthesized declarators that must stay; and a program
 * without <clwarp/cuda.h> gets no rewrite (its T(x) fails the build). No
 * double: llvmpipe has no fp64. */
START_TEST(test_functional_casts)
{
	static const char *const text =
		"#include <clwarp/cuda.h>\n"
		"__global__ void k(global int *o, global const float *f) {\n"
		"  int i = threadIdx.x, a[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };\n"
		"  int (*row)[3] = a;\n"
		"  int (x) = i;\n"
		"  float g = f[i];\n"
		"  o[4 * i + 0] = int(g) + 2 * int(-g) - unsigned(1);\n"
		"  o[4 * i + 1] = i > 1 ? int(g * 2.0f) : int(g) + row[1][x % 3];\n"
		"  o[4 * i + 2] = a[int(g > 2.0f)][int (1.5f)] + float(i) * 0.5f;\n"
		"  o[4 * i + 3] = -float(g) < 0.0f ? ulong(g) : long(g);\n"
		"}\n";
	static const float f[4] = { 1.75f, -2.5f, 3.25f, 7.5f };
	static const int a[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
	clwarp_engine *e = engine_new(0);
	clwarp_program *prog = NULL;
	clwarp_kernel *k = NULL;
	clwarp_build_info info;
	clwarp_status st;
	size_t n = 4;
	int out[16];
	cl_mem bo, bf;

	st = clwarp_program_build_source(e, text, "casts.cl", NULL, &prog, &info);
	ck_assert_msg(st == CLWARP_OK, "%s\n%s", clwarp_last_error(), info.log ? info.log : "");
	clwarp_build_info_free(&info);
	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "k", &k));
	bo = buffer(e, sizeof(out), NULL);
	bf = buffer(e, sizeof(f), f);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bo));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bf));
	launch(k, 1, &n, &n);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bo, 0, sizeof(out), out));
	for (int i = 0; i < 4; i++) {
		float g = f[i];
		int want[4] = {
			(int)((unsigned)((int)g + 2 * (int)-g) - 1u),
			i > 1 ? (int)(g * 2.0f) : (int)g + a[1][i % 3],
			(int)((float)a[g > 2.0f][1] + (float)i * 0.5f),
			(int)(-g < 0.0f ? (long)(unsigned long)g : (long)g),
		};

		for (int j = 0; j < 4; j++)
			ck_assert_msg(out[4 * i + j] == want[j], "work-item %d, value %d: got %d, want %d", i, j,
				      out[4 * i + j], want[j]);
	}
	clReleaseMemObject(bo);
	clReleaseMemObject(bf);
	clwarp_kernel_free(k);
	st = clwarp_program_build_source(e, "kernel void k(global int *o) { o[0] = int(2.5f); }\n",
					 "plain.cl", NULL, &prog, &info);
	ck_assert_int_eq(st, CLWARP_ERROR_BUILD);
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
}
END_TEST

void
cuda_add_block_tests(TCase *tc, bool (*wanted)(const char *name))
{
	if (wanted("test_block_votes_named_indirectly"))
		tcase_add_test(tc, test_block_votes_named_indirectly);
	if (wanted("test_block_votes"))
		tcase_add_loop_test(tc, test_block_votes, 0, FORCED_WIDTHS);
	if (wanted("test_functional_casts"))
		tcase_add_test(tc, test_functional_casts);
}
