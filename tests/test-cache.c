/* Program cache tests: memory and disk hits, invalidation, the warp width in
 * the key, concurrency; damaged entries and the folder in test-cache-disk.c. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <sys/stat.h>

#include "testutil.h"
#include "test-cache.h"

/*
 * The child mode builds and runs a program in a process of its own, as a
 * second application sharing the cache folder would:
 *   test-cache --child CACHE_DIR FILE OPTIONS FACTOR
 * It checks out[i] == in[i] * FACTOR and exits with 10 + the build source
 * (10 compiled, 11 disk hit, 12 memory hit), or 1 on any failure.
 */
int
child_main(char **argv)
{
	clwarp_engine *e = NULL;
	clwarp_engine_options o;
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	clwarp_build_info info;
	clwarp_build_source source;
	cl_mem bin = NULL, bout = NULL;
	int factor = atoi(argv[5]);
	int in[128], out[128];
	size_t n = 128;

	clwarp_engine_options_init(&o);
	o.cache_dir = argv[2];
	if (clwarp_engine_new(&o, &e) != CLWARP_OK ||
	    clwarp_program_build_file(e, argv[3], argv[4], &p, &info) != CLWARP_OK) {
		fprintf(stderr, "child: %s\n", clwarp_last_error());
		return 1;
	}
	for (int i = 0; i < 128; i++)
		in[i] = i * 3 - 100;
	if (clwarp_kernel_new(p, "scale", &k) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_READ_ONLY, sizeof(in), in, &bin) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &bout) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(k, 0, bin) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(k, 1, bout) != CLWARP_OK ||
	    clwarp_kernel_launch(k, 1, &n, NULL, NULL) != CLWARP_OK ||
	    clwarp_buffer_read(e, bout, 0, sizeof(out), out) != CLWARP_OK) {
		fprintf(stderr, "child: %s\n", clwarp_last_error());
		return 1;
	}
	for (int i = 0; i < 128; i++) {
		if (out[i] != in[i] * factor) {
			fprintf(stderr, "child: out[%d] = %d, expected %d\n", i, out[i], in[i] * factor);
			return 1;
		}
	}
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
	source = info.source;
	clwarp_build_info_free(&info);
	return CHILD_EXIT_BASE + (int)source;
}

/*
 * test-cache --builds COUNT READY START: make an engine, write a byte to
 * fd READY, wait for fd START to close (so that every process starts its
 * builds at once), then build COUNT small programs from source (no disk
 * cache), run each and check it; exit 0, or 1 with a message.
 */
static int
builds_main(char **argv)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	int count = atoi(argv[2]), ready = atoi(argv[3]), start = atoi(argv[4]);
	char byte = 0;

	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_DISK_CACHE;
	if (clwarp_engine_new(&o, &e) != CLWARP_OK) {
		fprintf(stderr, "builds: %s\n", clwarp_last_error());
		return 1;
	}
	if (write(ready, &byte, 1) != 1)
		return 1;
	close(ready);
	while (read(start, &byte, 1) > 0)
		;
	for (int b = 0; b < count; b++) {
		char text[256];
		clwarp_program *p = NULL;
		clwarp_kernel *k = NULL;
		cl_mem bin = NULL, bout = NULL;
		int in[64], out[64];
		size_t n = 64;

		snprintf(text, sizeof(text),
			 "kernel void scale(global const int *in, global int *out)\n"
			 "{ size_t i = get_global_id(0); out[i] = in[i] * %d; }\n", b + 2);
		for (int i = 0; i < 64; i++)
			in[i] = i - 20;
		if (clwarp_program_build_source(e, text, "scale.cl", NULL, &p, NULL) != CLWARP_OK ||
		    clwarp_kernel_new(p, "scale", &k) != CLWARP_OK ||
		    clwarp_buffer_new(e, CL_MEM_READ_ONLY, sizeof(in), in, &bin) != CLWARP_OK ||
		    clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &bout) != CLWARP_OK ||
		    clwarp_kernel_set_arg_buffer(k, 0, bin) != CLWARP_OK ||
		    clwarp_kernel_set_arg_buffer(k, 1, bout) != CLWARP_OK ||
		    clwarp_kernel_launch(k, 1, &n, NULL, NULL) != CLWARP_OK ||
		    clwarp_buffer_read(e, bout, 0, sizeof(out), out) != CLWARP_OK) {
			fprintf(stderr, "builds: program %d: %s\n", b, clwarp_last_error());
			return 1;
		}
		for (int i = 0; i < 64; i++) {
			if (out[i] != in[i] * (b + 2)) {
				fprintf(stderr, "builds: program %d: out[%d] = %d, expected %d\n", b, i,
					out[i], in[i] * (b + 2));
				return 1;
			}
		}
		clReleaseMemObject(bin);
		clReleaseMemObject(bout);
		clwarp_kernel_free(k);
	}
	clwarp_engine_free(e);
	return 0;
}

