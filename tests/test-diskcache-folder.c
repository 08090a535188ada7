/* Tests for the on-disk program cache's folder: the environment's
 * precedence, relative paths, an unwritable or vanished folder. */
/* SPDX-License-Identifier: MIT */
#include "diskcache-testutil.h"

START_TEST(test_unwritable_folder)
{
	struct diskcache cache;
	char file[4096], bad[4096];
	uint8_t key[32];

	setup();
	/* mkdir under a regular file fails even for root. */
	snprintf(file, sizeof(file), "%s/file", tmp_root);
	snprintf(bad, sizeof(bad), "%s/file/sub", tmp_root);
	write_file(file, "x", 1);
	ck_assert_int_eq(diskcache_open(&cache, bad, NULL, 1, 0, &logger), CLWARP_OK);
	ck_assert_ptr_null(cache.dir);
	ck_assert_int_eq(warnings, 1);
	ck_assert_ptr_nonnull(strstr(last_warning, bad));
	ck_assert_ptr_nonnull(strstr(last_warning, strerror(ENOTDIR)));

	make_key(12, key);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	expect_miss(&cache, key, "bin");
	diskcache_remove(&cache, key, "bin");
	ck_assert_int_eq(warnings, 1);
	diskcache_close(&cache);

	/* The folder itself is a file. */
	ck_assert_int_eq(diskcache_open(&cache, file, NULL, 1, 0, &logger), CLWARP_OK);
	ck_assert_ptr_null(cache.dir);
	ck_assert_int_eq(warnings, 2);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_store_failure_warns_once)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(13, key);
	/* The folder turns into a file after the cache was opened. */
	rm_rf(cache_path);
	write_file(cache_path, "x", 1);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_ERROR_IO);
	ck_assert_int_eq(warnings, 1);
	ck_assert_ptr_nonnull(strstr(last_warning, cache_path));
	expect_miss(&cache, key, "bin");
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_folder_recreated)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(14, key);
	rm_rf(cache_path);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	expect_hit(&cache, key, "bin", "abc", 3);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

struct saved_env {
	const char *name;
	char *value;
};

static void
save_env(struct saved_env *env, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = getenv(env[i].name);

		env[i].value = v ? strdup(v) : NULL;
	}
}

static void
restore_env(struct saved_env *env, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (env[i].value)
			setenv(env[i].name, env[i].value, 1);
		else
			unsetenv(env[i].name);
		free(env[i].value);
	}
}

static void
expect_dir(const char *explicit_dir, int use_env, const char *want)
{
	struct diskcache cache;

	ck_assert_int_eq(diskcache_open(&cache, explicit_dir, NULL, use_env, 0, &logger), CLWARP_OK);
	if (want) {
		ck_assert_ptr_nonnull(cache.dir);
		ck_assert_str_eq(cache.dir, want);
	} else {
		ck_assert_ptr_null(cache.dir);
	}
	diskcache_close(&cache);
}

START_TEST(test_env_precedence)
{
	struct saved_env env[] = { { "CLWARP_CACHE_DIR", NULL }, { "XDG_CACHE_HOME", NULL },
	                           { "HOME", NULL } };
	char explicit_dir[4096], env_dir[4096], xdg[4096], xdg_dir[4096], home[4096],
	     home_dir[4096], slash[8192];

	setup();
	save_env(env, 3);
	snprintf(explicit_dir, sizeof(explicit_dir), "%s/explicit", tmp_root);
	snprintf(env_dir, sizeof(env_dir), "%s/from-env", tmp_root);
	snprintf(xdg, sizeof(xdg), "%s/xdg", tmp_root);
	snprintf(xdg_dir, sizeof(xdg_dir), "%s/xdg/clwarp", tmp_root);
	snprintf(home, sizeof(home), "%s/home", tmp_root);
	snprintf(home_dir, sizeof(home_dir), "%s/home/.cache/clwarp", tmp_root);
	setenv("CLWARP_CACHE_DIR", env_dir, 1);
	setenv("XDG_CACHE_HOME", xdg, 1);
	setenv("HOME", home, 1);

	expect_dir(explicit_dir, 1, explicit_dir);
	expect_dir(explicit_dir, 0, explicit_dir);
	expect_dir(NULL, 1, env_dir);
	expect_dir("", 1, env_dir);
	ck_assert_int_eq(warnings, 0);
	expect_dir(NULL, 0, NULL);          /* off on purpose: no warning */
	ck_assert_int_eq(warnings, 0);

	setenv("CLWARP_CACHE_DIR", "", 1);  /* empty counts as unset */
	expect_dir(NULL, 1, xdg_dir);
	unsetenv("CLWARP_CACHE_DIR");
	expect_dir(NULL, 1, xdg_dir);
	setenv("XDG_CACHE_HOME", "relative/xdg", 1); /* invalid per XDG: ignored */
	expect_dir(NULL, 1, home_dir);
	unsetenv("XDG_CACHE_HOME");
	expect_dir(NULL, 1, home_dir);
	ck_assert_int_eq(warnings, 0);

	/* Created folders are private. */
	{
		struct stat st;

		ck_assert_int_eq(stat(home_dir, &st), 0);
		ck_assert_uint_eq(st.st_mode & 0777, 0700);
	}

	/* Trailing slashes are dropped. */
	snprintf(slash, sizeof(slash), "%s//", explicit_dir);
	expect_dir(slash, 0, explicit_dir);

	unsetenv("HOME");
	expect_dir(NULL, 1, NULL);
	ck_assert_int_eq(warnings, 1);

	restore_env(env, 3);
	teardown();
}
END_TEST

START_TEST(test_relative_dir)
{
	char old_cwd[4096], want[8192], here[4096];
	struct diskcache cache;

	setup();
	ck_assert_ptr_nonnull(getcwd(old_cwd, sizeof(old_cwd)));
	ck_assert_int_eq(chdir(tmp_root), 0);
	ck_assert_ptr_nonnull(getcwd(here, sizeof(here)));
	snprintf(want, sizeof(want), "%s/rel/cache", here);
	ck_assert_int_eq(diskcache_open(&cache, "rel/cache/", NULL, 0, 0, &logger), CLWARP_OK);
	ck_assert_ptr_nonnull(cache.dir);
	ck_assert_str_eq(cache.dir, want);
	diskcache_close(&cache);
	ck_assert_int_eq(diskcache_open(&cache, ".", NULL, 0, 0, &logger), CLWARP_OK);
	ck_assert_str_eq(cache.dir, here);
	diskcache_close(&cache);
	ck_assert_int_eq(chdir(old_cwd), 0);
	teardown();
}
END_TEST

static void
add_tests(TCase *tc)
{
	tcase_add_test(tc, test_unwritable_folder);
	tcase_add_test(tc, test_store_failure_warns_once);
	tcase_add_test(tc, test_folder_recreated);
	tcase_add_test(tc, test_env_precedence);
	tcase_add_test(tc, test_relative_dir);
}

int
main(void)
{
	return diskcache_test_main("diskcache-folder", add_tests);
}
