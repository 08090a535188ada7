/* The warp width of built kernels: kernels declared through macros get the
 * width pin, and a kernel the driver would run at another width is refused
 * before it runs, never run at the wrong width. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "engine.h"
#include "testutil.h"

enum { N = 128, LOCAL = 64 };

/* Every lane: its lane id * 1000 + the number of lanes in its warp. */
#define WIDTH_BODY \
	"{ uint i = get_global_id(0);\n" \
	"  out[i] = in[i] * 0 + (int)(warp_lane_id() * 1000u + warp_reduce_add(1u)); }\n"

/* Object-like macros for `kernel`, one through another, one from a header
 * style #ifdef, and the plain keyword. */
static const char macro_source[] =
	"#define KERNEL kernel\n"
	"#define __global__ __kernel\n"
	"#define ENTRY KERNEL\n"
	"#ifdef __OPENCL_VERSION__\n"
	"#define GUARDED __kernel\n"
	"#endif\n"
	"KERNEL void via_macro(global const int *in, global int *out)\n" WIDTH_BODY
	"__global__ void via_cuda_name(global const int *in, global int *out)\n" WIDTH_BODY
	"ENTRY void via_two_macros(global const int *in, global int *out)\n" WIDTH_BODY
	"GUARDED void via_guarded(global const int *in, global int *out)\n" WIDTH_BODY
	"kernel void plain(global const int *in, global int *out)\n" WIDTH_BODY;

static void
check_widths(clwarp_engine *e, clwarp_program *p, const char *name, unsigned w)
{
	int in[N] = { 0 }, *out;

	out = test_run_int_kernel(e, p, name, in, N, LOCAL);
	for (unsigned i = 0; i < N; i++)
		ck_assert_msg(out[i] == (int)((i % LOCAL % w) * 1000u + w),
			      "%s: work-item %u gave lane %d of a warp of %d, want lane %u of %u", name, i,
			      out[i] / 1000, out[i] % 1000, i % LOCAL % w, w);
	free(out);
}

START_TEST(test_macro_kernels)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	unsigned w;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, NULL, &w));
	ck_assert_clwarp_ok(clwarp_program_build_source(e, macro_source, "macros.cl", NULL, &p, NULL));
	check_widths(e, p, "via_macro", w);
	check_widths(e, p, "via_cuda_name", w);
	check_widths(e, p, "via_two_macros", w);
	check_widths(e, p, "via_guarded", w);
	check_widths(e, p, "plain", w);
	clwarp_engine_free(e);
}
END_TEST

/* Kernels declared the way code shared with the host declares them: the
 * rewrite follows the conditionals as the compiler takes them (the other
 * side of each defines the macro to nothing, or to `kernel` where that
 * side would turn a helper into a kernel), function-like macros (one
 * through another, one with ## and its arguments over lines, one an
 * object-like macro gives its arguments), an #undef and redefinition, -D
 * options (USE_E=2, KERNEL_O=__kernel), and a conditional the source does
 * not decide whose every side makes a kernel. */
