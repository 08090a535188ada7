/* Program tests on the real OpenCL runtime: builds from a string and from
 * files with includes, build errors and their log positions, missing files,
 * kernel lookup and arguments, warp helpers without a warp parameter. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <limits.h>

#include "buildlog.h"
#include "saxpy-kernel.h"
#include "testutil.h"

START_TEST(test_build_string_and_launch)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_build_info info;

	ck_assert_clwarp_ok(clwarp_program_build_source(e, saxpy_source, "saxpy.cl", NULL, &p, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_COMPILED);
	ck_assert(info.milliseconds > 0);
	clwarp_build_info_free(&info);
	ck_assert_uint_eq(clwarp_program_kernel_count(p), 1);
	ck_assert_str_eq(clwarp_program_kernel_name(p, 0), "saxpy");
	ck_assert_ptr_nonnull(clwarp_program_cl(p));
	check_saxpy(e, p, 1000, 3);
	check_saxpy(e, p, 1, -7);
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_build_file_with_includes)
{
	char *dir = test_tmpdir();
	char *path, inc_opt[4200];
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	int in[64], *out;

	/* common/scale.cl sits beside the file; offset.cl only in an -I folder. */
	free(test_write_file(dir, "src/common/scale.cl",
			     "#pragma once\n#include \"../twice.cl\"\n#define SCALE 3\n"));
	free(test_write_file(dir, "src/twice.cl", "int twice(int x) { return 2 * x; }\n"));
	free(test_write_file(dir, "inc/offset.cl", "#define OFFSET 11\n"));
	path = test_write_file(dir, "src/main.cl",
			       "#include \"common/scale.cl\"\n"
			       "#include \"common/scale.cl\" /* #pragma once: no redefinition */\n"
			       "#include \"offset.cl\"\n"
			       "kernel void f(global const int *in, global int *out)\n"
			       "{ size_t i = get_global_id(0); out[i] = twice(in[i]) * SCALE + OFFSET; }\n");
	snprintf(inc_opt, sizeof(inc_opt), "-I %s/inc", dir);
	ck_assert_clwarp_ok(clwarp_program_build_file(e, path, inc_opt, &p, NULL));
	for (int i = 0; i < 64; i++)
		in[i] = i - 20;
	out = test_run_int_kernel(e, p, "f", in, 64, 0);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(out[i], 2 * in[i] * 3 + 11);
	free(out);
	clwarp_engine_free(e);
	test_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_build_failure_names_user_line)
{
	char *dir = test_tmpdir();
	char *path;
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_build_info info;
	char where[4200];

	free(test_write_file(dir, "helper.cl", "int helper(int x)\n{\n\treturn x + ;\n}\n"));
	path = test_write_file(dir, "bad.cl",
			       "// a comment line\n"
			       "#include \"helper.cl\"\n"
			       "kernel void f(global int *o)\n"
			       "{\n"
			       "	o[0] = undeclared_thing;\n"
			       "}\n");
	ck_assert_int_eq(clwarp_program_build_file(e, path, NULL, &p, &info), CLWARP_ERROR_BUILD);
	ck_assert_ptr_null(p);
	ck_assert_ptr_nonnull(info.log);
	/* Both errors point into the user's files, with the user's line numbers. */
	snprintf(where, sizeof(where), "%s:5:", path);
	ck_assert_msg(strstr(info.log, where), "log lacks %s:\n%s", where, info.log);
	snprintf(where, sizeof(where), "%s/./helper.cl:3:", dir);
	if (!strstr(info.log, where))
		snprintf(where, sizeof(where), "%s/helper.cl:3:", dir);
	ck_assert_msg(strstr(info.log, where), "log lacks %s:\n%s", where, info.log);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), path));
	ck_assert_int_eq(info.cl_error, CL_BUILD_PROGRAM_FAILURE);
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
	test_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_build_missing_files)
{
	char *dir = test_tmpdir();
	char *path;
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;

	ck_assert_int_eq(clwarp_program_build_file(e, "/nonexistent/k.cl", NULL, &p, NULL),
			 CLWARP_ERROR_IO);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "/nonexistent/k.cl"));

	path = test_write_file(dir, "k.cl", "\n\n#include \"missing.cl\"\nkernel void f(void) {}\n");
	ck_assert_int_eq(clwarp_program_build_file(e, path, NULL, &p, NULL), CLWARP_ERROR_IO);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), ":3:"));
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "missing.cl"));
	free(path);

	path = test_write_file(dir, "loop.cl", "#include \"loop.cl\"\n");
	ck_assert_int_eq(clwarp_program_build_file(e, path, NULL, &p, NULL), CLWARP_ERROR_BUILD);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "cycle"));
	free(path);

	clwarp_engine_free(e);
	test_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_kernel_lookup_and_args)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	cl_mem big = NULL;
	int v = 1;

	ck_assert_clwarp_ok(clwarp_program_build_source(
		e, "kernel void alpha(global int *a) { a[0] = 1; }\n"
		   "kernel void beta(global int *a, int b) { a[0] = b; }\n",
		NULL, NULL, &p, NULL));
	ck_assert_uint_eq(clwarp_program_kernel_count(p), 2);
	ck_assert_ptr_null(clwarp_program_kernel_name(p, 2));
	ck_assert_int_eq(clwarp_kernel_new(p, "gamma", &k), CLWARP_ERROR_KERNEL_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "alpha"));
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "beta"));

	ck_assert_clwarp_ok(clwarp_kernel_new(p, "beta", &k));
	ck_assert_uint_eq(clwarp_kernel_arg_count(k), 2);
	ck_assert_int_eq(clwarp_kernel_set_arg_scalar(k, 2, sizeof(int), &v),
			 CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "2 arguments"));

	{
		size_t g = 10, l = 4;
		ck_assert_int_eq(clwarp_kernel_launch(k, 1, &g, &l, NULL), CLWARP_ERROR_INVALID_ARGUMENT);
		ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "not a multiple"));
		ck_assert_int_eq(clwarp_kernel_launch(k, 4, &g, NULL, NULL), CLWARP_ERROR_INVALID_ARGUMENT);
	}
	ck_assert_int_eq(clwarp_buffer_new(e, CL_MEM_READ_WRITE, SIZE_MAX / 2, NULL, &big),
			 CLWARP_ERROR_TOO_LARGE);
	ck_assert_ptr_null(big);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
}
END_TEST

