/* Tests for the warp-context rewrite: program text in, program text (or one message) out. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check-main.h"
#include "warpctx.h"

/* The rewrite of `in` in one mode (warpctx.h). */
static char *
rewrite(const char *in, enum warpctx_mode mode, clwarp_status expect)
{
	struct strbuf sb = { 0 };
	clwarp_status s;

	strbuf_puts(&sb, in);
	s = warpctx_rewrite(&sb, "main.cl", mode);
	ck_assert_msg(s == expect, "status %d, expected %d: %s", s, expect, clwarp_last_error());
	return strbuf_steal(&sb);
}

static size_t
newlines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The output on local, the same on khr and intel with a scratch (text
 * without CLWARP_DEFINE_WARP_OP), the input when only checked, and every
 * line kept. */
static void
check_rewrite(const char *in, const char *expect)
{
	char *out = rewrite(in, WARPCTX_LOCAL, CLWARP_OK);

	ck_assert_str_eq(out, expect);
	ck_assert_uint_eq(newlines(out), newlines(in));
	free(out);
	if (!strstr(in, "CLWARP_DEFINE_WARP_OP")) {
		out = rewrite(in, WARPCTX_SCRATCH, CLWARP_OK);
		ck_assert_str_eq(out, expect);
		free(out);
	}
	out = rewrite(in, WARPCTX_CHECK, CLWARP_OK);
	ck_assert_str_eq(out, in);
	free(out);
}

/* Fails on every backend with exactly this message. */
static void
check_error(const char *in, const char *message)
{
	for (int mode = WARPCTX_CHECK; mode <= WARPCTX_SCRATCH; mode++) {
		free(rewrite(in, (enum warpctx_mode)mode, CLWARP_ERROR_BUILD));
		ck_assert_str_eq(clwarp_last_error(), message);
	}
}

#define P "local ulong *__clwarp_scratch"

START_TEST(test_nested_helpers_and_prototypes)
{
	check_rewrite("float inner(float x);\n"
		      "float middle(float x) { return inner(x) * 2.0f; }\n"
		      "float inner(float x)\n"
		      "{\n"
		      "\treturn warp_reduce_add(x);\n"
		      "}\n"
		      "uint lane(void) { return warp_lane_id(); }\n"
		      "uint lane2() { return lane(); }\n"
		      "uint lane3( void ) { return lane2( ); }\n"
		      "kernel void k(global float *a, " P ")\n"
		      "{\n"
		      "\ta[0] = middle(a[0]) + lane3();\n"
		      "}\n",
		      "float inner(" P ", float x);\n"
		      "float middle(" P ", float x) { return inner(__clwarp_scratch, x) * 2.0f; }\n"
		      "float inner(" P ", float x)\n"
		      "{\n"
		      "\treturn warp_reduce_add(x);\n"
		      "}\n"
		      "uint lane(" P ") { return warp_lane_id(); }\n"
		      "uint lane2(" P ") { return lane(__clwarp_scratch); }\n"
		      "uint lane3( " P " ) { return lane2(__clwarp_scratch ); }\n"
		      "kernel void k(global float *a, " P ")\n"
		      "{\n"
		      "\ta[0] = middle(__clwarp_scratch, a[0]) + lane3(__clwarp_scratch);\n"
		      "}\n");
}
END_TEST

START_TEST(test_multiline_declarator)
{
	check_rewrite("float f(\n"
		      "\tfloat x,\n"
		      "\tfloat y)\n"
		      "{ return warp_shuffle(x, 1u) + y; }\n"
		      "float g(\n"
		      "void\n"
		      ") { return f(\n"
		      "1.0f, 2.0f); }\n",
		      "float f(" P ", \n"
		      "\tfloat x,\n"
		      "\tfloat y)\n"
		      "{ return warp_shuffle(x, 1u) + y; }\n"
		      "float g(\n"
		      P "\n"
		      ") { return f(__clwarp_scratch, \n"
		      "1.0f, 2.0f); }\n");
}
END_TEST

START_TEST(test_macros)
{
	check_rewrite("#define SUM(x) warp_reduce_add(x)\n"
		      "#define LANE warp_lane_id()\n"
		      "#define TWICE(x) (helper(x) + \\\n"
		      "\thelper(x))\n"
		      "#define PLAIN(x) ((x) + 1)\n"
		      "float helper(float x) { return SUM(x); }\n"
		      "uint via_object(void) { return LANE; }\n"
		      "float via_macro(float x) { return TWICE(x); }\n"
		      "float plain(float x) { return PLAIN(x); }\n",
		      "#define SUM(x) warp_reduce_add(x)\n"
		      "#define LANE warp_lane_id()\n"
		      "#define TWICE(x) (helper(__clwarp_scratch, x) + \\\n"
		      "\thelper(__clwarp_scratch, x))\n"
		      "#define PLAIN(x) ((x) + 1)\n"
		      "float helper(" P ", float x) { return SUM(x); }\n"
		      "uint via_object(" P ") { return LANE; }\n"
		      "float via_macro(" P ", float x) { return TWICE(x); }\n"
		      "float plain(float x) { return PLAIN(x); }\n");
}
END_TEST

