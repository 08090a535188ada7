/* Program cache tests on disk, part of test-cache: damaged entries rebuilt,
 * the disk cache off, an unwritable folder, the size bound, PoCL's kernel
 * cache. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <sys/stat.h>

#include "diskcache.h"
#include "pocl_kcache.h"
#include "sha256.h"
#include "testutil.h"
#include "test-cache.h"

static uint64_t
folder_bytes(const char *cache)
{
	DIR *d = opendir(cache);
	struct dirent *ent;
	uint64_t total = 0;
	char path[4400];
	struct stat st;

	ck_assert_ptr_nonnull(d);
	while ((ent = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", cache, ent->d_name);
		if (ent->d_name[0] != '.' && stat(path, &st) == 0)
			total += (uint64_t)st.st_size;
	}
	closedir(d);
	return total;
}

static void
damage_entry(const char *path, long offset, int truncate_there)
{
	FILE *fp = fopen(path, "r+b");
	int c;

	ck_assert_ptr_nonnull(fp);
	if (truncate_there) {
		ck_assert_int_eq(ftruncate(fileno(fp), offset), 0);
	} else {
		ck_assert_int_eq(fseek(fp, offset, SEEK_SET), 0);
		c = fgetc(fp);
		ck_assert_int_eq(fseek(fp, offset, SEEK_SET), 0);
		fputc(c ^ 0x5a, fp);
	}
	fclose(fp);
}

START_TEST(test_corrupted_entry_is_rebuilt)
{
	struct fixture f;
	char *entry;
	struct stat st;

	fixture_init(&f, 4);
	ck_assert_int_eq(run_child(&f, "", 4), COMPILED);
	entry = test_only_binary_entry(f.cache);
	ck_assert_int_eq(stat(entry, &st), 0);
	/* A flipped byte in the middle of the payload fails the checksum. */
	damage_entry(entry, (long)(DISKCACHE_HEADER_SIZE + (st.st_size - DISKCACHE_HEADER_SIZE) / 2), 0);
	ck_assert_int_eq(run_child(&f, "", 4), COMPILED);
	ck_assert_int_eq(run_child(&f, "", 4), DISK_HIT);
	free(entry);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_truncated_entry_is_rebuilt)
{
	static const long cut[] = { 0, 20, DISKCACHE_HEADER_SIZE, -1 };
	struct fixture f;

	fixture_init(&f, 6);
	ck_assert_int_eq(run_child(&f, "", 6), COMPILED);
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		char *entry = test_only_binary_entry(f.cache);
		struct stat st;

		ck_assert_int_eq(stat(entry, &st), 0);
		damage_entry(entry, cut[i] >= 0 ? cut[i] : (long)st.st_size - 1, 1);
		ck_assert_int_eq(run_child(&f, "", 6), COMPILED);
		ck_assert_int_eq(run_child(&f, "", 6), DISK_HIT);
		free(entry);
	}
	fixture_fini(&f);
}
END_TEST