/* Helpers that call warp functions with no warp parameter: the engine's
 * warp-context rewrite threads the scratch on the local backend. */
static const char *helpers_source =
	"int inner_sum(int v);\n"                             /* a prototype before the definition */
	"#define LANE_PLUS(v) ((v) + (int)warp_lane_id())\n" /* a macro that calls a warp function */
	"int shifted(int v) { return warp_shuffle_down(v, 1u); }\n"
	"int inner_sum(int v) { return warp_reduce_add(v); }\n"
	"int middle(int v) { return inner_sum(LANE_PLUS(v)) - shifted(v); }\n"
	"int top(int v) { return middle(v) * 2; }\n"         /* helper -> helper -> warp */
	"#if CLWARP_WARP_SIZE > 0\n"                         /* two definitions, one uses the warp */
	"int pick(void) { return 0; }\n"
	"int pick_of(int v) { return warp_broadcast(v, (uint)pick()); }\n"
	"#else\n"
	"int pick_of(int v) { return v; }\n"
	"#endif\n"
	"int plain(int v) { return v + 1; }\n"
	"int never_called(int v) { return warp_reduce_min(v); }\n"
	"int manual_max(CLWARP_WARP_PARAM, int v) { return warp_reduce_max(v) + pick_of(v); }\n"
	"int mixed(int v) { return manual_max(CLWARP_WARP_ARG, v) - warp_scan_inclusive_add(v); }\n"
	"uint votes(int v)\n"
	"{\n"
	"	return (uint)popcount(warp_ballot(v > 0)) + (warp_all(v > -1000) ? 100u : 0u) +\n"
	"	       (warp_any(v > 1000000) ? 1000u : 0u);\n"
	"}\n"
	"int shuffles(void);\n"
	"int misc(int v)\n"
	"{\n"
	"	return warp_shuffle(v, warp_lane_id() ^ 1u) + 10 * warp_shuffle_up(v, 2u) +\n"
	"	       100 * warp_shuffle_xor(v, 3u) - (int)warp_size();\n"
	"}\n"
	"#define IN size_t i = get_global_id(0); int v = in[i]\n"
	"#define FIELD(expr) out[i] = (expr)\n"
	"kernel void k_top(global const int *in, global int *out) { IN; FIELD(top(v)); }\n"
	"kernel void k_pick(global const int *in, global int *out) { IN; out[i] = pick_of(v) + plain(v); }\n"
	"kernel void k_mixed(global const int *in, global int *out) { IN; out[i] = mixed(v); }\n"
	"kernel void k_votes(global const int *in, global int *out) { IN; out[i] = (int)votes(v); }\n"
	"kernel void k_misc(global const int *in, global int *out) { IN; FIELD(misc(v)); }\n"
	/* a kernel called from a helper gets the scratch as its last argument */
	"kernel void k_callee(global const int *in, global int *out) { IN; out[i] = inner_sum(v) - 1; }\n"
	"void call_kernel(global const int *in, global int *out) { k_callee(in, out); }\n"
	"kernel void k_caller(global const int *in, global int *out) { call_kernel(in, out); }\n";