static const char conditional_source[] =
	"#ifdef __OPENCL_VERSION__\n"
	"#define KERNEL_A __kernel\n"
	"#define HELPER\n"
	"#else\n"
	"#define KERNEL_A\n"
	"#define HELPER kernel\n"
	"#endif\n"
	"#if defined(HOST_BUILD)\n"
	"#define KERNEL_B\n"
	"#elif defined(__OPENCL_VERSION__) && !defined HOST_BUILD\n"
	"#define KERNEL_B kernel\n"
	"#else\n"
	"#define KERNEL_B\n"
	"#endif\n"
	"#ifndef __SHARED_H__ /* an include guard the compiler might define */\n"
	"#define __SHARED_H__\n"
	"#ifndef HOST_BUILD\n"
	"# if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)\n"
	"#  ifdef NO_SUCH_NAME\n"
	"#   define KERNEL_C\n"
	"#  elif CL_VERSION_1_2 >= 120 && (2 * 3 + 1) % 4 == 3\n"
	"#   define KERNEL_C __kernel\n"
	"#  else\n"
	"#   define KERNEL_C\n"
	"#  endif\n"
	"# else\n"
	"#  define KERNEL_C\n"
	"# endif\n"
	"#else\n"
	"# define KERNEL_C\n"
	"#endif\n"
	"#endif\n"
	"#define KERNEL_FN(name) __kernel void name\n"
	"#define KERNEL_ATTR(name) __attribute__((reqd_work_group_size(64, 1, 1))) kernel void name\n"
	"#define KERNEL_ALIAS KERNEL_FN\n"
	"#define NAMED_KERNEL KERNEL_FN(named)\n"
	"#define KERNEL_PASTE(name, suffix) kernel void name ## suffix\n"
	"#define KERNEL_D\n"
	"#undef KERNEL_D\n"
	"#define KERNEL_D kernel\n"
	"#define KERNEL_H kernel\n"
	"#undef KERNEL_H\n"
	"#define KERNEL_H\n"
	"#if USE_E > 1\n"
	"#define KERNEL_E __attribute__((reqd_work_group_size(64, 1, 1))) __kernel\n"
	"#else\n"
	"#define KERNEL_E\n"
	"#endif\n"
	"#if __OPENCL_VERSION__ >= 200\n"
	"#define KERNEL_U __attribute__((reqd_work_group_size(64, 1, 1))) __kernel\n"
	"#elif defined(__ENDIAN_LITTLE__)\n"
	"#define KERNEL_U kernel\n"
	"#else\n"
	"#define KERNEL_U KERNEL_D\n"
	"#endif\n"
	"typedef global int *out_ptr;\n"
	"HELPER int helper(int x) { return x * 0; }\n"
	"KERNEL_H int helper2(int x) { return x * 0; }\n"
	"KERNEL_A void cond_else(global const int *in, out_ptr out)\n" WIDTH_BODY
	"KERNEL_B /* a comment */ void cond_elif(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_C void nested(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_FN(function_like)(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_ATTR(with_attributes) (global const int *in,\n global int *out)\n" WIDTH_BODY
	"KERNEL_ALIAS(through_alias)(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_PASTE\n(\n  with, _paste)(global const int *in, global int *out)\n" WIDTH_BODY
	"NAMED_KERNEL(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_D void redefined(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_O void by_define(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_U void undecided_alike(global const int *in, global int *out)\n" WIDTH_BODY
	"KERNEL_E void by_option(global const int *in, global int *out)\n"
	"{ uint i = get_global_id(0);\n"
	"  out[i] = helper(in[i]) + helper2(in[i]) + (int)(warp_lane_id() * 1000u + warp_reduce_add(1u)); }\n";

static const char *const conditional_kernels[] = {
	"cond_else", "cond_elif", "nested", "function_like", "with_attributes", "through_alias",
	"with_paste", "named", "redefined", "by_define", "undecided_alike", "by_option",
};

START_TEST(test_conditional_kernels)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	unsigned w;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, NULL, &w));
	ck_assert_clwarp_ok(clwarp_program_build_source(e, conditional_source, "shared.cl",
							"-D USE_E=2 -DKERNEL_O=__kernel", &p, NULL));
	for (size_t i = 0; i < sizeof(conditional_kernels) / sizeof(conditional_kernels[0]); i++)
		check_widths(e, p, conditional_kernels[i], w);
	clwarp_engine_free(e);
}
END_TEST

/* Kernel macros the rewrite cannot follow are refused at the use, naming
 * the place: one that is a kernel on one side of a conditional the source
 * does not decide (the device's version), and one that holds the
 * parameter list. */
static const char undecided_source[] =
	"#if __OPENCL_VERSION__ >= 200\n"
	"#define KERNEL __kernel\n"
	"#else\n"
	"#define KERNEL\n"
	"#endif\n"
	"KERNEL void k(global int *out) { out[0] = 1; }\n";

static const char whole_source[] =
	"#define KERNEL_ALL(name) kernel void name(global int *out)\n"
	"KERNEL_ALL(k) { out[0] = 1; }\n";