/* An entry whose checksum is right but whose binary the driver rejects. */
START_TEST(test_driver_rejected_binary_is_rebuilt)
{
	struct fixture f;
	char *entry;
	uint8_t digest[32];
	const char garbage[] = "this is not a program binary for any device";
	FILE *fp;

	fixture_init(&f, 9);
	ck_assert_int_eq(run_child(&f, "", 9), COMPILED);
	entry = test_only_binary_entry(f.cache);
	fp = fopen(entry, "r+b");
	ck_assert_ptr_nonnull(fp);
	{
		uint8_t size_le[8];
		uint64_t n = sizeof(garbage);

		for (int i = 0; i < 8; i++)
			size_le[i] = (uint8_t)(n >> (8 * i));
		sha256_buffer(garbage, sizeof(garbage), digest);
		ck_assert_int_eq(fseek(fp, 48, SEEK_SET), 0);
		fwrite(size_le, 1, 8, fp);
		fwrite(digest, 1, 32, fp);
		fwrite(garbage, 1, sizeof(garbage), fp);
		ck_assert_int_eq(ftruncate(fileno(fp), DISKCACHE_HEADER_SIZE + (long)sizeof(garbage)), 0);
	}
	fclose(fp);
	ck_assert_int_eq(run_child(&f, "", 9), COMPILED);
	ck_assert_int_eq(run_child(&f, "", 9), DISK_HIT);
	free(entry);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_disk_cache_off)
{
	struct fixture f;
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_program *p = NULL;

	fixture_init(&f, 1);
	setenv("CLWARP_CACHE", "0", 1);
	ck_assert_int_eq(run_child(&f, "", 1), COMPILED);
	ck_assert_int_eq(run_child(&f, "", 1), COMPILED);
	unsetenv("CLWARP_CACHE");
	ck_assert_uint_eq(count_entries(f.cache, ".bin"), 0);

	clwarp_engine_options_init(&o);
	o.cache_dir = f.cache;
	o.flags = CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert_ptr_null(clwarp_engine_cache_dir(e));
	ck_assert_clwarp_ok(clwarp_program_build_file(e, f.main_cl, NULL, &p, NULL));
	clwarp_engine_free(e);
	ck_assert_uint_eq(count_entries(f.cache, ".bin"), 0);
	fixture_fini(&f);
}
END_TEST

static int warnings_seen;

static void
count_warnings(clwarp_log_level level, const char *message, void *data)
{
	if (level == CLWARP_LOG_WARNING) {
		warnings_seen++;
		ck_assert_ptr_nonnull(strstr(message, (const char *)data));
	}
}

START_TEST(test_unwritable_cache_folder)
{
	struct fixture f;
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_program *p = NULL;
	char bad[4300];
	int in[128], *out;

	fixture_init(&f, 8);
	/* A folder under a regular file cannot be created, even by root. */
	free(test_write_file(f.dir, "plainfile", "x"));
	snprintf(bad, sizeof(bad), "%s/plainfile/cache", f.dir);
	clwarp_engine_options_init(&o);
	o.cache_dir = bad;
	o.log_fn = count_warnings;
	o.log_user_data = bad;
	warnings_seen = 0;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert_ptr_null(clwarp_engine_cache_dir(e));
	ck_assert_int_eq(warnings_seen, 1);
	ck_assert_clwarp_ok(clwarp_program_build_file(e, f.main_cl, NULL, &p, NULL));
	for (int i = 0; i < 128; i++)
		in[i] = i;
	out = test_run_int_kernel(e, p, "scale", in, 128, 0);
	for (int i = 0; i < 128; i++)
		ck_assert_int_eq(out[i], i * 8);
	free(out);
	ck_assert_int_eq(warnings_seen, 1);
	clwarp_engine_free(e);
	fixture_fini(&f);
}
END_TEST

START_TEST(test_size_bound_evicts_oldest)
{
	struct fixture f;
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_program *p = NULL;
	struct stat st;
	char *entry;
	char opt[32];
	clwarp_build_info info;

	fixture_init(&f, 2);
	ck_assert_int_eq(run_child(&f, "", 2), COMPILED);
	entry = test_only_binary_entry(f.cache);
	ck_assert_int_eq(stat(entry, &st), 0);
	free(entry);

	/* Room for about two program binaries: building five keeps at most two. */
	clwarp_engine_options_init(&o);
	o.cache_dir = f.cache;
	o.cache_max_bytes = (uint64_t)st.st_size * 2 + (uint64_t)st.st_size / 2;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	for (int i = 0; i < 5; i++) {
		snprintf(opt, sizeof(opt), "-DUNUSED=%d", i);
		ck_assert_clwarp_ok(clwarp_program_build_file(e, f.main_cl, opt, &p, NULL));
	}
	clwarp_engine_free(e);
	/* The bound holds, and the newest entry survived. */
	ck_assert_uint_le(folder_bytes(f.cache), o.cache_max_bytes);
	ck_assert_uint_lt(count_entries(f.cache, ".bin"), 6);
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert_clwarp_ok(clwarp_program_build_file(e, f.main_cl, opt, &p, &info));
	ck_assert_int_eq(info.source, CLWARP_BUILD_DISK_HIT);
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
	fixture_fini(&f);
}
END_TEST

