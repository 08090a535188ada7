/* Repeated builds on one engine (src/buildmemo.c answers them from file
 * stamps): a repeat gets the same program, and any change to the source,
 * the options, an included file, or which file an include finds, gets a
 * program built from the new text. Checked by running each program. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include "testutil.h"

enum { N = 64 };

static const char *main_text = "#include \"factor.cl\"\n"
			       "kernel void scale(global const int *in, global int *out)\n"
			       "{ size_t i = get_global_id(0); out[i] = in[i] * FACTOR; }\n";

/* Runs `scale` of p and returns the factor it multiplies by (every element checked). */
static int
factor_of(clwarp_engine *e, clwarp_program *p)
{
	int in[N], *out, factor;

	for (int i = 0; i < N; i++)
		in[i] = i + 1;
	out = test_run_int_kernel(e, p, "scale", in, N, 0);
	factor = out[0];
	for (int i = 0; i < N; i++)
		ck_assert_msg(out[i] == in[i] * factor, "element %d: %d, not %d * %d", i, out[i], in[i],
			      factor);
	free(out);
	return factor;
}

/* Sets a file's mtime to an hour ago: old enough for its stamp to count. */
static void
age(const char *dir, const char *name)
{
	char path[4200];
	struct timespec times[2];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	clock_gettime(CLOCK_REALTIME, &times[0]);
	times[0].tv_sec -= 3600;
	times[1] = times[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* Rewrites a file with text of the same length and puts its mtime back to
 * what it was: only the content (and the ctime, which no one can set)
 * changes. */
static void
rewrite_keeping_mtime(const char *dir, const char *name, const char *text)
{
	char path[4200];
	struct stat before, after;
	struct timespec times[2];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(stat(path, &before), 0);
	free(test_write_file(dir, name, text));
	times[0] = before.st_atim;
	times[1] = before.st_mtim;
	ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size);
	ck_assert_int_eq(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

static clwarp_program *
build_file(clwarp_engine *e, const char *path, const char *options, clwarp_build_source *source)
{
	clwarp_program *p = NULL;
	clwarp_build_info info;

	ck_assert_clwarp_ok(clwarp_program_build_file(e, path, options, &p, &info));
	*source = info.source;
	clwarp_build_info_free(&info);
	return p;
}

START_TEST(test_repeat_and_include_edit)
{
	clwarp_engine *e = test_engine(NULL);
	char *dir = test_tmpdir(), *path;
	clwarp_program *first, *p;
	clwarp_build_source src;

	free(test_write_file(dir, "factor.cl", "#define FACTOR 3\n"));
	path = test_write_file(dir, "main.cl", main_text);
	age(dir, "factor.cl");
	age(dir, "main.cl");
	first = build_file(e, path, NULL, &src);
	ck_assert_int_eq(src, CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(factor_of(e, first), 3);
	p = build_file(e, path, NULL, &src);
	ck_assert_int_eq(src, CLWARP_BUILD_MEMORY_HIT);
	ck_assert_ptr_eq(p, first);

	/* Same size, same mtime: only the content differs. */
	rewrite_keeping_mtime(dir, "factor.cl", "#define FACTOR 5\n");
	p = build_file(e, path, NULL, &src);
	ck_assert_int_eq(src, CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(factor_of(e, p), 5);

	/* The main file the same way. */
	age(dir, "factor.cl");
	p = build_file(e, path, NULL, &src);
	rewrite_keeping_mtime(dir, "main.cl",
			      "#include \"factor.cl\"\n"
			      "kernel void scale(global const int *in, global int *out)\n"
			      "{ size_t i = get_global_id(0); out[i] = in[i]*FACTOR*2; }\n");
	p = build_file(e, path, NULL, &src);
	ck_assert_int_eq(factor_of(e, p), 10);

	/* Other options are another request. */
	p = build_file(e, path, "-DUNUSED=1", &src);
	ck_assert_int_eq(src, CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(factor_of(e, p), 10);

	/* Edited within the file system's timestamp tick of the last build
	 * (no ageing): the stamp is not trusted, the source is read again. */
	free(test_write_file(dir, "factor.cl", "#define FACTOR 6\n"));
	p = build_file(e, path, NULL, &src);
	ck_assert_int_eq(factor_of(e, p), 12);
	free(test_write_file(dir, "factor.cl", "#define FACTOR 7\n"));
	p = build_file(e, path, NULL, &src);
	ck_assert_int_eq(factor_of(e, p), 14);

	test_rmtree(dir);
	free(dir);
	free(path);
	clwarp_engine_free(e);
}
END_TEST

/* An include found through -I, then a file of that name appearing in the
 * including file's own folder, which the search tries first. */
START_TEST(test_include_search_change)
{
	clwarp_engine *e = test_engine(NULL);
	char *dir = test_tmpdir(), *path, inc[3000], options[3100];
	clwarp_program *p;
	clwarp_build_source src;

	snprintf(inc, sizeof(inc), "%s/inc", dir);
	ck_assert_int_eq(mkdir(inc, 0755), 0);
	free(test_write_file(inc, "factor.cl", "#define FACTOR 2\n"));
	path = test_write_file(dir, "main.cl", main_text);
	age(inc, "factor.cl");
	age(dir, "main.cl");
	snprintf(options, sizeof(options), "-I %s", inc);
	p = build_file(e, path, options, &src);
	ck_assert_int_eq(factor_of(e, p), 2);
	p = build_file(e, path, options, &src);
	ck_assert_int_eq(src, CLWARP_BUILD_MEMORY_HIT);

	free(test_write_file(dir, "factor.cl", "#define FACTOR 9\n"));
	age(dir, "factor.cl");
	p = build_file(e, path, options, &src);
	ck_assert_int_eq(src, CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(factor_of(e, p), 9);

	test_rmtree(dir);
	free(dir);
	free(path);
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_string_builds)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *a, *p;
	clwarp_build_info info;
	const char *two = "kernel void scale(global const int *in, global int *out)\n"
			  "{ size_t i = get_global_id(0); out[i] = in[i] * 2; }\n";
	const char *four = "kernel void scale(global const int *in, global int *out)\n"
			   "{ size_t i = get_global_id(0); out[i] = in[i] * 4; }\n";
	char copy[256];

	ck_assert_clwarp_ok(clwarp_program_build_source(e, two, "s.cl", NULL, &a, NULL));
	ck_assert_int_eq(factor_of(e, a), 2);
	/* The same text in another buffer: the same request. */
	snprintf(copy, sizeof(copy), "%s", two);
	ck_assert_clwarp_ok(clwarp_program_build_source(e, copy, "s.cl", NULL, &p, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_MEMORY_HIT);
	clwarp_build_info_free(&info);
	ck_assert_ptr_eq(p, a);
	/* The caller's buffer edited in place, same length. */
	snprintf(copy, sizeof(copy), "%s", four);
	ck_assert_clwarp_ok(clwarp_program_build_source(e, copy, "s.cl", NULL, &p, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_COMPILED);
	clwarp_build_info_free(&info);
	ck_assert_int_eq(factor_of(e, p), 4);
	ck_assert_clwarp_ok(clwarp_program_build_source(e, two, "s.cl", NULL, &p, NULL));
	ck_assert_ptr_eq(p, a);
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("buildmemo", &tc);

	tcase_add_test(tc, test_repeat_and_include_edit);
	tcase_add_test(tc, test_include_search_change);
	tcase_add_test(tc, test_string_builds);
	return test_main(s);
}