/* The host's answer for field `f` of work-item i (local size 64, warp width w). */
static int
helpers_reference(int f, const int *in, size_t i, unsigned w)
{
	size_t lane = i % 64 % w, base = i - lane;
	int sum = 0, lane_sum = 0, max = INT_MIN, prefix = 0, positive = 0, all = 1, any = 0;

	for (size_t l = 0; l < w; l++) {
		int v = in[base + l];

		sum += v;
		lane_sum += v + (int)l;
		max = v > max ? v : max;
		prefix += l <= lane ? v : 0;
		positive += v > 0;
		all &= v > -1000;
		any |= v > 1000000;
	}
	switch (f) {
	case 0: return (lane_sum - in[lane + 1 < w ? i + 1 : i]) * 2;
	case 1: return in[base] + in[i] + 1;
	case 2: return max + in[base] - prefix;
	case 3: return positive + (all ? 100 : 0) + (any ? 1000 : 0);
	case 5: return sum - 1;
	default:
		return in[base + ((lane ^ 1u) & (w - 1))] + 10 * in[lane >= 2 ? i - 2 : i] +
		       100 * in[(lane ^ 3u) < w ? base + (lane ^ 3u) : i] - (int)w;
	}
}

START_TEST(test_helpers_without_warp_param)
{
	static const char *const kernels[] = { "k_top", "k_pick", "k_mixed", "k_votes", "k_misc",
						"k_caller" };
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_build_info info;
	clwarp_backend backend;
	unsigned w = 0;
	const char *env = getenv("CLWARP_WARP_SIZE");
	int in[128];
	clwarp_status s;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &w));
	if (backend == CLWARP_BACKEND_LOCAL && env)
		ck_assert_uint_eq(w, (unsigned)atoi(env));
	ck_assert_uint_le(w, 64);
	s = clwarp_program_build_source(e, helpers_source, "helpers.cl", NULL, &p, &info);
	ck_assert_msg(s == CLWARP_OK, "%s\n%s", clwarp_last_error(), info.log ? info.log : "");
	clwarp_build_info_free(&info);
	for (int i = 0; i < 128; i++)
		in[i] = (i * 37 % 101) - 50;
	for (int f = 0; f < 6; f++) {
		int *out = test_run_int_kernel(e, p, kernels[f], in, 128, 64);

		for (size_t i = 0; i < 128; i++)
			ck_assert_msg(out[i] == helpers_reference(f, in, i, w),
				      "%s (W %u) item %zu: %d, expected %d", kernels[f], w, i, out[i],
				      helpers_reference(f, in, i, w));
		free(out);
	}
	clwarp_engine_free(e);
}
END_TEST

/* A warp-using function whose name a macro pastes cannot be rewritten: one
 * message with the user's file:line, on every backend. */
START_TEST(test_helper_with_pasted_name_fails)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_build_info info;

	ck_assert_int_eq(clwarp_program_build_source(e,
				"// helpers made by a macro\n"
				"#define DEF(T) T sum_##T(T v) { return warp_reduce_add(v); }\n"
				"DEF(int)\n"
				"kernel void k(global int *a) { a[0] = sum_int(a[0]); }\n",
				"pasted.cl", NULL, &p, &info),
			 CLWARP_ERROR_BUILD);
	ck_assert_ptr_null(p);
	ck_assert_msg(strncmp(clwarp_last_error(), "pasted.cl:2: function `sum_##T`", 31) == 0,
		      "%s", clwarp_last_error());
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "CLWARP_WARP_PARAM"));
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
}
END_TEST

/* NVIDIA's compiler ignores #line and reports "<kernel>:LINE:COL". */
START_TEST(test_build_log_positions_are_mapped)
{
	const char *text = "#define CLWARP 1\n"          /* 1 */
			   "#line 1 \"warp/local.cl\"\n"   /* 2 */
			   "int a;\n"                      /* 3 = local.cl:1 */
			   "#line 1 \"dir/user.cl\"\n"     /* 4 */
			   "kernel void f(void)\n"         /* 5 = user.cl:1 */
			   "{ x = 1; }\n";                 /* 6 = user.cl:2 */
	char *log = buildlog_remap("<kernel>:6:3: error: use of undeclared identifier 'x'\n"
				   "<kernel>:3:5: note: here\n"
				   "<kernel>:99:1: out of range stays\n"
				   "other.cl:6:1: already named\n",
				   text);

	ck_assert_str_eq(log, "dir/user.cl:2:3: error: use of undeclared identifier 'x'\n"
			      "warp/local.cl:1:5: note: here\n"
			      "<kernel>:99:1: out of range stays\n"
			      "other.cl:6:1: already named\n");
	free(log);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("program", &tc);

	tcase_add_test(tc, test_build_string_and_launch);
	tcase_add_test(tc, test_build_file_with_includes);
	tcase_add_test(tc, test_build_failure_names_user_line);
	tcase_add_test(tc, test_build_log_positions_are_mapped);
	tcase_add_test(tc, test_build_missing_files);
	tcase_add_test(tc, test_kernel_lookup_and_args);
	tcase_add_test(tc, test_helpers_without_warp_param);
	tcase_add_test(tc, test_helper_with_pasted_name_fails);
	return test_main(s);
}