START_TEST(test_macro_statements_are_calls)
{
	/* Inside a #define, `helper(x);` after a statement is a call, not a prototype. */
	check_rewrite("#define DO(x) do { helper(x); } while (0)\n"
		      "#define RET(x) return helper(x);\n"
		      "#define PROTO float helper(float);\n"
		      "#define DEFN float helper(float x) { return warp_reduce_add(x); }\n"
		      "PROTO\n"
		      "DEFN\n"
		      "void user(float x) { DO(x); }\n",
		      "#define DO(x) do { helper(__clwarp_scratch, x); } while (0)\n"
		      "#define RET(x) return helper(__clwarp_scratch, x);\n"
		      "#define PROTO float helper(" P ", float);\n"
		      "#define DEFN float helper(" P ", float x) { return warp_reduce_add(x); }\n"
		      "PROTO\n"
		      "DEFN\n"
		      "void user(" P ", float x) { DO(x); }\n");
}
END_TEST

START_TEST(test_conditional_definitions)
{
	/* Two definitions under #if/#else: the union by name decides for both. */
	check_rewrite("#if CLWARP_WARP_SIZE == 32\n"
		      "int pick(int x) { return x; }\n"
		      "#else\n"
		      "int pick(int x) { return warp_broadcast(x, 0u); }\n"
		      "#endif\n"
		      "int user(int x) { return pick(x); }\n",
		      "#if CLWARP_WARP_SIZE == 32\n"
		      "int pick(" P ", int x) { return x; }\n"
		      "#else\n"
		      "int pick(" P ", int x) { return warp_broadcast(x, 0u); }\n"
		      "#endif\n"
		      "int user(" P ", int x) { return pick(__clwarp_scratch, x); }\n");
}
END_TEST

START_TEST(test_unused_and_hand_threaded)
{
	check_rewrite("int unused(int x) { return x + 1; }\n"
		      "float manual(CLWARP_WARP_PARAM, float x) { return warp_shuffle(x, 0u); }\n"
		      "float manual2(float x, local ulong *__clwarp_scratch) { return warp_any(x > 0.0f); }\n"
		      "float auto_(float x) { return manual(CLWARP_WARP_ARG, x) + unused(1); }\n"
		      "kernel void k(global float *a, " P ")\n"
		      "{ a[0] = manual(CLWARP_WARP_ARG, auto_(a[0])) + manual2(a[1], __clwarp_scratch) + unused(2); }\n",
		      "int unused(int x) { return x + 1; }\n"
		      "float manual(CLWARP_WARP_PARAM, float x) { return warp_shuffle(x, 0u); }\n"
		      "float manual2(float x, local ulong *__clwarp_scratch) { return warp_any(x > 0.0f); }\n"
		      "float auto_(" P ", float x) { return manual(CLWARP_WARP_ARG, x) + unused(1); }\n"
		      "kernel void k(global float *a, " P ")\n"
		      "{ a[0] = manual(CLWARP_WARP_ARG, auto_(__clwarp_scratch, a[0])) + manual2(a[1], __clwarp_scratch) + unused(2); }\n");
}
END_TEST

START_TEST(test_overloads)
{
	check_rewrite("__attribute__((overloadable)) float ov(float x) { return warp_reduce_max(x); }\n"
		      "__attribute__((overloadable)) int ov(int x) { return x; }\n"
		      "int user(int a, float b) { return ov(a) + (int)ov(b); }\n",
		      "__attribute__((overloadable)) float ov(" P ", float x) { return warp_reduce_max(x); }\n"
		      "__attribute__((overloadable)) int ov(" P ", int x) { return x; }\n"
		      "int user(" P ", int a, float b) { return ov(__clwarp_scratch, a) + (int)ov(__clwarp_scratch, b); }\n");
}
END_TEST