static void
check_refused(clwarp_engine *e, const char *source, const char *want1, const char *want2)
{
	clwarp_program *p = NULL;

	ck_assert_int_eq(clwarp_program_build_source(e, source, "decl.cl", NULL, &p, NULL),
			 CLWARP_ERROR_BUILD);
	ck_assert_ptr_null(p);
	fprintf(stderr, "refused as it must be: %s\n", clwarp_last_error());
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), want1));
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), want2));
}

START_TEST(test_undecided_refused)
{
	clwarp_engine *e = test_engine(NULL);

	check_refused(e, undecided_source, "decl.cl:6: `KERNEL`", "conditional at decl.cl:1");
	check_refused(e, whole_source, "decl.cl:2: the kernel macro `KERNEL_ALL`", "parameter list");
	clwarp_engine_free(e);
}
END_TEST

/* A kernel whose `kernel` comes out of a function-like macro: the rewrite
 * does not see it, so it has no pin. Where the driver reports pins, it is
 * refused; elsewhere nothing can tell (docs/warp-api.md, "Warp widths"). */
static const char hidden_source[] =
	"#define ATTR(x) x\n"
	"ATTR(kernel) void hidden(global const int *in, global int *out)\n" WIDTH_BODY;

/* Kernels with their own pin, before and after `kernel`: a pin of the warp
 * width runs; another one either loses to the engine's pin (the driver then
 * reports W, and the lanes must say so) or is refused, naming its width. */
static const char own_pin_format[] =
	"__attribute__((intel_reqd_sub_group_size(%u))) kernel void own_before(global const int *in, global int *out)\n"
	WIDTH_BODY
	"kernel __attribute__((intel_reqd_sub_group_size(%u))) void own_after(global const int *in, global int *out)\n"
	WIDTH_BODY;

static void
check_own_pin(clwarp_engine *e, clwarp_program *p, const char *name, unsigned w, unsigned pin)
{
	clwarp_kernel *k = NULL;
	clwarp_status s = clwarp_kernel_new(p, name, &k);
	char want[64];

	if (s == CLWARP_OK) {
		clwarp_kernel_free(k);
		fprintf(stderr, "%s with its own pin %u: runs at the warp width %u\n", name, pin, w);
		check_widths(e, p, name, w);
		return;
	}
	ck_assert_int_eq(s, CLWARP_ERROR_WARP_CONTRACT);
	ck_assert_uint_ne(pin, w);
	fprintf(stderr, "refused as it must be: %s\n", clwarp_last_error());
	snprintf(want, sizeof(want), "sub-group width of %u", pin);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), want));
}

START_TEST(test_pins_checked)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	unsigned w;
	char source[1024];

	ck_assert_clwarp_ok(clwarp_engine_backend(e, NULL, &w));
	ck_assert_clwarp_ok(clwarp_program_build_source(e, "kernel void k(void) {}", "k.cl", NULL, &p, NULL));
	if (!p->config.pin_query || w < 2) {
		fprintf(stderr, "the %s backend: the driver does not report width pins (or W = %u): nothing to check\n",
			clwarp_backend_name(p->config.backend), w);
		clwarp_engine_free(e);
		return;
	}
	ck_assert_clwarp_ok(clwarp_program_build_source(e, hidden_source, "hidden.cl", NULL, &p, NULL));
	ck_assert_int_eq(clwarp_kernel_new(p, "hidden", &k), CLWARP_ERROR_WARP_CONTRACT);
	fprintf(stderr, "refused as it must be: %s\n", clwarp_last_error());
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "no sub-group width pin"));
	ck_assert_ptr_null(k);

	for (unsigned pin = w; pin >= w / 2; pin /= 2) {
		snprintf(source, sizeof(source), own_pin_format, pin, pin);
		ck_assert_clwarp_ok(clwarp_program_build_source(e, source, "own.cl", NULL, &p, NULL));
		check_own_pin(e, p, "own_before", w, pin);
		check_own_pin(e, p, "own_after", w, pin);
	}
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("width", &tc);

	tcase_add_test(tc, test_macro_kernels);
	tcase_add_test(tc, test_conditional_kernels);
	tcase_add_test(tc, test_undecided_refused);
	tcase_add_test(tc, test_pins_checked);
	return test_main(s);
}
