/* What the disk cache tests (test-diskcache.c: entries; test-diskcache-evict.c:
 * the size bound; test-diskcache-folder.c: the folder) share: a private
 * temp folder per test, a logger that counts warnings and dropped entries,
 * keys, payloads, entry files and hit/miss checks. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_DISKCACHE_TESTUTIL_H
#define CLWARP_DISKCACHE_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "check-main.h"
#include "diskcache.h"
#include "sha256.h"

static char *tmp_root;          /* this test's private folder */
static char cache_path[1024];   /* <tmp_root>/cache */
static int warnings;
static char last_warning[1024];
static int drops;               /* debug messages about deleting a damaged entry */
static char last_drop[1024];

static void
capture(clwarp_log_level level, const char *message, void *user_data)
{
	(void)user_data;
	if (level == CLWARP_LOG_WARNING) {
		warnings++;
		snprintf(last_warning, sizeof(last_warning), "%s", message);
	} else if (level == CLWARP_LOG_DEBUG && strstr(message, "dropping")) {
		drops++;
		snprintf(last_drop, sizeof(last_drop), "%s", message);
	}
}

static const struct clwarp_logger logger = { capture, NULL, CLWARP_LOG_DEBUG };

/* Not inline: gcc then inlines its recursion and warns that the child path
 * may be truncated (-Wformat-truncation). */
static void
rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;

		chmod(path, 0700);
		while (d && (de = readdir(d))) {
			char child[4096];

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
			rm_rf(child);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static inline void
setup(void)
{
	const char *base = getenv("CLWARP_TEST_TMPDIR");
	char templ[4096];

	if (!base || !base[0])
		base = "/tmp";
	mkdir(base, 0700); /* the build folder's tmp/ exists only once a test made it */
	snprintf(templ, sizeof(templ), "%s/clwarp-diskcache-XXXXXX", base);
	tmp_root = strdup(mkdtemp(templ) ? templ : "");
	ck_assert_msg(tmp_root && tmp_root[0], "mkdtemp in %s: %s", base, strerror(errno));
	snprintf(cache_path, sizeof(cache_path), "%s/cache", tmp_root);
	warnings = 0;
	last_warning[0] = '\0';
	drops = 0;
	last_drop[0] = '\0';
}

static inline void
teardown(void)
{
	if (tmp_root && tmp_root[0])
		rm_rf(tmp_root);
	free(tmp_root);
	tmp_root = NULL;
}

static inline void
make_key(int n, uint8_t key[32])
{
	char text[32];

	snprintf(text, sizeof(text), "key-%d", n);
	sha256_buffer(text, strlen(text), key);
}

static inline void
fill(uint8_t *buf, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8));
}

static inline void
entry_path(char *out, size_t cap, const char *dir, const uint8_t key[32], const char *kind)
{
	char hex[SHA256_HEX_SIZE];

	sha256_hex(key, hex);
	snprintf(out, cap, "%s/%s.%s", dir, hex, kind);
}

static inline int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static inline off_t
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

static inline void
set_mtime(const char *path, time_t when)
{
	struct timespec ts[2] = { { when, 0 }, { when, 0 } };

	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static inline time_t
mtime_of(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_mtim.tv_sec;
}

static inline void
write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	/* As the cache writes entries: under umask 002 a group-writable file
	 * would be an untrusted entry, ignored rather than dropped. */
	ck_assert_int_eq(fchmod(fileno(f), 0600), 0);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* Reads a whole small file into a malloc'd buffer. */
static inline uint8_t *
read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len > 0 ? (size_t)len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

static inline void
open_cache(struct diskcache *cache, uint64_t max_bytes)
{
	ck_assert_int_eq(diskcache_open(cache, cache_path, NULL, 0, max_bytes, &logger), CLWARP_OK);
	ck_assert_ptr_nonnull(cache->dir);
	ck_assert_str_eq(cache->dir, cache_path);
}

static inline void
expect_hit(const struct diskcache *cache, const uint8_t key[32], const char *kind,
           const void *want, size_t want_size)
{
	void *got = NULL;
	size_t size = 0;

	ck_assert_int_eq(diskcache_load(cache, key, kind, &got, &size), 1);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(size, want_size);
	if (want_size)
		ck_assert_mem_eq(got, want, want_size);
	free(got);
}

static inline void
expect_miss(const struct diskcache *cache, const uint8_t key[32], const char *kind)
{
	void *got = (void *)1;
	size_t size = 1;

	ck_assert_int_eq(diskcache_load(cache, key, kind, &got, &size), 0);
	ck_assert_ptr_null(got);
	ck_assert_uint_eq(size, 0);
}

/* One suite of one test case named "core", 60 s a test; returns the exit
 * status. */
static inline int
diskcache_test_main(const char *name, void (*add_tests)(TCase *tc))
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	add_tests(tc);
	suite_add_tcase(s, tc);
	return test_main(s);
}

#endif
