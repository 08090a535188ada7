/* Tests for the on-disk program cache: format checks, eviction, failures, concurrency. */
/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

static void
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

static void
teardown(void)
{
	if (tmp_root && tmp_root[0])
		rm_rf(tmp_root);
	free(tmp_root);
	tmp_root = NULL;
}

static void
make_key(int n, uint8_t key[32])
{
	char text[32];

	snprintf(text, sizeof(text), "key-%d", n);
	sha256_buffer(text, strlen(text), key);
}

static void
fill(uint8_t *buf, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8));
}

static void
entry_path(char *out, size_t cap, const char *dir, const uint8_t key[32], const char *kind)
{
	char hex[SHA256_HEX_SIZE];

	sha256_hex(key, hex);
	snprintf(out, cap, "%s/%s.%s", dir, hex, kind);
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static off_t
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void
set_mtime(const char *path, time_t when)
{
	struct timespec ts[2] = { { when, 0 }, { when, 0 } };

	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static time_t
mtime_of(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_mtim.tv_sec;
}

static void
write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* Reads a whole small file into a malloc'd buffer. */
static uint8_t *
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

static void
open_cache(struct diskcache *cache, uint64_t max_bytes)
{
	ck_assert_int_eq(diskcache_open(cache, cache_path, 0, max_bytes, &logger), CLWARP_OK);
	ck_assert_ptr_nonnull(cache->dir);
	ck_assert_str_eq(cache->dir, cache_path);
}

static void
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

static void
expect_miss(const struct diskcache *cache, const uint8_t key[32], const char *kind)
{
	void *got = (void *)1;
	size_t size = 1;

	ck_assert_int_eq(diskcache_load(cache, key, kind, &got, &size), 0);
	ck_assert_ptr_null(got);
	ck_assert_uint_eq(size, 0);
}

START_TEST(test_roundtrip)
{
	struct diskcache cache;
	uint8_t key[32], payload[1000], other[300];
	char path[4096];
	uint8_t *raw;
	size_t n;
	struct stat st;

	setup();
	open_cache(&cache, 0);
	ck_assert_uint_eq(cache.max_bytes, CLWARP_CACHE_DEFAULT_MAX_BYTES);
	ck_assert_int_eq(stat(cache_path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);

	make_key(1, key);
	fill(payload, sizeof(payload), 1);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, sizeof(payload)), CLWARP_OK);
	expect_hit(&cache, key, "bin", payload, sizeof(payload));

	/* The documented layout, byte for byte. */
	entry_path(path, sizeof(path), cache_path, key, "bin");
	raw = read_file(path, &n);
	ck_assert_uint_eq(n, DISKCACHE_HEADER_SIZE + sizeof(payload));
	ck_assert_mem_eq(raw, "CLWARPC\x01", 8);
	ck_assert_mem_eq(raw + 8, "\x01\0\0\0\0\0\0\0", 8);
	ck_assert_mem_eq(raw + 16, key, 32);
	ck_assert_mem_eq(raw + 48, "\xe8\x03\0\0\0\0\0\0", 8);
	{
		uint8_t digest[32];

		sha256_buffer(payload, sizeof(payload), digest);
		ck_assert_mem_eq(raw + 56, digest, 32);
	}
	ck_assert_mem_eq(raw + 88, payload, sizeof(payload));
	free(raw);

	/* Kinds are separate entries; an empty payload is a valid one. */
	expect_miss(&cache, key, "probe");
	ck_assert_int_eq(diskcache_store(&cache, key, "probe", NULL, 0), CLWARP_OK);
	expect_hit(&cache, key, "probe", NULL, 0);
	expect_hit(&cache, key, "bin", payload, sizeof(payload));

	/* A second store replaces the entry. */
	fill(other, sizeof(other), 2);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", other, sizeof(other)), CLWARP_OK);
	expect_hit(&cache, key, "bin", other, sizeof(other));
	ck_assert_int_eq(warnings, 0);

	diskcache_close(&cache);
	ck_assert_ptr_null(cache.dir);
	diskcache_close(&cache);
	diskcache_close(NULL);
	teardown();
}
END_TEST

START_TEST(test_miss_and_bad_kind)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(2, key);
	expect_miss(&cache, key, "bin");

	ck_assert_int_eq(diskcache_store(&cache, key, "../x", "a", 1), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(diskcache_store(&cache, key, "", "a", 1), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(diskcache_store(&cache, key, NULL, "a", 1), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(diskcache_store(&cache, key, "a_very_long_kind", "a", 1),
	                 CLWARP_ERROR_INVALID_ARGUMENT);
	expect_miss(&cache, key, "BIN");
	expect_miss(&cache, key, NULL);
	ck_assert(diskcache_kind_valid("bin"));
	ck_assert(diskcache_kind_valid("probe_v2"));
	ck_assert(!diskcache_kind_valid("tmp-"));
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_truncated)
{
	static const off_t cuts[] = { 0, 1, 7, 8, 15, 16, 47, 48, 55, 56, 87, 88, 89, 300, 587 };
	struct diskcache cache;
	uint8_t key[32], payload[500];
	char path[4096];

	setup();
	open_cache(&cache, 0);
	make_key(3, key);
	fill(payload, sizeof(payload), 3);
	entry_path(path, sizeof(path), cache_path, key, "bin");
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, sizeof(payload)),
		                 CLWARP_OK);
		ck_assert_int_eq(truncate(path, cuts[i]), 0);
		expect_miss(&cache, key, "bin");
		ck_assert_msg(!exists(path), "entry cut at %ld was kept", (long)cuts[i]);
	}

	/* Bytes after the payload are damage too. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, sizeof(payload)), CLWARP_OK);
	ck_assert_int_eq(truncate(path, DISKCACHE_HEADER_SIZE + sizeof(payload) + 1), 0);
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));
	ck_assert_ptr_nonnull(strstr(last_drop, "trailing"));
	ck_assert_int_eq(drops, sizeof(cuts) / sizeof(cuts[0]) + 1);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

/* Stores an entry, xors one byte of its file, and expects a deleting miss. */
static void
corrupt_and_check(struct diskcache *cache, const uint8_t key[32], size_t offset, uint8_t mask)
{
	uint8_t payload[256];
	char path[4096];
	uint8_t *raw;
	size_t n;

	fill(payload, sizeof(payload), 4);
	ck_assert_int_eq(diskcache_store(cache, key, "bin", payload, sizeof(payload)), CLWARP_OK);
	entry_path(path, sizeof(path), cache->dir, key, "bin");
	raw = read_file(path, &n);
	ck_assert_uint_lt(offset, n);
	raw[offset] ^= mask;
	write_file(path, raw, n);
	free(raw);
	expect_miss(cache, key, "bin");
	ck_assert_msg(!exists(path), "entry damaged at byte %zu was kept", offset);
}

START_TEST(test_flipped_bytes)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(4, key);
	corrupt_and_check(&cache, key, DISKCACHE_HEADER_SIZE + 123, 0x01);  /* payload */
	ck_assert_ptr_nonnull(strstr(last_drop, "checksum"));
	corrupt_and_check(&cache, key, DISKCACHE_HEADER_SIZE, 0x80);        /* first payload byte */
	corrupt_and_check(&cache, key, DISKCACHE_HEADER_SIZE + 255, 0xff);  /* last payload byte */
	corrupt_and_check(&cache, key, 60, 0x10);                           /* checksum */
	corrupt_and_check(&cache, key, 0, 0x20);                            /* magic */
	corrupt_and_check(&cache, key, 7, 0x01);                            /* magic's \x01 */
	corrupt_and_check(&cache, key, 8, 0x03);                            /* version 1 -> 2 */
	corrupt_and_check(&cache, key, 13, 0x01);                           /* reserved */
	corrupt_and_check(&cache, key, 20, 0x01);                           /* key */
	corrupt_and_check(&cache, key, 48, 0x01);                           /* size, off by one */
	corrupt_and_check(&cache, key, 55, 0x80);                           /* size, huge */
	ck_assert_int_eq(drops, 11);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_wrong_key)
{
	struct diskcache cache;
	uint8_t a[32], b[32], pa[100], pb[100];
	char path_a[4096], path_b[4096];
	uint8_t *raw;
	size_t n;

	setup();
	open_cache(&cache, 0);
	make_key(5, a);
	make_key(6, b);
	fill(pa, sizeof(pa), 5);
	fill(pb, sizeof(pb), 6);
	ck_assert_int_eq(diskcache_store(&cache, a, "bin", pa, sizeof(pa)), CLWARP_OK);
	ck_assert_int_eq(diskcache_store(&cache, b, "bin", pb, sizeof(pb)), CLWARP_OK);
	entry_path(path_a, sizeof(path_a), cache_path, a, "bin");
	entry_path(path_b, sizeof(path_b), cache_path, b, "bin");

	/* A whole, self-consistent file under another key's name. */
	raw = read_file(path_a, &n);
	write_file(path_b, raw, n);
	free(raw);
	expect_miss(&cache, b, "bin");
	ck_assert(!exists(path_b));
	expect_hit(&cache, a, "bin", pa, sizeof(pa));

	/* Same key, but filed under another kind: still that key, still valid. */
	raw = read_file(path_a, &n);
	entry_path(path_b, sizeof(path_b), cache_path, a, "probe");
	write_file(path_b, raw, n);
	free(raw);
	expect_hit(&cache, a, "probe", pa, sizeof(pa));
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_bad_files)
{
	struct diskcache cache;
	uint8_t key[32], header[DISKCACHE_HEADER_SIZE], junk[5000];
	char path[4096];

	setup();
	open_cache(&cache, 0);
	make_key(7, key);
	entry_path(path, sizeof(path), cache_path, key, "bin");

	/* Random bytes. */
	fill(junk, sizeof(junk), 7);
	write_file(path, junk, sizeof(junk));
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* A header claiming 2^64-1 bytes must not make us allocate them. */
	memset(header, 0, sizeof(header));
	memcpy(header, "CLWARPC\x01\x01\0\0\0\0\0\0\0", 16);
	memcpy(header + 16, key, 32);
	memset(header + 48, 0xff, 8);
	write_file(path, header, sizeof(header));
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* Just over the 1 GiB limit. */
	memcpy(header + 48, "\x01\0\0\x40\0\0\0\0", 8);
	write_file(path, header, sizeof(header));
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* Empty file. */
	write_file(path, "", 0);
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* A folder where an entry should be: a miss, and nothing breaks. */
	ck_assert_int_eq(mkdir(path, 0700), 0);
	expect_miss(&cache, key, "bin");
	ck_assert_int_eq(rmdir(path), 0);

	/* A named pipe: a miss at once (the open used to wait for a writer
	 * forever: hangs in the cache torture test), and a store replaces it. */
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	expect_miss(&cache, key, "bin");
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", junk, 10), CLWARP_OK);
	expect_hit(&cache, key, "bin", junk, 10);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_eviction)
{
	enum { PAYLOAD = 100, ENTRY = DISKCACHE_HEADER_SIZE + PAYLOAD };
	struct diskcache cache;
	uint8_t keys[6][32], payload[PAYLOAD];
	char paths[6][4096], stale[4096], young[4096], foreign[4096];
	time_t now = time(NULL);
	void *got;
	size_t size;

	setup();
	/* Room for three entries, not four. */
	open_cache(&cache, 3 * ENTRY + ENTRY / 2);
	for (int i = 0; i < 6; i++) {
		make_key(100 + i, keys[i]);
		entry_path(paths[i], sizeof(paths[i]), cache_path, keys[i], "bin");
	}
	fill(payload, sizeof(payload), 8);

	/* Distinct, explicit ages: the file system's clock granularity does not matter. */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(diskcache_store(&cache, keys[i], "bin", payload, PAYLOAD), CLWARP_OK);
		set_mtime(paths[i], now - 1000 + 100 * i);
	}
	ck_assert(exists(paths[0]) && exists(paths[1]) && exists(paths[2]));

	/* Leftovers of a crashed writer, one stale, one maybe still in use, and
	 * a file that is not ours. */
	snprintf(stale, sizeof(stale), "%s/.tmp-stale1", cache_path);
	snprintf(young, sizeof(young), "%s/.tmp-young1", cache_path);
	snprintf(foreign, sizeof(foreign), "%s/README", cache_path);
	write_file(stale, payload, PAYLOAD);
	write_file(young, payload, PAYLOAD);
	write_file(foreign, payload, PAYLOAD);
	set_mtime(stale, now - 2 * DISKCACHE_STALE_TMP_SECONDS);
	set_mtime(young, now - 60);
	set_mtime(foreign, now - 100000);

	/* A fourth entry pushes out the oldest. */
	ck_assert_int_eq(diskcache_store(&cache, keys[3], "bin", payload, PAYLOAD), CLWARP_OK);
	ck_assert(!exists(paths[0]));
	ck_assert(exists(paths[1]) && exists(paths[2]) && exists(paths[3]));
	ck_assert(!exists(stale));
	ck_assert(exists(young));
	ck_assert(exists(foreign));

	/* A hit on the now-oldest entry makes it the newest... */
	ck_assert_int_eq(diskcache_load(&cache, keys[1], "bin", &got, &size), 1);
	free(got);
	ck_assert_int_ge(mtime_of(paths[1]), now);
	/* ...so the next store evicts the next-oldest instead. */
	ck_assert_int_eq(diskcache_store(&cache, keys[4], "bin", payload, PAYLOAD), CLWARP_OK);
	ck_assert(exists(paths[1]));
	ck_assert(!exists(paths[2]));
	ck_assert(exists(paths[3]) && exists(paths[4]));

	/* The entry just written survives even when it is the oldest by mtime
	 * (a clock step back, or a coarse clock). */
	set_mtime(paths[1], now + 1000);
	set_mtime(paths[3], now + 1000);
	set_mtime(paths[4], now + 1000);
	ck_assert_int_eq(diskcache_store(&cache, keys[5], "bin", payload, PAYLOAD), CLWARP_OK);
	ck_assert(exists(paths[5]));
	ck_assert_int_eq(exists(paths[1]) + exists(paths[3]) + exists(paths[4]), 2);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_too_large)
{
	struct diskcache cache;
	uint8_t key[32], other[32], payload[600];
	char path[4096], other_path[4096];

	setup();
	open_cache(&cache, 500);
	make_key(9, key);
	make_key(10, other);
	fill(payload, sizeof(payload), 9);
	entry_path(path, sizeof(path), cache_path, key, "bin");
	entry_path(other_path, sizeof(other_path), cache_path, other, "bin");

	ck_assert_int_eq(diskcache_store(&cache, other, "bin", payload, 100), CLWARP_OK);
	/* 88 + 413 = 501 bytes: over the bound alone, so not written at all,
	 * and nothing else is evicted for it. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, 413), CLWARP_ERROR_TOO_LARGE);
	ck_assert(!exists(path));
	ck_assert(exists(other_path));
	/* 88 + 412 = 500 fits exactly; the older entry goes. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, 412), CLWARP_OK);
	ck_assert_int_eq(file_size(path), 500);
	ck_assert(!exists(other_path));
	expect_hit(&cache, key, "bin", payload, 412);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_remove)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(11, key);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	ck_assert_int_eq(diskcache_store(&cache, key, "probe", "x", 1), CLWARP_OK);
	diskcache_remove(&cache, key, "bin");
	expect_miss(&cache, key, "bin");
	expect_hit(&cache, key, "probe", "x", 1);
	diskcache_remove(&cache, key, "bin");
	diskcache_remove(&cache, key, "../bin");
	diskcache_remove(NULL, key, "bin");
	diskcache_close(&cache);
	diskcache_remove(&cache, key, "probe");
	teardown();
}
END_TEST

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
	ck_assert_int_eq(diskcache_open(&cache, bad, 1, 0, &logger), CLWARP_OK);
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
	ck_assert_int_eq(diskcache_open(&cache, file, 1, 0, &logger), CLWARP_OK);
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

	ck_assert_int_eq(diskcache_open(&cache, explicit_dir, use_env, 0, &logger), CLWARP_OK);
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
	ck_assert_int_eq(diskcache_open(&cache, "rel/cache/", 0, 0, &logger), CLWARP_OK);
	ck_assert_ptr_nonnull(cache.dir);
	ck_assert_str_eq(cache.dir, want);
	diskcache_close(&cache);
	ck_assert_int_eq(diskcache_open(&cache, ".", 0, 0, &logger), CLWARP_OK);
	ck_assert_str_eq(cache.dir, here);
	diskcache_close(&cache);
	ck_assert_int_eq(chdir(old_cwd), 0);
	teardown();
}
END_TEST

enum { WRITERS = 8, ROUNDS = 50, SHARED_SIZE = 20000 };

static int
writer(unsigned id)
{
	struct diskcache cache;
	uint8_t shared_key[32], own_key[32], shared[SHARED_SIZE], own[777];

	if (diskcache_open(&cache, cache_path, 0, 0, NULL) != CLWARP_OK || !cache.dir)
		return 1;
	make_key(1000, shared_key);
	make_key(2000 + (int)id, own_key);
	fill(shared, sizeof(shared), 1000);
	fill(own, sizeof(own), id);
	for (int i = 0; i < ROUNDS; i++) {
		void *got;
		size_t size;

		if (diskcache_store(&cache, shared_key, "bin", shared, sizeof(shared)) != CLWARP_OK)
			return 2;
		if (diskcache_load(&cache, shared_key, "bin", &got, &size) != 1)
			return 3;
		if (size != sizeof(shared) || memcmp(got, shared, size) != 0) {
			free(got);
			return 4;
		}
		free(got);
		if (diskcache_store(&cache, own_key, "bin", own, sizeof(own)) != CLWARP_OK)
			return 5;
		if (diskcache_load(&cache, own_key, "bin", &got, &size) != 1)
			return 6;
		free(got);
	}
	diskcache_close(&cache);
	return 0;
}

START_TEST(test_concurrent_writers)
{
	pid_t pids[WRITERS];
	struct diskcache cache;
	uint8_t key[32], shared[SHARED_SIZE];
	DIR *d;
	struct dirent *de;
	int entries = 0;

	setup();
	open_cache(&cache, 0);
	for (unsigned i = 0; i < WRITERS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0)
			_exit(writer(i));
	}
	for (unsigned i = 0; i < WRITERS; i++) {
		int status;

		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		              "writer %u failed with status %d", i, status);
	}

	make_key(1000, key);
	fill(shared, sizeof(shared), 1000);
	expect_hit(&cache, key, "bin", shared, sizeof(shared));

	/* Every temp file was renamed or removed. */
	d = opendir(cache_path);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ck_abort_msg("leftover %s", de->d_name);
		if (de->d_name[0] != '.')
			entries++;
	}
	closedir(d);
	ck_assert_int_eq(entries, WRITERS + 1);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

static Suite *
diskcache_suite(void)
{
	Suite *s = suite_create("diskcache");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_miss_and_bad_kind);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_flipped_bytes);
	tcase_add_test(tc, test_wrong_key);
	tcase_add_test(tc, test_bad_files);
	tcase_add_test(tc, test_eviction);
	tcase_add_test(tc, test_too_large);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_unwritable_folder);
	tcase_add_test(tc, test_store_failure_warns_once);
	tcase_add_test(tc, test_folder_recreated);
	tcase_add_test(tc, test_env_precedence);
	tcase_add_test(tc, test_relative_dir);
	tcase_add_test(tc, test_concurrent_writers);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(diskcache_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