void
fixture_init(struct fixture *f, int factor)
{
	char text[128];

	f->dir = test_tmpdir();
	f->cache = malloc(4200);
	snprintf(f->cache, 4200, "%s/cache", f->dir);
	snprintf(text, sizeof(text), "#define FACTOR %d\n", factor);
	free(test_write_file(f->dir, "factor.cl", text));
	f->main_cl = test_write_file(f->dir, "main.cl",
				     "#include \"factor.cl\"\n"
				     "kernel void scale(global const int *in, global int *out)\n"
				     "{ size_t i = get_global_id(0); out[i] = in[i] * FACTOR; }\n");
}

void
fixture_fini(struct fixture *f)
{
	test_rmtree(f->dir);
	free(f->dir);
	free(f->cache);
	free(f->main_cl);
}

int
run_child(const struct fixture *f, const char *options, int factor)
{
	char fbuf[16];
	char *argv[] = { "test-cache", "--child", f->cache, f->main_cl, (char *)options, fbuf, NULL };

	snprintf(fbuf, sizeof(fbuf), "%d", factor);
	return test_run_child(argv);
}

size_t
count_entries(const char *cache, const char *suffix)
{
	DIR *d = opendir(cache);
	struct dirent *ent;
	size_t count = 0;

	if (!d)
		return 0;
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name), slen = strlen(suffix);
		count += len > slen && strcmp(ent->d_name + len - slen, suffix) == 0;
	}
	closedir(d);
	return count;
}

START_TEST(test_memory_hit)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *a = NULL, *b = NULL, *c = NULL;
	clwarp_build_info info;
	const char *src = "kernel void k(global int *o) { o[0] = 42; }\n";

	ck_assert_clwarp_ok(clwarp_program_build_source(e, src, "m.cl", NULL, &a, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_COMPILED);
	clwarp_build_info_free(&info);
	ck_assert_clwarp_ok(clwarp_program_build_source(e, src, "m.cl", NULL, &b, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_MEMORY_HIT);
	ck_assert_ptr_eq(a, b);
	clwarp_build_info_free(&info);
	/* Other options are another program. */
	ck_assert_clwarp_ok(clwarp_program_build_source(e, src, "m.cl", "-DX=1", &c, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_COMPILED);
	ck_assert_ptr_ne(a, c);
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_disk_hit_from_second_process)
{
	struct fixture f;

	fixture_init(&f, 7);
	ck_assert_int_eq(run_child(&f, "", 7), COMPILED);
	ck_assert_int_eq(run_child(&f, "", 7), DISK_HIT);
	ck_assert_int_eq(run_child(&f, "", 7), DISK_HIT);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_include_edit_invalidates)
{
	struct fixture f;

	fixture_init(&f, 3);
	ck_assert_int_eq(run_child(&f, "", 3), COMPILED);
	ck_assert_int_eq(run_child(&f, "", 3), DISK_HIT);
	/* Only the included file changes: the old binary must not be used. */
	free(test_write_file(f.dir, "factor.cl", "#define FACTOR 5\n"));
	ck_assert_int_eq(run_child(&f, "", 5), COMPILED);
	ck_assert_int_eq(run_child(&f, "", 5), DISK_HIT);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_option_change_invalidates)
{
	struct fixture f;

	fixture_init(&f, 2);
	ck_assert_int_eq(run_child(&f, "", 2), COMPILED);
	ck_assert_int_eq(run_child(&f, "-cl-fast-relaxed-math", 2), COMPILED);
	ck_assert_int_eq(run_child(&f, "-cl-fast-relaxed-math", 2), DISK_HIT);
	ck_assert_int_eq(run_child(&f, "", 2), DISK_HIT);
	fixture_fini(&f);
}
END_TEST

/* Builds the width fixture on a local-backend engine of width W sharing
 * CACHE, runs it on 64 work-items and checks every lane against the host:
 * out[i] = warp_size() * 1000 + the sum of its warp's in[]. Returns the
 * build source. */
static clwarp_build_source
run_at_width(const char *cache, const char *path, unsigned w)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	clwarp_build_info info;
	clwarp_build_source source;
	cl_mem bin, bout;
	int in[64], out[64];
	size_t n = 64, local = 64;

	clwarp_engine_options_init(&o);
	o.backend = CLWARP_BACKEND_LOCAL;
	o.warp_size = w;
	o.cache_dir = cache;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert_clwarp_ok(clwarp_program_build_file(e, path, "", &p, &info));
	for (int i = 0; i < 64; i++)
		in[i] = i * i % 17;
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "width", &k));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_ONLY, sizeof(in), in, &bin));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bin));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, 1, &n, &local, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, sizeof(out), out));
	for (unsigned i = 0; i < 64; i++) {
		int sum = 0;

		for (unsigned j = i / w * w; j < i / w * w + w; j++)
			sum += in[j];
		ck_assert_msg(out[i] == (int)w * 1000 + sum, "W=%u lane %u: got %d, want %d", w, i, out[i],
			      (int)w * 1000 + sum);
	}
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
	source = info.source;
	clwarp_build_info_free(&info);
	return source;
}

/* The warp width is part of what a cached binary was built for: an engine of
 * another width sharing the folder compiles its own, never takes the other's. */
