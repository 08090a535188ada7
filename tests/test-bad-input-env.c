/* Bad input at the API, the environment: every CLWARP_* variable the
 * library reads, and CLWARP_ALGO_TUNING; rows of the table in
 * test-bad-input.c. */
/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include <clwarp/algorithms.h>

#include "test-bad-input.h"

/* Set @p name to @p value (NULL: unset); returns the old value to give
 * back to restore_env() (a CI step may set CLWARP_* for every test). */
static char *
set_env(const char *name, const char *value)
{
	const char *old = getenv(name);
	char *saved = old ? strdup(old) : NULL;

	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
	return saved;
}

static void
restore_env(const char *name, char *saved)
{
	if (saved)
		setenv(name, saved, 1);
	else
		unsetenv(name);
	free(saved);
}

/* An engine made with @p name=@p value in the environment, its log
 * captured; freed at once. */
static clwarp_status
env_engine(const char *name, const char *value)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_status s;
	char *saved = set_env(name, value);
	clwarp_engine_options_init(&o);
	o.log_fn = capture;
	F.warnings = 0;
	F.warning[0] = '\0';
	s = clwarp_engine_new(&o, &e);
	snprintf(F.msg, sizeof(F.msg), "%s", clwarp_last_error());
	restore_env(name, saved);
	clwarp_engine_free(e);
	return s;
}

/* An algorithm call (they read CLWARP_ALGO_TUNING) on a fresh engine. */
static clwarp_status
tuning(const char *value)
{
	clwarp_engine *e = test_engine(NULL);
	cl_mem m = NULL;
	clwarp_status s;
	char *saved = set_env("CLWARP_ALGO_TUNING", value);

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 64, NULL, &m));
	s = clwarp_reduce(e, CLWARP_TYPE_INT, m, m, 4, CLWARP_OP_ADD, NULL);
	snprintf(F.msg, sizeof(F.msg), "%s", clwarp_last_error());
	restore_env("CLWARP_ALGO_TUNING", saved);
	clReleaseMemObject(m);
	clwarp_engine_free(e);
	return s;
}

/* The environment: every CLWARP_* variable the library reads. */
clwarp_status c_warp_size_negative(void) { return env_engine("CLWARP_WARP_SIZE", "-1"); }
clwarp_status c_warp_size_blank(void) { return env_engine("CLWARP_WARP_SIZE", " 16"); }
clwarp_status c_warp_size_plus(void) { return env_engine("CLWARP_WARP_SIZE", "+16"); }
clwarp_status c_warp_size_huge(void) { return env_engine("CLWARP_WARP_SIZE", "99999999999999999999"); }
clwarp_status c_warp_size_junk(void) { return env_engine("CLWARP_WARP_SIZE", "32x"); }
clwarp_status c_warp_size_wide(void) { return env_engine("CLWARP_WARP_SIZE", "4096"); }
clwarp_status c_warp_size_zero(void) { return env_engine("CLWARP_WARP_SIZE", "0"); }
clwarp_status c_warp_size_empty(void) { return env_engine("CLWARP_WARP_SIZE", ""); }
clwarp_status c_cache_max_text(void) { return env_engine("CLWARP_CACHE_MAX_BYTES", "abc"); }
clwarp_status c_cache_max_negative(void) { return env_engine("CLWARP_CACHE_MAX_BYTES", " -1"); }
clwarp_status c_cache_max_huge(void) { return env_engine("CLWARP_CACHE_MAX_BYTES", "99999999999999999999"); }
clwarp_status c_cache_max_suffix(void) { return env_engine("CLWARP_CACHE_MAX_BYTES", "256M"); }
clwarp_status c_cache_max_zero(void) { return env_engine("CLWARP_CACHE_MAX_BYTES", "0"); }
clwarp_status c_cache_word(void) { return env_engine("CLWARP_CACHE", "off"); }
clwarp_status c_cache_number(void) { return env_engine("CLWARP_CACHE", "2"); }
clwarp_status c_cache_empty(void) { return env_engine("CLWARP_CACHE", ""); }
clwarp_status c_log_level_number(void) { return env_engine("CLWARP_LOG_LEVEL", "4"); }
clwarp_status c_log_level_junk(void) { return env_engine("CLWARP_LOG_LEVEL", "debugx"); }
clwarp_status c_backend_case(void) { return env_engine("CLWARP_BACKEND", "Local"); }
clwarp_status c_native_width_two(void) { return env_engine("CLWARP_NATIVE_WIDTH", "2"); }
clwarp_status c_device_none(void) { return env_engine("CLWARP_DEVICE", "no such device"); }
clwarp_status c_device_index_junk(void) { return env_engine("CLWARP_DEVICE", "0:0junk"); }

clwarp_status
c_cache_dir_file(void)
{
	char *cache = set_env("CLWARP_CACHE", NULL);
	clwarp_status s = env_engine("CLWARP_CACHE_DIR", "/dev/null");

	restore_env("CLWARP_CACHE", cache);
	/* The documented fallback: one warning, memory cache only. */
	ck_assert_uint_eq(F.warnings, 1);
	ck_assert_ptr_nonnull(strstr(F.warning, "/dev/null"));
	snprintf(F.msg, sizeof(F.msg), "%s", F.warning);
	return s;
}

/* An unknown shared group: the same fallback as an unusable folder. */
clwarp_status
c_cache_group_env(void)
{
	char *cache = set_env("CLWARP_CACHE", NULL);
	clwarp_status s = env_engine("CLWARP_CACHE_GROUP", "clwarp-no-such-group");

	restore_env("CLWARP_CACHE", cache);
	ck_assert_uint_eq(F.warnings, 1);
	snprintf(F.msg, sizeof(F.msg), "%s", F.warning);
	return s;
}

clwarp_status
c_cache_group_option(void)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_status s;

	char *cache = set_env("CLWARP_CACHE", NULL);

	clwarp_engine_options_init(&o);
	o.cache_group = "clwarp-no-such-group";
	o.log_fn = capture;
	F.warnings = 0;
	F.warning[0] = '\0';
	s = clwarp_engine_new(&o, &e);
	restore_env("CLWARP_CACHE", cache);
	clwarp_engine_free(e);
	ck_assert_uint_eq(F.warnings, 1);
	snprintf(F.msg, sizeof(F.msg), "%s", F.warning);
	return s;
}

clwarp_status c_tuning_text(void) { return tuning("wg=abc"); }
clwarp_status c_tuning_negative(void) { return tuning("wg=-64"); }
clwarp_status c_tuning_huge(void) { return tuning("wg=99999999999999999999"); }
clwarp_status c_tuning_junk(void) { return tuning("wg=64x"); }
clwarp_status c_tuning_key(void) { return tuning("tile=4"); }