START_TEST(test_comments_and_strings)
{
	check_rewrite("/* warp_shuffle(x) in a comment,\n"
		      "   over two lines */\n"
		      "int a(int x) { return x; } // warp_ballot(1)\n"
		      "int b(int x) { printf(\"warp_any(%d)\\n\", x); return 'w' + x; }\n"
		      "#pragma warp_reduce_add\n"
		      "#ifdef warp_all\n"
		      "#endif\n"
		      "struct s { int warp_field; };\n"
		      "int c(struct s v) { return v.warp_field + a(1); }\n"
		      "int d(int x) { return /* warp_any */ b(x); }\n",
		      "/* warp_shuffle(x) in a comment,\n"
		      "   over two lines */\n"
		      "int a(int x) { return x; } // warp_ballot(1)\n"
		      "int b(int x) { printf(\"warp_any(%d)\\n\", x); return 'w' + x; }\n"
		      "#pragma warp_reduce_add\n"
		      "#ifdef warp_all\n"
		      "#endif\n"
		      "struct s { int warp_field; };\n"
		      "int c(struct s v) { return v.warp_field + a(1); }\n"
		      "int d(int x) { return /* warp_any */ b(x); }\n");
}
END_TEST

START_TEST(test_define_warp_op)
{
	check_rewrite("#define AFFINE(a, b) ((a) * (b))\n"
		      "CLWARP_DEFINE_WARP_OP(affine, ulong, AFFINE, 1ul)\n"
		      "ulong r(ulong v) { return warp_reduce_affine(v); }\n"
		      "kernel void k(global ulong *a, " P ")\n"
		      "{\n"
		      "\ta[0] = r(a[0]) + warp_scan_inclusive_affine(a[1], 4u) + warp_scan_exclusive_affine(a[2]);\n"
		      "\ta[1] = warp_reduce_other(a[1]);\n"
		      "}\n",
		      "#define AFFINE(a, b) ((a) * (b))\n"
		      "CLWARP_DEFINE_WARP_OP(affine, ulong, AFFINE, 1ul)\n"
		      "ulong r(" P ", ulong v) { return warp_reduce_affine(__clwarp_scratch, v); }\n"
		      "kernel void k(global ulong *a, " P ")\n"
		      "{\n"
		      "\ta[0] = r(__clwarp_scratch, a[0]) + warp_scan_inclusive_affine(__clwarp_scratch, a[1], 4u) + warp_scan_exclusive_affine(__clwarp_scratch, a[2]);\n"
		      "\ta[1] = warp_reduce_other(a[1]);\n"
		      "}\n");
}
END_TEST

/* On khr and intel the operator's functions are the backend's, without the
 * context: only the helper and the kernel take the scratch. */
START_TEST(test_define_warp_op_scratch)
{
	char *out = rewrite("CLWARP_DEFINE_WARP_OP(affine, ulong, AFFINE, 1ul)\n"
			    "ulong r(ulong v) { return warp_reduce_affine(v); }\n"
			    "kernel void k(global ulong *a, " P ") { a[0] = r(a[0]) + warp_reduce_affine(a[1], 4u); }\n",
			    WARPCTX_SCRATCH, CLWARP_OK);

	ck_assert_str_eq(out, "CLWARP_DEFINE_WARP_OP(affine, ulong, AFFINE, 1ul)\n"
			 "ulong r(" P ", ulong v) { return warp_reduce_affine(v); }\n"
			 "kernel void k(global ulong *a, " P ") { a[0] = r(__clwarp_scratch, a[0]) + warp_reduce_affine(a[1], 4u); }\n");
	free(out);
}
END_TEST

START_TEST(test_kernel_calls)
{
	/* The kernel rewrite appends the scratch to every kernel: calls pass it last. */
	check_rewrite("kernel void inner(global int *a, " P ") { a[0] = 1; }\n"
		      "kernel void none(" P ") { }\n"
		      "void helper(global int *a) { inner(a); none(); }\n"
		      "kernel void outer(global int *a, " P ") { helper(a); inner(a); }\n",
		      "kernel void inner(global int *a, " P ") { a[0] = 1; }\n"
		      "kernel void none(" P ") { }\n"
		      "void helper(" P ", global int *a) { inner(a, __clwarp_scratch); none(__clwarp_scratch); }\n"
		      "kernel void outer(global int *a, " P ") { helper(__clwarp_scratch, a); inner(a, __clwarp_scratch); }\n");
}
END_TEST

START_TEST(test_file_scope_is_not_a_call)
{
	check_rewrite("typedef struct { float v; } pair;\n"
		      "constant int table[2] = { 1, 2 };\n"
		      "float f(pair p) { return warp_reduce_min(p.v); }, g(int);\n"
		      "pair mk(float v) { pair p = { v }; return p; }\n"
		      "float h(float v) { return f(mk(v)); }\n",
		      "typedef struct { float v; } pair;\n"
		      "constant int table[2] = { 1, 2 };\n"
		      "float f(" P ", pair p) { return warp_reduce_min(p.v); }, g(int);\n"
		      "pair mk(float v) { pair p = { v }; return p; }\n"
		      "float h(" P ", float v) { return f(__clwarp_scratch, mk(v)); }\n");
}
END_TEST