/*
 * With PoCL's kernel cache on (its default), a PoCL CPU engine stores a
 * program's binary only at its second compile: reading one compiles every
 * kernel again, and PoCL's cache serves the next process. The first
 * compile leaves a "seen" entry with its process ID. Elsewhere the first compile stores
 * the binary and the second process is a disk hit. The children here keep
 * the engine's own rule (TEST_CACHE_OWN_RULE).
 */
START_TEST(test_pocl_kernel_cache_keeps_programs)
{
	struct fixture f;
	clwarp_engine *e;
	bool pocl_keeps;

	pocl_kcache_store_anyway(false);
	setenv("TEST_CACHE_OWN_RULE", "1", 1);
	unsetenv("POCL_KERNEL_CACHE");
	e = test_engine(NULL);
	pocl_keeps = pocl_kcache_on(clwarp_engine_device_info(e));
	clwarp_engine_free(e);
	fixture_init(&f, 7);
	ck_assert_int_eq(run_child(&f, "", 7), COMPILED);
	ck_assert_uint_eq(count_entries(f.cache, ".bin"), pocl_keeps ? 0 : 1);
	ck_assert_uint_eq(count_entries(f.cache, ".seen"), pocl_keeps ? 1 : 0);
	if (pocl_keeps) {
		/* Two engines of one process are one process: no binary. */
		char *argv[] = { "test-cache", "--child", f.cache, f.main_cl, "-DUNUSED=2", "7", NULL };

		ck_assert_int_eq(child_main(argv), COMPILED);
		ck_assert_int_eq(child_main(argv), COMPILED);
		ck_assert_uint_eq(count_entries(f.cache, ".bin"), 0);
		ck_assert_uint_eq(count_entries(f.cache, ".seen"), 2);
		/* Built by another process: now the binary is stored, and the mark goes. */
		ck_assert_int_eq(run_child(&f, "", 7), COMPILED);
		ck_assert_uint_eq(count_entries(f.cache, ".bin"), 1);
		ck_assert_uint_eq(count_entries(f.cache, ".seen"), 1);
	}
	ck_assert_int_eq(run_child(&f, "", 7), DISK_HIT);
	/* With PoCL's cache off the first compile stores the binary. */
	setenv("POCL_KERNEL_CACHE", "0", 1);
	ck_assert_int_eq(run_child(&f, "-DUNUSED=1", 7), COMPILED);
	ck_assert_uint_eq(count_entries(f.cache, ".bin"), 2);
	unsetenv("POCL_KERNEL_CACHE");
	ck_assert_int_eq(run_child(&f, "-DUNUSED=1", 7), DISK_HIT);
	ck_assert_uint_eq(count_entries(f.cache, ".seen"), pocl_keeps ? 1 : 0);
	unsetenv("TEST_CACHE_OWN_RULE");
	test_store_binaries_on_pocl();
	fixture_fini(&f);
}
END_TEST

void
cache_add_damage_tests(TCase *tc)
{
	tcase_add_test(tc, test_corrupted_entry_is_rebuilt);
	tcase_add_test(tc, test_truncated_entry_is_rebuilt);
	tcase_add_test(tc, test_driver_rejected_binary_is_rebuilt);
}

void
cache_add_folder_tests(TCase *tc)
{
	tcase_add_test(tc, test_disk_cache_off);
	tcase_add_test(tc, test_unwritable_cache_folder);
	tcase_add_test(tc, test_size_bound_evicts_oldest);
	tcase_add_test(tc, test_pocl_kernel_cache_keeps_programs);
}
