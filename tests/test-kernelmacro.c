/* Tests for how the source rewrite follows kernel macros through the
 * conditionals: program text in, the kernels it pinned (or one message)
 * out. test-width.c builds and runs such kernels; this covers the sides
 * of conditionals the source does not decide, nested. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <check.h>
#include <string.h>

#include "check-main.h"
#include "error.h"
#include "source.h"

#define PIN "__attribute__((intel_reqd_sub_group_size(8)))"

/* Rewrite `text` pinned to 8: the number of kernels it saw, or -1 with the
 * message in clwarp_last_error(). Each kernel it saw has its pin. */
static int
pinned(const char *text)
{
	struct source_rewrite rw = { .reqd_sub_group_size = 8 };
	struct source_result r;
	int pins = 0;

	if (source_expand(text, "n.cl", ".", NULL, &rw, NULL, &r) != CLWARP_OK)
		return -1;
	for (const char *p = strstr(r.text.data, PIN); p; p = strstr(p + 1, PIN))
		pins++;
	ck_assert_int_eq(pins, (int)r.kernel_count);
	source_result_free(&r);
	return pins;
}

static const struct {
	const char *text;
	int kernels;           /* -1: refused */
	const char *message;   /* refused: part of the message */
} cases[] = {
	/* Every side of an undecided conditional makes a kernel, nested too. */
	{ "#if __A__\n#define K kernel\n#if __B__\n#define K kernel\n#else\n#define K kernel\n#endif\n"
	  "#else\n#define K __kernel\n#endif\nK void a(global int *o) {}\n", 1, NULL },
	{ "#if __A__\n#define Q kernel\n#else\n#if __B__\n#define Q kernel\n#else\n#define Q kernel\n"
	  "#endif\n#endif\nQ void c(global int *o) {}\n", 1, NULL },
	{ "#if 1\n#if __A__\n#define U kernel\n#else\n#define U kernel\n#endif\n#define V U\n#endif\n"
	  "V void h(global int *o) {}\n", 1, NULL },
	{ "#define T kernel\n#if __A__\n#undef T\n#define T kernel\n#endif\nT void f(global int *o) {}\n",
	  1, NULL },
	/* One side that may be taken leaves it no kernel. */
	{ "#if __A__\n#define L kernel\n#elif __B__\n#if __C__\n#define L\n#endif\n#else\n#define L kernel\n"
	  "#endif\nL void b(global int *o) {}\n", -1, "n.cl:10: `L` is a kernel on one side of the conditional at n.cl:1" },
	{ "#if __A__\n#define R kernel\n#endif\nR void d(global int *o) {}\n", -1,
	  "n.cl:4: `R` is a kernel on one side of the conditional at n.cl:1" },
	{ "#define T kernel\n#if __A__\n#if __B__\n#undef T\n#endif\n#endif\nT void g(global int *o) {}\n",
	  -1, "n.cl:7: `T` is a kernel on one side of the conditional at n.cl:3" },
	/* Decided: the side the compiler leaves out does not count. */
	{ "#ifdef __OPENCL_VERSION__\n#define W\n#else\n#define W kernel\n#endif\nW void i(void) {}\n", 0, NULL },
	{ "#if 0\n#define X kernel\n#elif 2 > 1\n#define X\n#else\n#define X kernel\n#endif\n"
	  "X void j(void) {}\nkernel void k(void) {}\n", 1, NULL },
	{ "#if 0\nkernel void dead(global int *o) {}\n#endif\nkernel void live(global int *o) {}\n", 1, NULL },
};

START_TEST(test_conditionals)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = pinned(cases[i].text);

		ck_assert_msg(got == cases[i].kernels, "case %zu: %d kernels, want %d (%s)", i, got,
			      cases[i].kernels, got < 0 ? clwarp_last_error() : "");
		if (cases[i].message)
			ck_assert_msg(strstr(clwarp_last_error(), cases[i].message), "case %zu: %s", i,
				      clwarp_last_error());
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("kernelmacro");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_conditionals);
	suite_add_tcase(s, tc);
	return test_main(s);
}