START_TEST(test_error_pasted_name)
{
	/* file:line come from the #line markers the include expander writes. */
	check_error("int x;\n"
		    "#line 1 \"dir/ops.cl\"\n"
		    "// the helpers\n"
		    "#define DEF(T) \\\n"
		    "\tT helper_##T(T x) { return warp_reduce_add(x); }\n"
		    "#line 2 \"main.cl\"\n"
		    "DEF(int)\n",
		    "dir/ops.cl:3: function `helper_##T` (in the body of macro DEF) calls warp "
		    "functions, but its name is made by the macro (## or a macro parameter), so the "
		    "engine cannot find its calls to pass the warp context: give it CLWARP_WARP_PARAM "
		    "as a parameter by hand and pass CLWARP_WARP_ARG at its calls");
	check_error("\n#define DEF(NAME) float NAME(float x) { return warp_any(x > 0.0f); }\n",
		    "main.cl:2: function `NAME` (in the body of macro DEF) calls warp functions, but "
		    "its name is made by the macro (## or a macro parameter), so the engine cannot "
		    "find its calls to pass the warp context: give it CLWARP_WARP_PARAM as a parameter "
		    "by hand and pass CLWARP_WARP_ARG at its calls");
	check_error("float CAT(f, 1)(float x)\n{ return warp_reduce_add(x); }\n",
		    "main.cl:1: a function whose name a macro makes calls warp functions, so the "
		    "engine cannot find its calls to pass the warp context: give it CLWARP_WARP_PARAM "
		    "as a parameter by hand and pass CLWARP_WARP_ARG at its calls");
	/* By hand, or without warp calls, such functions are fine. */
	check_rewrite("#define DEF(T) T h_##T(CLWARP_WARP_PARAM, T x) { return warp_reduce_add(x); }\n"
		      "#define DEF2(T) T g_##T(T x) { return x; }\n",
		      "#define DEF(T) T h_##T(CLWARP_WARP_PARAM, T x) { return warp_reduce_add(x); }\n"
		      "#define DEF2(T) T g_##T(T x) { return x; }\n");
}
END_TEST

START_TEST(test_error_other_cases)
{
	check_error("float h(float x) { return warp_reduce_add(x); }\n"
		    "#define APPLY(f, x) f(x)\n"
		    "float u(float x) { return APPLY(h, x); }\n",
		    "main.cl:3: function `h` calls warp functions and is named here other than in a "
		    "direct call (a macro's argument?), so the engine cannot pass it the warp context: "
		    "call it directly, or give it CLWARP_WARP_PARAM as a parameter by hand and pass "
		    "CLWARP_WARP_ARG at its calls");
	check_error("#ifdef A\n"
		    "float h(CLWARP_WARP_PARAM, float x) { return warp_reduce_add(x); }\n"
		    "#else\n"
		    "float h(float x) { return warp_reduce_add(x); }\n"
		    "#endif\n",
		    "main.cl:4: function `h` calls warp functions and is declared here without "
		    "CLWARP_WARP_PARAM but with it at main.cl:2: write CLWARP_WARP_PARAM in every "
		    "declaration of it, or in none (the engine then adds the warp context itself)");
	check_error("#define OPS(N) CLWARP_DEFINE_WARP_OP(N, int, ADD, 0)\n",
		    "main.cl:1: CLWARP_DEFINE_WARP_OP with a name that a macro makes (a macro "
		    "parameter or ##): the engine cannot find the calls of the functions it defines "
		    "to pass them the warp context; write the operator's name out");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("warpctx");
	TCase *tc = tcase_create("main");

	tcase_add_test(tc, test_nested_helpers_and_prototypes);
	tcase_add_test(tc, test_multiline_declarator);
	tcase_add_test(tc, test_macros);
	tcase_add_test(tc, test_macro_statements_are_calls);
	tcase_add_test(tc, test_conditional_definitions);
	tcase_add_test(tc, test_unused_and_hand_threaded);
	tcase_add_test(tc, test_overloads);
	tcase_add_test(tc, test_comments_and_strings);
	tcase_add_test(tc, test_define_warp_op);
	tcase_add_test(tc, test_define_warp_op_scratch);
	tcase_add_test(tc, test_kernel_calls);
	tcase_add_test(tc, test_file_scope_is_not_a_call);
	tcase_add_test(tc, test_error_pasted_name);
	tcase_add_test(tc, test_error_other_cases);
	suite_add_tcase(s, tc);
	return test_main(s);
}