START_TEST(test_warp_width_in_key)
{
	char *dir = test_tmpdir(), cache[4200];
	char *path = test_write_file(dir, "width.cl",
				     "kernel void width(global const int *in, global int *out)\n"
				     "{ size_t i = get_global_id(0);\n"
				     "  out[i] = (int)warp_size() * 1000 + warp_reduce_add(in[i]); }\n");

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	ck_assert_int_eq(run_at_width(cache, path, 8), CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(run_at_width(cache, path, 16), CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(run_at_width(cache, path, 8), CLWARP_BUILD_DISK_HIT);
	ck_assert_int_eq(run_at_width(cache, path, 16), CLWARP_BUILD_DISK_HIT);
	ck_assert_uint_eq(count_entries(cache, ".bin"), 2);
	test_rmtree(dir);
	free(dir);
	free(path);
}
END_TEST

START_TEST(test_concurrent_writers)
{
	enum { WRITERS = 6 };
	struct fixture f;
	pid_t pids[WRITERS];

	fixture_init(&f, 11);
	for (int i = 0; i < WRITERS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0) {
			char *argv[] = { "test-cache", "--child", f.cache, f.main_cl, "", "11", NULL };

			execv("/proc/self/exe", argv);
			_exit(127);
		}
	}
	for (int i = 0; i < WRITERS; i++) {
		int status;

		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert(WIFEXITED(status));
		ck_assert_msg(WEXITSTATUS(status) == COMPILED || WEXITSTATUS(status) == DISK_HIT,
			      "writer %d exited %d", i, WEXITSTATUS(status));
	}
	/* One valid entry, no temp files left behind, and it serves the next process. */
	ck_assert_uint_eq(count_entries(f.cache, ".bin"), 1);
	ck_assert_int_eq(run_child(&f, "", 11), DISK_HIT);
	{
		DIR *d = opendir(f.cache);
		struct dirent *ent;

		while ((ent = readdir(d)))
			ck_assert_msg(strncmp(ent->d_name, ".tmp-", 5) != 0, "left %s", ent->d_name);
		closedir(d);
	}
	fixture_fini(&f);
}
END_TEST

/*
 * Processes building the same programs at once into an empty PoCL kernel
 * cache: PoCL 3.1 then fails a build now and then with no diagnostic
 * (contrib/driver-bugs/pocl-kcache-race/), which the engine builds again. Six processes
 * of thirty programs each; four in quick, where a cold build of each costs
 * 0.4 s of CPU in each process.
 */
START_TEST(test_concurrent_first_builds)
{
	enum { PROCESSES = 6 };
	char *dir = test_tmpdir(), pocl_cache[4200], ready_fd[16], start_fd[16];
	char *argv[] = { "test-cache", "--builds", test_quick() ? "4" : "30", ready_fd, start_fd,
			 NULL };
	pid_t pids[PROCESSES];
	int ready[2], start[2];
	char byte;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(start), 0);
	snprintf(ready_fd, sizeof(ready_fd), "%d", ready[1]);
	snprintf(start_fd, sizeof(start_fd), "%d", start[0]);
	snprintf(pocl_cache, sizeof(pocl_cache), "%s/pocl", dir);
	ck_assert_int_eq(mkdir(pocl_cache, 0700), 0);
	ck_assert_int_eq(setenv("POCL_CACHE_DIR", pocl_cache, 1), 0);
	for (int i = 0; i < PROCESSES; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0) {
			close(ready[0]);
			close(start[1]);
			execv("/proc/self/exe", argv);
			_exit(127);
		}
	}
	/* They build once all have made their engines (probes included): the
	 * same programs at the same time. Each closes its end of `ready` once
	 * ready, or by exiting. */
	close(ready[1]);
	close(start[0]);
	for (int i = 0; i < PROCESSES && read(ready[0], &byte, 1) == 1; i++)
		;
	close(start[1]);
	close(ready[0]);
	for (int i = 0; i < PROCESSES; i++) {
		int status;

		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "process %d of %d failed (status %d)", i, PROCESSES, status);
	}
	unsetenv("POCL_CACHE_DIR");
	test_rmtree(dir);
	free(dir);
}
END_TEST

int
main(int argc, char **argv)
{
	TCase *tc;
	Suite *s;

	if (!getenv("TEST_CACHE_OWN_RULE"))
		test_store_binaries_on_pocl();
	if (argc == 6 && strcmp(argv[1], "--child") == 0)
		return child_main(argv);
	if (argc == 5 && strcmp(argv[1], "--builds") == 0)
		return builds_main(argv);
	s = test_suite_with_timeout("cache", &tc);
	tcase_add_test(tc, test_memory_hit);
	tcase_add_test(tc, test_disk_hit_from_second_process);
	tcase_add_test(tc, test_include_edit_invalidates);
	tcase_add_test(tc, test_option_change_invalidates);
	tcase_add_test(tc, test_warp_width_in_key);
	cache_add_damage_tests(tc);
	tcase_add_test(tc, test_concurrent_writers);
	tcase_add_test(tc, test_concurrent_first_builds);
	cache_add_folder_tests(tc);
	return test_main(s);
}
